"""Dotted-decimal hosts with leading zeros (docs/security.md): decimal by RFC 1738.

``hostnumber`` parts are decimal digit groups (section 3.1), so ``08`` is 8
and ``0177`` is 177, where WHATWG parsers and ``inet_aton`` read a leading
zero as octal. rfc1738 keeps the host as written and checks each part as
decimal; ``urllib.parse`` passes the host through; ``ipaddress`` refuses it.
The Chromium readings are checked in tests/site/test_browser.py, the page's
examples by test_confusion.test_docs_examples (every ```pycon block of the page).
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from urllib.parse import urlsplit

import pytest

import rfc1738

#: URL, its host, the address RFC 1738 reads, what inet_aton reads (None: refused).
CASES = [
    ("http://1.2.3.08/", "1.2.3.08", "1.2.3.8", None),
    ("http://09.2.3.4/", "09.2.3.4", "9.2.3.4", None),
    ("http://0177.0.0.1/", "0177.0.0.1", "177.0.0.1", "127.0.0.1"),
]
IDS = [url for url, *_ in CASES]


def decimal_reading(host: str) -> str:
    """The address RFC 1738 section 3.1 gives a hostnumber: four decimal groups."""
    return ".".join(str(int(part, 10)) for part in host.split("."))


@pytest.mark.parametrize(("url", "host", "address", "inet"), CASES, ids=IDS)
def test_rfc1738_reads_a_hostnumber_as_written(
    url: str, host: str, address: str, inet: str | None
) -> None:
    for parser in ("fast", "reference"):
        parsed = rfc1738.parse(url, parser=parser)
        assert isinstance(parsed, rfc1738.HttpURL)
        assert parsed.host == host
        assert parsed.port is None and parsed.effective_port == 80
        assert str(parsed) == url and str(parsed.normalize()) == url
        assert rfc1738.is_valid(url, parser=parser)
    assert rfc1738.parse(url) == rfc1738.parse(url, host_checks=False)
    tree = rfc1738.parse_tree(url)
    assert [t for t in tree.iter_subtrees() if t.data == "hostnumber"]
    assert not [t for t in tree.iter_subtrees() if t.data == "hostname"]
    assert decimal_reading(host) == address


@pytest.mark.parametrize(("url", "host", "address", "inet"), CASES, ids=IDS)
def test_urllib_passes_the_host_through(
    url: str, host: str, address: str, inet: str | None
) -> None:
    assert urlsplit(url).hostname == host
    with pytest.raises(ValueError, match="does not appear to be an IPv4"):
        ipaddress.ip_address(host)
    assert str(ipaddress.ip_address(address)) == address


@pytest.mark.skipif(sys.platform != "linux", reason="glibc's inet_aton, as the page says")
@pytest.mark.parametrize(("url", "host", "address", "inet"), CASES, ids=IDS)
def test_inet_aton_reads_a_leading_zero_as_octal(
    url: str, host: str, address: str, inet: str | None
) -> None:
    if inet is None:
        with pytest.raises(OSError):
            socket.inet_aton(host)
    else:
        assert socket.inet_ntoa(socket.inet_aton(host)) == inet != address


def test_a_part_over_255_in_decimal_is_an_error() -> None:
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        rfc1738.parse("http://0400.0.0.1/")
    assert caught.value.position == len("http://")
    assert caught.value.rule == "host"
    assert rfc1738.is_valid("http://0400.0.0.1/", host_checks=False)
