"""A file's lines, or an iterable's, a batch at a time: what :func:`rfc1738.check_lines` reads.

Split at ``\\n``, a ``\\r`` before it dropped, the last line kept without
one, decoded as UTF-8 with ``surrogateescape`` (a test holds the two
equal). For DuckDB, a block of plain UTF-8 lines becomes an Arrow column
over the file's bytes (:func:`arrow_lines`), without a Python string a line.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import IO, Any

__all__ = [
    "BATCH_BYTES",
    "BATCH_LINES",
    "Rows",
    "arrow_lines",
    "arrow_numbers",
    "ended",
    "file_blocks",
    "line_batches",
    "texts_at",
]

#: How many bytes of a file :func:`line_batches` reads for one batch (about
#: 600,000 lines of 50 characters): a query per batch (each costs about 10 ms
#: to set up: the macros' patterns), in constant memory.
BATCH_BYTES = 32 << 20

#: How many lines of an iterable make one batch.
BATCH_LINES = 100_000

#: Rows are a list of strings (``None`` for missing), or a pyarrow array of them.
Rows = Any


def line_batches(
    source: str | os.PathLike[str] | IO[bytes] | Iterable[str], size: int, *, arrow: bool = False
) -> Iterator[Rows]:
    """The lines of ``source`` a block at a time: lists, or with ``arrow`` Arrow arrays."""
    if isinstance(source, str | os.PathLike):
        with open(os.fspath(source), "rb") as stream:
            yield from file_blocks(stream, size, arrow=arrow)
        return
    read = getattr(source, "read", None)
    if read is not None:
        yield from file_blocks(source, size, arrow=arrow)  # type: ignore[arg-type]
        return
    items = iter(source)
    while True:
        block = [ended(line) for line in islice(items, BATCH_LINES)]
        if not block:
            return
        yield block


def ended(line: object) -> str:
    """A line of an iterable, without its ``\\n`` or ``\\r\\n``."""
    if not isinstance(line, str):
        raise TypeError(f"a line must be a str, not {type(line).__name__}")
    if line.endswith("\n"):
        return line[:-2] if line.endswith("\r\n") else line[:-1]
    return line


def file_blocks(stream: IO[bytes], size: int, *, arrow: bool = False) -> Iterator[Rows]:
    """The lines of a binary file, a list per read of about ``size`` bytes.

    What :func:`rfc1738.check_lines` gives for the same file: split at
    ``\\n``, a ``\\r`` before it dropped, the last line kept without one,
    decoded as UTF-8 with ``surrogateescape`` (a test holds the two equal).
    With ``arrow``, a block is an Arrow array of its lines where
    :func:`_arrow_lines` can make one, without a Python string a line.
    """
    rest = b""
    while True:
        block = stream.read(size)
        if not isinstance(block, bytes):
            raise TypeError(f"a file of lines must read bytes, not {type(block).__name__}")
        if not block:
            break
        block = rest + block
        cut = block.rfind(b"\n") + 1
        rest = block[cut:]
        if cut:
            lines_of = arrow_lines(block[:cut]) if arrow else None
            if lines_of is not None:
                yield lines_of
                continue
            text = block[:cut].decode("utf-8", "surrogateescape")
            lines = text.split("\n")
            lines.pop()  # after the last line ending
            if "\r" in text:
                lines = [line[:-1] if line.endswith("\r") else line for line in lines]
            yield lines
    if rest:
        yield [rest.decode("utf-8", "surrogateescape")]


def arrow_lines(block: bytes) -> Any | None:
    """The lines of ``block`` (which ends in ``\\n``) as Arrow strings, sharing its bytes.

    ``None`` where the block must be split in Python: numpy is not there to
    find the line ends, a ``\\r`` may have to go, or bytes are not UTF-8.
    """
    if b"\r" in block:
        return None
    try:
        # numpy and pyarrow: where they are not installed, Python splits.
        import numpy as np
        import pyarrow as pa  # (the duckdb extra's)
        import pyarrow.compute as pc  # (the duckdb extra's)
    except ImportError:
        return None
    ends = np.flatnonzero(np.frombuffer(block, np.uint8) == 10)
    offsets = np.empty(len(ends) + 1, np.int64)
    offsets[0] = 0
    offsets[1:] = ends + 1
    lines = pa.LargeStringArray.from_buffers(len(ends), pa.py_buffer(offsets), pa.py_buffer(block))
    if not block.isascii():  # (ASCII is UTF-8: a check many times faster than Arrow's)
        try:
            lines.validate(full=True)
        except pa.ArrowInvalid:
            return None  # not UTF-8: surrogateescape, in Python
    return pc.utf8_slice_codeunits(lines, 0, -1)  # each line without its \n


def texts_at(rows: Rows, indices: list[int]) -> list[str | None]:
    """The strings of ``rows`` (a list, or an Arrow array) at ``indices``."""
    if isinstance(rows, list | tuple):
        return [rows[index] for index in indices]
    # One by one: an Arrow array of the indices would have pyarrow import
    # pandas where it is installed (a fifth of a second), for a few rows.
    return [rows[index].as_py() for index in indices]


def arrow_numbers(start: int, count: int) -> Any:
    """The Arrow int64 array ``start``, ``start + 1``, ..., ``start + count - 1``: line numbers."""
    # pyarrow: comes with the duckdb extra.
    import pyarrow as pa

    # From a buffer: pa.array() of a range (or of numpy's integers) imports
    # pandas where it is installed, a fifth of a second.
    values = array("q", range(start, start + count))
    return pa.Array.from_buffers(pa.int64(), count, [None, pa.py_buffer(values)])
