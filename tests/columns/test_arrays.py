"""Arrow arrays from their buffers (:mod:`rfc1738.columns.arrays`): what ``pyarrow.array`` gives."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rfc1738.columns.arrays import booleans, integers, strings

pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (rfc1738[duckdb])")
pytest.importorskip("numpy", reason="numpy is not installed (with pyarrow)")

#: Strings, with what cannot be written as NUL-joined UTF-8 among them.
TEXTS = st.none() | st.text(max_size=8) | st.sampled_from(["a\x00b", "\ud800x", "é", ""])


@given(st.lists(TEXTS))
def test_strings_are_pyarrow_s_or_none(values: list[str | None]) -> None:
    found = strings(values)
    if found is None:  # a NUL or a lone surrogate: left to pyarrow.array
        assert any(v is not None and ("\x00" in v or "\ud800" in v) for v in values)
        return
    assert found.type == pa.large_string()
    assert found.null_count == values.count(None)
    assert found.equals(pa.array(values, pa.large_string()))


@given(st.lists(st.none() | st.integers(-(2**63), 2**63 - 1)))
def test_integers_are_pyarrow_s(values: list[int | None]) -> None:
    found = integers(values)
    assert found is not None
    assert found.equals(pa.array(values, pa.int64()))


@given(st.lists(st.none() | st.booleans()))
def test_booleans_are_pyarrow_s(values: list[bool | None]) -> None:
    found = booleans(values)
    assert found is not None
    assert found.equals(pa.array(values, pa.bool_()))


def test_what_is_not_of_the_type_is_left_to_pyarrow() -> None:
    assert strings(["a", 1]) is None  # type: ignore[list-item]
    assert integers([1, True]) is None
    assert integers([1, "2"]) is None  # type: ignore[list-item]
    assert booleans([True, 1]) is None  # type: ignore[list-item]
    assert integers([2**63]) is None
