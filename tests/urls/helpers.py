"""Shared checks for the URL object tests.

:func:`field_tests` makes the two tests each ``test_<scheme>.py`` runs over its
table of URLs and expected field values: every value matches, through both
parsers; and every field of the class (raw and decoded) is checked by at
least one row of the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache

import pytest
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

import rfc1738
from rfc1738.bnf.files import scheme_files, shipped_grammar_dir
from rfc1738.errors import AmbiguousFieldError
from rfc1738.runtime.reference import ReferenceParser
from rfc1738.urls import URL, GenericURL, Path

__all__ = [
    "Refused",
    "Row",
    "both_parsers",
    "field_tests",
    "grammar_urls",
    "one_value_per_part",
    "public_fields",
    "read",
]

#: The //login fields of a generic URL, given instead of its schemepart.
LOGIN = ("user", "password", "host", "port", "urlpath")

#: The longest URL the grammar strategies draw.
MAX_LENGTH = 300


@cache
def grammar_urls(scheme: str) -> st.SearchStrategy[str]:
    """Strings the shipped scheme's start rule generates (``hypothesis.extra.lark``),
    at most :data:`MAX_LENGTH` long."""
    entry = scheme_files(shipped_grammar_dir())[scheme]
    lark = ReferenceParser(entry.path).lark(entry.start)
    return from_lark(lark, start=entry.start).filter(lambda s: len(s) <= MAX_LENGTH)


class Refused:
    """An expected value: reading the attribute raises :class:`AmbiguousFieldError`
    naming ``escape``, and ``instead`` are the attributes it points to."""

    def __init__(self, escape: str, instead: tuple[str, ...]) -> None:
        self.escape = escape
        self.instead = instead

    def __eq__(self, other: object) -> bool:
        # normalize() writes the hex digits of an escape in upper case.
        return isinstance(other, Refused) and (self.escape.upper(), self.instead) == (
            other.escape.upper(),
            other.instead,
        )

    def __hash__(self) -> int:
        return hash((self.escape.upper(), self.instead))

    def __repr__(self) -> str:
        return f"Refused({self.escape!r}, {self.instead!r})"


def read(url: URL, name: str) -> object:
    """``getattr(url, name)``, or a :class:`Refused` for a value the URL cannot give."""
    try:
        return getattr(url, name)
    except AmbiguousFieldError as error:
        assert error.field == name
        return Refused(error.escape, error.instead)


#: A URL and the values some of its attributes must have.
Row = tuple[str, Mapping[str, object]]

#: Attributes every class has; checked in test_objects.py.
COMMON = frozenset({"scheme", "raw_scheme", "default_port", "effective_port", "port"})


def one_value_per_part(url: URL) -> dict[str, object]:
    """One value for each part of ``url``, as ``replace`` and ``from_fields`` take them:
    decoded where the URL gives it (``path``, else ``segments``), else as written."""
    values: dict[str, object] = {}
    for field in url.DECLARED:
        # A generic URL's //login fields, or its opaque schemepart.
        login = field.name in LOGIN
        if (
            isinstance(url, GenericURL)
            and field.name != "scheme"
            and login != (url.host is not None)
        ):
            continue
        names = [field.name]
        if isinstance(field, Path) and field.has_segments:
            names.append("segments")
        for name in names:
            value = read(url, name)
            if not isinstance(value, Refused):
                values[name] = value
                break
        else:
            values[field.raw_name] = getattr(url, field.raw_name)
    return values


def both_parsers(text: str) -> URL:
    """The object for ``text``; the fast and the reference parser must agree on it."""
    fast = rfc1738.parse(text)
    reference = rfc1738.parse(text, parser="reference")
    assert fast == reference
    assert type(fast) is type(reference)
    for name in public_fields(type(fast)):
        assert read(fast, name) == read(reference, name), name
    return fast


def public_fields(cls: type[URL]) -> frozenset[str]:
    """The raw fields and the decoded ones :meth:`URL.replace` takes."""
    given = {name for field in cls.DECLARED for name in field.names}
    return frozenset(given | set(cls.FIELDS))


def field_tests(
    cls: type[URL], rows: list[Row]
) -> tuple[Callable[[str, Mapping[str, object]], None], Callable[[], None]]:
    """The table test and the coverage test for one class."""

    @pytest.mark.parametrize(("text", "expected"), rows, ids=[text for text, _ in rows])
    def test_fields(text: str, expected: Mapping[str, object]) -> None:
        url = both_parsers(text)
        assert type(url) is cls
        assert str(url) == text
        actual = {name: read(url, name) for name in expected}
        assert actual == dict(expected)

    def test_every_field_is_checked() -> None:
        checked = set().union(*(expected.keys() for _, expected in rows))
        assert public_fields(cls) - COMMON <= checked

    return test_fields, test_every_field_is_checked
