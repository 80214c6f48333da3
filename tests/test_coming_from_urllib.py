"""docs/coming-from-urllib.md: real output, and a SplitResult loses only what the page says."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from hypothesis import HealthCheck, given, settings

import rfc1738
from rfc1738.strategies import urls
from tests.doc_examples import DOCS, run_examples

PAGE = DOCS / "coming-from-urllib.md"


def test_the_page_examples_run() -> None:
    results = run_examples(PAGE)
    assert results.attempted >= 20
    assert results.failed == 0


def documented_losses(text: str) -> set[str]:
    """What the page says ``urlunsplit(urlsplit(text))`` may give instead of ``text``."""
    scheme, colon, rest = text.partition(":")
    if not scheme[:1].isalpha():
        # Not a scheme to urlsplit (RFC 3986's begin with a letter): the whole text is its path.
        if urlsplit(text).scheme != "":
            return set()
        found = {text}
    else:
        found = {scheme.lower() + colon + rest}
        if rest.startswith("//") and not urlsplit(text).netloc:
            found |= {scheme.lower() + colon + rest[2:] for _ in found}  # an empty //
    found |= {each[:-1] for each in found if each.endswith("?")}  # a final ?
    return found


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(urls())
def test_there_and_back_loses_only_what_the_page_says(text: str) -> None:
    back = urlunsplit(urlsplit(str(rfc1738.parse(text))))
    assert back in documented_losses(text)


def test_each_documented_loss_happens() -> None:
    for text, back in [
        ("HTTP://h/", "http://h/"),
        ("http://h/?", "http://h/"),
        ("mailto:?", "mailto:"),
        ("foo://", "foo:"),
        ("file:////a", "file://a"),
        ("0a:b", "0a:b"),
        ("0:?", "0:"),
    ]:
        assert rfc1738.is_valid(text)
        assert urlunsplit(urlsplit(text)) == back
        assert back in documented_losses(text)
