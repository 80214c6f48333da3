"""The rejected rows' errors: :func:`rejected_error` is :func:`error_of`, not judged first."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import rfc1738
from rfc1738.columns.errors import error_of, rejected_error
from rfc1738.strategies import invalid_urls, urls

GRAMMAR = rfc1738.load()


def _same(text: str, host_checks: bool) -> None:
    found, expected = (
        rejected_error(GRAMMAR, text, host_checks),
        error_of(GRAMMAR, text, host_checks),
    )
    if expected is None:
        assert found is None
        return
    assert found is not None
    assert (str(found), found.position, found.rule, found.reason) == (
        str(expected),
        expected.position,
        expected.rule,
        expected.reason,
    )


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(invalid_urls().map(lambda url: url.text), urls(), st.text(max_size=40)),
    st.booleans(),
)
def test_the_error_of_any_text_is_error_of_s(text: str, host_checks: bool) -> None:
    _same(text, host_checks)


def test_a_valid_text_has_none_and_a_host_check_its_error() -> None:
    assert rejected_error(GRAMMAR, "http://h/", True) is None
    _same("http://h:99999/", True)
    assert rejected_error(GRAMMAR, "http://h:99999/", False) is None
