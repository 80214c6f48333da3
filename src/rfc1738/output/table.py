"""Tables of one row a line, written as JSON lines, CSV or Parquet, a batch at a time.

What ``rfc1738 check --format`` writes (``docs/cli.md``): the columns are
given by name, the rows a batch at a time, so that a file of any size is
written in constant memory. JSON lines and CSV are written here, in Python,
from rows of plain values (``None``, ``bool``, ``int``, ``str``, and lists
of ``{"name": ..., "value": ...}`` pairs); Parquet by pyarrow
(``rfc1738[duckdb]`` or ``[polars]`` bring it) from an Arrow table.

- JSON lines: one object a row, its keys the columns' names in order, as
  :func:`json.dumps` writes it (ASCII, ``null`` for ``None``).
- CSV: a header row, then one row a line ending in ``\\n``. A string is
  always quoted (``""`` for an empty one; a ``"`` doubled), so that an empty
  cell is a null, never an empty string; a list of pairs is its JSON text,
  quoted; ``true`` and ``false``; a number as it is.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, TextIO

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["TABLE_FORMATS", "CsvWriter", "JsonLinesWriter", "ParquetWriter", "TableFormat"]

#: What ``--format`` names: the formats a table of lines can be written in.
TableFormat = Literal["jsonl", "csv", "parquet"]
TABLE_FORMATS: tuple[TableFormat, ...] = ("jsonl", "csv", "parquet")

#: A row: one plain value a column.
Row = Sequence[object]


class JsonLinesWriter:
    """One JSON object a row, to a text stream."""

    def __init__(self, out: TextIO, names: Sequence[str]) -> None:
        self.out = out
        self.names = tuple(names)

    def write(self, rows: Sequence[Row]) -> None:
        names = self.names
        dumps = json.dumps
        self.out.write("".join(dumps(dict(zip(names, row, strict=True))) + "\n" for row in rows))


class CsvWriter:
    """A header, then one CSV row a row: strings always quoted, an empty cell a null."""

    def __init__(self, out: TextIO, names: Sequence[str]) -> None:
        self.out = out
        out.write(",".join(map(_quoted, names)) + "\n")

    def write(self, rows: Sequence[Row]) -> None:
        self.out.write("".join(",".join(map(_cell, row)) + "\n" for row in rows))


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return '"' + value.replace('"', '""') + '"'
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    return _quoted(json.dumps(value))


class ParquetWriter:
    """Arrow tables of one schema, appended to one Parquet file (needs pyarrow)."""

    def __init__(self, path: str, schema: pa.Schema, repeated: Sequence[str] = ()) -> None:
        """``repeated``: the columns of few distinct values, written with a dictionary.

        The others are written plain: a URL's parts are mostly distinct, and
        a dictionary for each column costs a fifth of the time of writing.
        """
        # pyarrow.parquet: an optional dependency; the caller says which extra brings it.
        import pyarrow.parquet as pq

        # Lists in the Parquet specification's form (the child named
        # "element"), as DuckDB writes them: pyarrow before 13 named it "item".
        self.writer: Any = pq.ParquetWriter(
            path, schema, use_compliant_nested_type=True, use_dictionary=list(repeated)
        )

    def write(self, table: pa.Table) -> None:
        self.writer.write_table(table)

    def close(self) -> None:
        self.writer.close()
