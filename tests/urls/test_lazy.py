"""Objects read their fields from the match when first asked (issue 11, item 1)."""

from __future__ import annotations

import copy
import pickle

import pytest

import rfc1738
from rfc1738.runtime.dispatch import MAX_SPELLINGS


def test_fields_are_read_on_first_access() -> None:
    url = rfc1738.parse("ftp://u:p@h:21/a%20b;type=d")
    with pytest.raises(AttributeError):
        url._cache  # noqa: B018 - nothing read yet
    assert url.path == "a b"
    assert url._cache["raw_path"] == "a%20b"
    assert url.segments == ("a b",) and url.typecode == "d"


def test_an_object_keeps_its_state_through_copies_and_pickles() -> None:
    url = rfc1738.parse("gopher://h:7/1s%09q%09+")
    for other in (copy.copy(url), copy.deepcopy(url), pickle.loads(pickle.dumps(url))):
        assert other == url and hash(other) == hash(url)
        assert other.to_dict() == url.to_dict()


def test_from_spans_copies_the_spans() -> None:
    spans = {"host": (7, 8), "hpath": (9, 10)}
    url = rfc1738.HttpURL.from_spans("http://h/p", spans)
    spans["hpath"] = (9, 9)
    assert url.path == "p"


def test_the_scheme_spellings_remembered_are_bounded() -> None:
    grammar = rfc1738.load(rfc1738.shipped().directory)
    for number in range(3 * MAX_SPELLINGS):
        assert grammar.is_valid(f"x{number}:y")
    assert grammar.parse("HtTp://h/").host == "h"
    assert len(grammar.dispatch.engines) <= MAX_SPELLINGS + len(grammar.files)


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("http://" + "a" * 63 + ".com/", True),
        ("http://" + "a" * 64 + ".com/", False),
        ("http://h:9999/", True),
        ("http://h:00065535/", True),
        ("http://h:65536/", False),
        ("http://255.0.0.1/", True),
        ("http://256.0.0.1/", False),
        ("x-y://u@" + "b" * 64 + "/", False),
    ],
)
def test_host_checks_on_the_registers_agree_with_the_spans(text: str, valid: bool) -> None:
    assert rfc1738.is_valid(text) is valid
    assert rfc1738.is_valid(text, parser="reference") is valid
    if valid:
        assert rfc1738.parse(text) == rfc1738.parse(text, parser="reference")
    else:
        with pytest.raises(rfc1738.URLSyntaxError):
            rfc1738.parse(text)
