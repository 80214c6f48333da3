"""``rfc1738 check --format``: one row a line, from the bulk API's verdicts, a batch at a time.

The columns: ``line`` (1-based), ``text`` (the line without its ending; a
byte that is not UTF-8 is U+FFFD here, as Parquet and JSON hold only
Unicode), ``valid``, the struct of the column plan (``scheme`` as written,
then every field as written: ``None`` where it does not apply, ``""`` where
it is empty, all ``None`` for a line not valid; :mod:`rfc1738.columns.plan`),
then for a line not valid its error's ``position`` (0-based, in
characters), ``rule`` and ``reason``, as ``rfc1738 parse`` gives them (for
a byte that is not UTF-8, the reason the summary gives, and no rule).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..columns import Checked, ColumnPlan
from ..columns.checked import arrow_struct_type
from ..columns.lines import Rows, arrow_numbers, texts_at
from ..columns.plan import SCHEME
from .output import not_utf8_dict

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "ERROR_COLUMNS",
    "REPEATED",
    "LineError",
    "arrow_rows",
    "arrow_schema",
    "error_columns",
    "line_errors",
    "names",
    "struct_names",
]

#: The columns of a line's error, after the struct's (fields of the library's error).
ERROR_COLUMNS = ("position", "rule", "reason")

#: The columns of few distinct values: the grammar file, and the error's rule
#: and reason (its columns after ``position``): those Parquet stores with a dictionary.
REPEATED = (SCHEME, *ERROR_COLUMNS[1:])

#: A line's error as the table holds it: position, rule (``None`` for a byte
#: that is not UTF-8), reason.
LineError = tuple[int, str | None, str]


def struct_names(plan: ColumnPlan) -> list[str]:
    """The struct's columns, in order: ``scheme``, then the plan's fields."""
    return [SCHEME, *(f.name for f in plan.fields)]


def names(plan: ColumnPlan) -> list[str]:
    """The table's columns, in order."""
    found = ["line", "text", "valid", *struct_names(plan), *ERROR_COLUMNS]
    if len(set(found)) != len(found):
        raise ValueError(f"a field of the grammar has the name of another column: {found}")
    return found


def line_errors(found: Checked, texts: dict[int, str]) -> dict[int, LineError]:
    """Each rejected line's error (``found`` made with ``errors=True``), by index in the batch.

    ``texts``: the rejected lines' texts, by index.
    """
    errors = found.errors or {}
    kept: dict[int, LineError] = {}
    for index, text in texts.items():
        encoding = not_utf8_dict(text)
        if encoding is not None:
            position, reason = encoding["position"], encoding["reason"]
            assert isinstance(position, int) and isinstance(reason, str)
            kept[index] = (position, None, reason)
        elif index in errors:
            error = errors[index]
            kept[index] = (error.position, error.rule, error.reason)
    return kept


def rejected_texts(found: Checked, rows: Rows) -> dict[int, str]:
    """The texts of the lines ``found`` says are not valid, by index."""
    rejected = [index for index, verdict in enumerate(found.valid) if verdict is False]
    return {
        index: text
        for index, text in zip(rejected, texts_at(rows, rejected), strict=True)
        if text is not None
    }


def shown(text: str) -> str:
    """``text`` with each byte that is not UTF-8 (a lone surrogate) as U+FFFD."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return text


def python_rows(
    found: Checked, rows: Rows, plan: ColumnPlan, errors: dict[int, LineError]
) -> list[tuple[object, ...]]:
    """The batch's rows as tuples of plain values, in :func:`names`' order.

    Made a column at a time: from DuckDB, each field of the struct is one
    Arrow column read into one list, with no dict a row (which cost a
    quarter of ``--format csv``'s time, and 60 MiB at its peak).
    """
    count = len(found)
    texts = rows if isinstance(rows, list | tuple) else rows.to_pylist()
    first = found.start + 1
    return list(
        zip(
            range(first, first + count),
            map(shown, texts),
            found.valid,
            *_struct_values(found, struct_names(plan)),
            *error_columns(count, errors),
            strict=True,
        )
    )


def _struct_values(found: Checked, fields: list[str]) -> list[list[Any]]:
    """Each field of the batch's structs (``fields``, in order): its values, ``None`` where none."""
    if found.engine == "duckdb":
        # The engine's Arrow columns, in the struct's order, which is
        # struct_names' (pyarrow: with the duckdb extra).
        return [column.to_pylist() for column in found.struct_fields()]
    structs = found.structs or [None] * len(found)
    return [[None if struct is None else struct[name] for struct in structs] for name in fields]


def error_columns(
    count: int, errors: dict[int, LineError]
) -> tuple[list[int | None], list[str | None], list[str | None]]:
    """The :data:`ERROR_COLUMNS` of ``count`` rows: a rejected row's error, ``None`` elsewhere."""
    positions: list[int | None] = [None] * count
    rules: list[str | None] = [None] * count
    reasons: list[str | None] = [None] * count
    for index, (position, rule, reason) in errors.items():
        positions[index], rules[index], reasons[index] = position, rule, reason
    return positions, rules, reasons


def arrow_schema(plan: ColumnPlan) -> pa.Schema:
    """The table's Arrow schema (needs pyarrow)."""
    # pyarrow: the parquet format's extra.
    import pyarrow as pa

    struct = arrow_struct_type(plan)
    return pa.schema(
        [
            ("line", pa.int64()),
            ("text", pa.string()),  # as DuckDB writes it (a batch is a few MiB)
            ("valid", pa.bool_()),
            *((struct.field(i).name, struct.field(i).type) for i in range(struct.num_fields)),
            ("position", pa.int64()),
            ("rule", pa.string()),
            ("reason", pa.string()),
        ]
    )


def arrow_rows(
    found: Checked, rows: Rows, schema: pa.Schema, errors: dict[int, LineError]
) -> pa.Table:
    """The batch's rows as an Arrow table of ``schema``, the struct as the engine gave it."""
    # pyarrow: the parquet format's extra.
    import pyarrow as pa

    count = len(found)
    if isinstance(rows, list | tuple):
        texts: Any = pa.array([shown(text) for text in rows], pa.string())
    else:
        texts = rows.cast(pa.string())
    positions, rules, reasons = error_columns(count, errors)
    structs = found.struct_fields()
    columns = [
        arrow_numbers(found.start + 1, count),
        texts,
        pa.array(found.valid, pa.bool_()),
        *structs,
        pa.array(positions, pa.int64()),
        pa.array(rules, pa.string()),
        pa.array(reasons, pa.string()),
    ]
    return pa.Table.from_arrays(columns, schema=schema)
