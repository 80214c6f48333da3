"""Property tests over strings generated from each scheme's grammar file.

For every string ``s`` the grammar generates (``hypothesis.extra.lark``):

- ``str(parse(s)) == s``;
- ``parse(str(u.normalize())) == u.normalize()``, normalizing twice changes
  nothing, and the decoded values survive normalization (but for host case
  and the port);
- ``u.replace(**decoded values)`` gives back the same decoded values.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

import rfc1738
from rfc1738.bnf.files import scheme_files, shipped_grammar_dir
from rfc1738.parse.facts import SCHEME_FACTS
from rfc1738.parse.reference import ReferenceParser
from rfc1738.urls import CLASSES, URL, GenericURL, NewsURL

MAX_LENGTH = 300
SCHEMES = sorted(CLASSES)
#: Fields that normalization may change: case of scheme and host, the port.
NORMALIZED = frozenset({"scheme", "host", "port"})
#: Fields replace() is given in their stead (one view of one part is enough).
VIEWS = {"path": "segments"}
LOGIN = ("user", "password", "host", "port", "urlpath")


@cache
def urls(scheme: str) -> st.SearchStrategy[str]:
    """Strings the scheme's start rule generates, at most MAX_LENGTH long."""
    entry = scheme_files(shipped_grammar_dir())[scheme]
    lark = ReferenceParser(entry.path).lark(entry.start)
    return from_lark(lark, start=entry.start).filter(lambda s: len(s) <= MAX_LENGTH)


def decoded(url: URL, names: object = None) -> dict[str, object]:
    return {name: getattr(url, name) for name in (names or url.FIELDS)}  # type: ignore[attr-defined]


def replaceable(url: URL) -> dict[str, object]:
    """The decoded values to give replace(): one view of each part."""
    if isinstance(url, GenericURL):
        names = ("scheme", *LOGIN) if url.host is not None else ("scheme", "schemepart")
        return {name: getattr(url, name) for name in names}
    values = decoded(url)
    for view, instead in VIEWS.items():
        if instead in values:
            values.pop(view)
    return values


def _unique(article: str | None) -> str:
    return (article or "").rpartition("@")[0]


def _lower(host: str | None) -> str | None:
    return None if host is None else host.lower()


@pytest.mark.parametrize("scheme", SCHEMES)
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_round_trips(scheme: str, data: st.DataObject) -> None:
    text = data.draw(urls(scheme), label="url")
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
    assert decoded(normal, kept) == decoded(url, kept)
    assert _lower(getattr(normal, "host", None)) == _lower(getattr(url, "host", None))
    assert normal.effective_port == url.effective_port

    given_values = replaceable(url)
    rebuilt = url.replace(**given_values)
    assert decoded(rebuilt, given_values) == given_values
    assert decoded(rebuilt) == decoded(url) or isinstance(url, GenericURL)


@pytest.mark.parametrize("scheme", ["http", "ftp", "file"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_replace_path_gives_back_the_path(scheme: str, data: st.DataObject) -> None:
    url = rfc1738.parse(data.draw(urls(scheme), label="url"), host_checks=False)
    path = url.path
    assert url.replace(path=path).path == path
