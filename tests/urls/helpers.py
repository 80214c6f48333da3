"""Shared checks for the URL object tests.

:func:`field_tests` makes the two tests each ``test_<scheme>.py`` runs over its
table of URLs and expected field values: every value matches, through both
parsers; and every field of the class (raw and decoded) is checked by at
least one row of the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

import rfc1738
from rfc1738.urls import URL

__all__ = ["Row", "both_parsers", "field_tests", "public_fields"]

#: A URL and the values some of its attributes must have.
Row = tuple[str, Mapping[str, object]]

#: Attributes every class has; checked in test_objects.py.
COMMON = frozenset({"scheme", "raw_scheme", "default_port", "effective_port", "port"})


def both_parsers(text: str) -> URL:
    """The object for ``text``; the fast and the reference parser must agree on it."""
    fast = rfc1738.parse(text)
    reference = rfc1738.parse(text, parser="reference")
    assert fast == reference
    assert type(fast) is type(reference)
    for name in public_fields(type(fast)):
        assert getattr(fast, name) == getattr(reference, name), name
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
        actual = {name: getattr(url, name) for name in expected}
        assert actual == dict(expected)

    def test_every_field_is_checked() -> None:
        checked = set().union(*(expected.keys() for _, expected in rows))
        assert public_fields(cls) - COMMON <= checked

    return test_fields, test_every_field_is_checked
