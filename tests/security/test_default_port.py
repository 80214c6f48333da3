"""Section 6: ``URL.uses_default_port()`` for every class.

True when the URL names no port or names its scheme's default port; for a
scheme without a default port, True only when no port is named.
"""

from __future__ import annotations

import pytest

import rfc1738
from rfc1738.urls import CLASSES

#: (URL, uses_default_port()), through every class and both sides of the answer.
CASES = [
    ("http://h/", True),
    ("http://h:80/", True),
    ("http://h:080/", True),
    ("http://h:8080/", False),
    ("http://h:25/", False),
    ("ftp://h/", True),
    ("ftp://u:p@h:21/a;type=i", True),
    ("ftp://h:2121/", False),
    ("gopher://h", True),
    ("gopher://h:70/1", True),
    ("gopher://h:25/", False),
    ("nntp://h/g", True),
    ("nntp://h:119/g/1", True),
    ("nntp://h:25/g", False),
    ("telnet://h", True),
    ("telnet://h:23/", True),
    ("telnet://h:25/", False),
    ("wais://h/db", True),
    ("wais://h:210/db", True),
    ("wais://h:211/db", False),
    ("prospero://h/x", True),
    ("prospero://h:1525/x", True),
    ("prospero://h:1526/x", False),
    # Schemes with no default port: no port named is the only default.
    ("file:///etc/motd", True),
    ("mailto:a@b", True),
    ("news:*", True),
    ("https://h/", True),
    ("https://h:443/", False),
    ("x-foo://u@h:0/", False),
    ("x-foo:bar", True),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_uses_default_port(text: str, expected: bool) -> None:
    for parser in ("fast", "reference"):
        url = rfc1738.parse(text, parser=parser)
        assert url.uses_default_port() is expected
        port, default = url.port, url.default_port
        assert expected == (port is None or port == default)


def test_every_class_is_covered() -> None:
    covered = {type(rfc1738.parse(text)) for text, _ in CASES}
    assert covered == set(CLASSES.values())


def test_other_port_without_host_checks() -> None:
    url = rfc1738.parse("http://h:65616/", host_checks=False)
    assert url.port == 65616
    assert not url.uses_default_port()
