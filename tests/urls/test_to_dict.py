"""``URL.to_dict()``: every field, raw and decoded, as JSON, for every class."""

from __future__ import annotations

import json

import pytest

import rfc1738
from rfc1738.urls import CLASSES, URL
from tests.cases import ACCEPT, Case, case_id

from .helpers import COMMON, Refused, public_fields, read

ALL_ACCEPTED = [case for cases in ACCEPT.values() for case in cases]


def properties(cls: type[URL]) -> set[str]:
    return {
        name
        for klass in cls.__mro__
        for name, value in vars(klass).items()
        if isinstance(value, property) and not name.startswith("_")
    }


def as_json(value: object) -> object:
    if isinstance(value, tuple):
        return [as_json(item) for item in value]
    return value


@pytest.mark.parametrize("case", ALL_ACCEPTED, ids=case_id)
def test_every_field_raw_and_decoded(case: Case) -> None:
    url = rfc1738.parse(case.url)
    data = url.to_dict()
    cls = type(url)
    assert data["class"] == cls.__name__
    assert data["text"] == case.url
    names = set(data) - {"class"}
    # What the URL cannot give decoded (AmbiguousFieldError) is left out.
    refused = {name for name in public_fields(cls) if isinstance(read(url, name), Refused)}
    assert names >= (public_fields(cls) | COMMON | {"text"}) - refused
    # Every public property and declared field, except what is not a part.
    declared = {name for field in cls.DECLARED for name in field.names}
    assert names == (properties(cls) | declared | {"text"}) - refused - {
        "facts",
        "grammar",
        "host_checks",
    }
    for name in names:
        assert data[name] == as_json(getattr(url, name)), name


@pytest.mark.parametrize("case", ALL_ACCEPTED, ids=case_id)
def test_json_round_trip(case: Case) -> None:
    data = rfc1738.parse(case.url).to_dict()
    written = json.dumps(data)
    assert written.isascii()
    assert json.loads(written) == data


def test_every_class_is_covered() -> None:
    assert {type(rfc1738.parse(case.url)) for case in ALL_ACCEPTED} == set(CLASSES.values())


def test_decoded_before_raw_and_ports_last() -> None:
    assert list(rfc1738.parse("http://h:81/a%20b?q").to_dict().items()) == [
        ("class", "HttpURL"),
        ("text", "http://h:81/a%20b?q"),
        ("scheme", "http"),
        ("raw_scheme", "http"),
        ("host", "h"),
        ("port", 81),
        ("raw_port", "81"),
        ("path", "a b"),
        ("segments", ["a b"]),
        ("raw_path", "a%20b"),
        ("search", "q"),
        ("raw_search", "q"),
        ("default_port", 80),
        ("effective_port", 81),
    ]


def test_pairs_become_lists_of_lists() -> None:
    data = rfc1738.parse("prospero://h/p;a=1;b=%32").to_dict()
    assert data["fieldspecs"] == [["a", "1"], ["b", "2"]]
    assert data["raw_fieldspecs"] == [["a", "1"], ["b", "%32"]]


def test_lone_surrogates_stay_and_are_escaped_in_json() -> None:
    data = rfc1738.parse("ftp://h/%FF/caf%C3%A9").to_dict()
    assert data["segments"] == ["\udcff", "café"]
    written = json.dumps(data, ensure_ascii=True)
    assert '"segments": ["\\udcff", "caf\\u00e9"]' in written
    assert json.loads(written) == data


def test_empty_and_absent_stay_apart() -> None:
    assert rfc1738.parse("ftp://@h/").to_dict()["user"] == ""
    assert rfc1738.parse("ftp://h/").to_dict()["user"] is None
