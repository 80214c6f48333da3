"""Property tests over strings generated from each scheme's grammar file.

For every string ``s`` the grammar generates (``hypothesis.extra.lark``):

- ``str(parse(s)) == s``;
- ``parse(str(u.normalize())) == u.normalize()``, normalizing twice changes
  nothing, and the decoded values survive normalization (but for host case,
  the port, and what section 3 says is the same: see ``EQUIVALENT``); a
  decoded value the URL cannot give (``AmbiguousFieldError``) stays one;
- ``u.replace(**one value per part)`` gives back the same values.

That a field given its own value gives the same URL is ``test_lossless.py``.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rfc1738
from rfc1738.runtime.facts import SCHEME_FACTS
from rfc1738.urls import CLASSES, URL, FileURL, GenericURL, GopherURL, HttpURL, NewsURL
from tests.budget import examples

from .helpers import LOGIN, grammar_urls, one_value_per_part, read

SCHEMES = sorted(CLASSES)
#: Fields that normalization may change: case of scheme and host, the port.
NORMALIZED = frozenset({"scheme", "host", "port"})


def decoded(url: URL, names: object = None) -> dict[str, object]:
    return {name: read(url, name) for name in (names or url.FIELDS)}  # type: ignore[attr-defined]


def equivalent(url: URL) -> dict[str, object]:
    """The decoded values that section 3 says ``url`` has, as its canonical form writes them."""
    # Read from the values: a decoded value the URL cannot give (a %2F in
    # a path) is a Refused there, where the attribute would raise.
    values = decoded(url)
    if isinstance(url, HttpURL) and values["path"] is None and values["search"] is None:
        values |= {"path": "", "segments": ("",)}  # 3.3: the "/" may be left out
    gopher = (values.get("gtype"), values.get("selector"), values.get("search"))
    if isinstance(url, GopherURL) and gopher == ("1", "", None):
        values |= {"gtype": None, "selector": None}  # 3.4: type "1" of the empty selector
    host = values.get("host")
    if isinstance(url, FileURL) and isinstance(host, str) and host.lower() == "localhost":
        values |= {"host": None}  # 3.10: localhost is this machine, as the empty host
    return values


def _unique(article: object) -> str:
    return str(article or "").rpartition("@")[0]


def _lower(host: object) -> object:
    return host.lower() if isinstance(host, str) else host


@pytest.mark.parametrize("scheme", SCHEMES)
@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_round_trips(scheme: str, data: st.DataObject) -> None:
    text = data.draw(grammar_urls(scheme), label="url")
    if scheme == "generic":
        # genericurl generates any scheme name; a predefined one must match
        # its own production, which is another scheme's test.
        assume(text.partition(":")[0].lower() not in SCHEME_FACTS)
    url = rfc1738.parse(text, host_checks=False)
    assert type(url) is CLASSES[scheme]
    assert str(url) == text

    normal = url.normalize()
    assert rfc1738.parse(str(normal), host_checks=False) == normal
    assert normal.normalize() == normal
    kept = set(url.FIELDS) - NORMALIZED
    if isinstance(url, GenericURL):
        kept = {"schemepart"} if url.host is None else set(LOGIN) - NORMALIZED
    if isinstance(url, NewsURL) and url.article is not None:
        # The article's host is lowered with the rest: compare the unique part.
        kept.discard("article")
        assert _unique(normal.article) == _unique(url.article)
    expected = equivalent(url)
    assert decoded(normal, kept) == {name: expected[name] for name in kept}
    if "host" in url.FIELDS:
        assert _lower(normal.host) == _lower(expected["host"])
    assert normal.effective_port == url.effective_port

    given_values = one_value_per_part(url)
    rebuilt = url.replace(**given_values)
    assert {name: read(rebuilt, name) for name in given_values} == given_values
    assert decoded(rebuilt) == decoded(url) or isinstance(url, GenericURL)


@pytest.mark.parametrize("scheme", ["http", "ftp", "file"])
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_replace_path_gives_back_the_path(scheme: str, data: st.DataObject) -> None:
    url = rfc1738.parse(data.draw(grammar_urls(scheme), label="url"), host_checks=False)
    path = read(url, "path")
    assume(isinstance(path, str | None))
    assert url.replace(path=path).path == path
