"""Arrow arrays from Python lists, built from their buffers: no ``pyarrow.array``.

``pyarrow.array`` imports pandas, where it is installed, the first time it
is called on anything (to ask whether it is a pandas object): a fifth of a
second to half a second. The bulk API's lists and ``rfc1738 check --format
parquet``'s columns need none of it: strings are written as UTF-8 joined by
NUL and split in Arrow (:func:`~rfc1738.columns.lines.ended_strings`, as
lines of a file are), numbers and booleans through numpy. Each function
gives ``None`` where its values cannot be written so (a string holding a NUL
or a lone surrogate, a value of another type): the caller then uses
``pyarrow.array``, which reads those or says why not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .lines import ended_strings

__all__ = ["booleans", "integers", "strings"]


def _missing(values: Sequence[object]) -> list[int]:
    """The indices of the ``None`` values."""
    return [i for i, value in enumerate(values) if value is None] if None in values else []


def strings(values: Sequence[str | None]) -> Any | None:
    """``values`` as Arrow ``large_string`` (``None`` as null), or ``None`` if they cannot be."""
    missing = _missing(values)
    texts = ["" if value is None else value for value in values] if missing else values
    try:
        joined = "\x00".join(texts)  # type: ignore[arg-type]  # (not a str: a TypeError)
    except TypeError:
        return None
    if values and joined.count("\x00") != len(values) - 1:
        return None  # a value holds a NUL
    try:
        data = (joined + "\x00").encode("utf-8") if values else b""
    except UnicodeEncodeError:
        return None  # a lone surrogate
    return ended_strings(data, b"\x00", missing)


def integers(values: Sequence[int | None]) -> Any | None:
    """``values`` as Arrow ``int64`` (``None`` as null), or ``None`` if they cannot be."""
    return _numbers(values, "int64", 0)


def booleans(values: Sequence[bool | None]) -> Any | None:
    """``values`` as Arrow ``bool`` (``None`` as null), or ``None`` if they cannot be."""
    return _numbers(values, "bool", False)


def _numbers(values: Sequence[Any], kind: str, blank: object) -> Any | None:
    try:
        # numpy and pyarrow: where they are not installed, pyarrow.array is not either.
        import numpy as np
        import pyarrow as pa  # (the duckdb extra's)
    except ImportError:
        return None
    missing = _missing(values)
    filled = [blank if value is None else value for value in values] if missing else values
    if not all(type(value) is type(blank) for value in filled):
        return None  # another type (a bool among integers, say): pyarrow.array says
    try:
        found: Any = np.array(filled, dtype=np.bool_ if kind == "bool" else np.int64)
    except OverflowError:
        return None  # past int64: pyarrow.array says so
    data = np.packbits(found, bitorder="little") if kind == "bool" else found
    valid = None
    if missing:
        present = np.ones(len(values), np.bool_)
        present[missing] = False
        valid = pa.py_buffer(np.packbits(present, bitorder="little"))
    arrow_type = pa.bool_() if kind == "bool" else pa.int64()
    return pa.Array.from_buffers(arrow_type, len(values), [valid, pa.py_buffer(data)], len(missing))
