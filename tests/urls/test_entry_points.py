"""``Class.parse``, ``rfc1738.parse(text, Class)`` and ``Class.from_fields`` (issue 13, item 3)."""

from __future__ import annotations

import pytest

import rfc1738
from rfc1738.runtime.facts import facts_for
from rfc1738.urls import CLASSES, URL, GenericURL, HttpURL
from tests.urls.test_objects import EXAMPLES


@pytest.mark.parametrize("scheme", sorted(CLASSES))
def test_each_class_parses_its_own_urls(scheme: str) -> None:
    cls = CLASSES[scheme]
    url = cls.parse(EXAMPLES[scheme])
    assert type(url) is cls
    assert url == rfc1738.parse(EXAMPLES[scheme]) == rfc1738.parse(EXAMPLES[scheme], cls)
    assert cls.parse(EXAMPLES[scheme], parser="reference") == url


@pytest.mark.parametrize("scheme", sorted(CLASSES))
def test_a_url_of_another_scheme_names_the_expected_one(scheme: str) -> None:
    cls = CLASSES[scheme]
    other = "news:*" if scheme != "news" else "http://h/"
    start = facts_for(cls.SCHEME).start
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        cls.parse(other)
    error = caught.value
    assert (error.position, error.rule, error.expected) == (0, start, frozenset({start}))
    assert f"{cls.__name__}.parse reads {start}" in error.reason
    assert isinstance(error, ValueError)


def test_an_invalid_url_is_the_usual_error() -> None:
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        HttpURL.parse("http://h/a b")
    assert caught.value.position == 10


def test_the_base_class_takes_any_url() -> None:
    assert type(URL.parse("x-new:thing")) is GenericURL
    assert type(rfc1738.parse("http://h/", URL)) is HttpURL


def test_from_fields_escapes_and_reads_back() -> None:
    url = HttpURL.from_fields(host="h", segments=("a b", "~"), search="?")
    assert str(url) == "http://h/a%20b/%7E?%3F"
    assert url.segments == ("a b", "~") and url.search == "?"
    with pytest.raises(ValueError, match="search needs a path"):
        HttpURL.from_fields(host="h", search="q")
    with pytest.raises(ValueError, match="always has a host"):
        HttpURL.from_fields(path="a")
    with pytest.raises(TypeError, match="no field"):
        HttpURL.from_fields(host="h", user="u")


def test_a_class_the_shipped_grammar_never_builds_says_so() -> None:
    # A class of an edited grammar (docs/how-to/edit-the-grammar.md's AfsURL):
    # its parse() reads by the shipped grammar, which builds other classes.
    class AfsURL(URL):
        """afs://cellname/fpath, as in the how-to."""

    for text in ("afs://x.org/a", "http://h/"):
        with pytest.raises(rfc1738.URLSyntaxError) as caught:
            AfsURL.parse(text)
        assert "AfsURL.parse reads by the shipped grammar, which builds no AfsURL" in str(
            caught.value
        )
        assert caught.value.position == 0
