"""What the bulk API gives: :class:`Checked`, the verdicts on some URLs, and its Arrow types."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from ..errors import URLSyntaxError
from .errors import ERROR_FIELDS, error_row
from .plan import SCHEME, ColumnPlan

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["Checked", "Engine", "arrow_struct_type"]

#: Which runner judges: DuckDB (with pyarrow), or the library in Python.
Engine = Literal["duckdb", "python"]


class Checked:
    """The verdicts on some URLs, one call's or one batch's (see the module's description).

    Lists are in the order of the input; ``errors`` maps the index of each
    URL that is not valid (in this batch) to its error. From DuckDB, the
    verdicts and grammar files stay Arrow columns until ``valid`` or
    ``schemes`` is read: ``invalid`` and :meth:`counts` count them there.
    """

    __slots__ = (
        "_arrow",
        "_changed",
        "_plan",
        "_schemes",
        "_structs",
        "_table",
        "_valid",
        "engine",
        "errors",
        "start",
    )

    #: Which runner judged: ``"duckdb"`` or ``"python"``.
    engine: Engine
    #: How many rows came before this batch (0 for :func:`check`): row ``i``
    #: is line ``start + i + 1`` of a file.
    start: int
    #: Index → the error of each URL that is not valid (``errors=True``), else ``None``.
    errors: dict[int, URLSyntaxError] | None

    def __init__(
        self,
        engine: Engine,
        start: int,
        valid: list[bool | None] | None,
        schemes: list[str | None] | None = None,
        structs: list[dict[str, object] | None] | None = None,
        errors: dict[int, URLSyntaxError] | None = None,
        table: pa.Table | None = None,
        plan: ColumnPlan | None = None,
        changed: dict[int, tuple[bool, str | None]] | None = None,
    ) -> None:
        self.engine = engine
        self.start = start
        self._valid = valid
        self._schemes = schemes
        self._structs = structs
        self.errors = errors
        self._table = table
        self._plan = plan
        #: Index → (verdict, grammar file) the library gave where the engine's did not serve.
        self._changed = changed or {}

    @property
    def valid(self) -> list[bool | None]:
        """Each URL's verdict; ``None`` for a missing value."""
        if self._valid is None:
            assert self._table is not None
            found: list[bool | None] = self._table.column("valid").to_pylist()
            for index, (verdict, _file) in self._changed.items():
                found[index] = verdict
            self._valid = found
        return self._valid

    @property
    def schemes(self) -> list[str | None] | None:
        """Each URL's grammar file (``schemes=True``), else ``None``."""
        table = self._table
        if self._schemes is None and table is not None and "scheme" in table.column_names:
            found: list[str | None] = table.column("scheme").to_pylist()
            for index, (_verdict, file) in self._changed.items():
                found[index] = file
            self._schemes = found
        return self._schemes

    @property
    def structs(self) -> list[dict[str, object] | None] | None:
        """Each URL's struct (``struct=True``), ``None`` for one not valid; else ``None``.

        From DuckDB, made from the engine's column when first read.
        """
        table = self._table
        if self._structs is None and table is not None and "url" in table.column_names:
            self._structs = table.column("url").to_pylist()
        return self._structs

    def struct_column(self) -> pa.Array:
        """The structs (``struct=True``) as one Arrow struct array, null for a URL not valid."""
        # pyarrow: an optional dependency (the duckdb and polars extras bring it).
        import pyarrow as pa

        kind = None if self._plan is None else arrow_struct_type(self._plan)
        table = self._table
        if table is not None and "url" in table.column_names:
            # The engine's own column, without a round trip through Python.
            return table.column("url").combine_chunks().cast(kind)
        if self._structs is None:
            raise ValueError("the structs need check(..., struct=True)")
        return pa.array(self._structs, kind)

    def struct_fields(self) -> list[Any]:
        """The struct's fields (``struct=True``), one Arrow column each, in order.

        :meth:`struct_column` flattened; from DuckDB, the engine's chunks as
        they are (one array would copy them: 0.08 s for 10^6 rows).
        """
        table = self._table
        if table is not None and "url" in table.column_names:
            kind = None if self._plan is None else arrow_struct_type(self._plan)
            return list(table.column("url").cast(kind).flatten())
        return list(self.struct_column().flatten())

    def __len__(self) -> int:
        if self._valid is not None:
            return len(self._valid)
        return 0 if self._table is None else int(self._table.num_rows)

    def __repr__(self) -> str:
        return (
            f"<Checked {len(self)} URLs from {self.start}, {self.invalid} invalid, "
            f"on {self.engine}>"
        )

    @property
    def invalid(self) -> int:
        """How many URLs are not valid (missing values are neither)."""
        if self._valid is not None or self._table is None:
            return sum(1 for verdict in self.valid if verdict is False)
        # pyarrow.compute: the engine's column, counted where it is.
        import pyarrow.compute as pc

        column = self._table.column("valid")
        found = int(pc.sum(pc.invert(column)).as_py() or 0)
        for index, (verdict, _file) in self._changed.items():
            found += int(verdict is False) - int(column[index].as_py() is False)
        return found

    def counts(self) -> dict[str, tuple[int, int]]:
        """Grammar file → (valid, invalid), as ``rfc1738 check`` counts (needs ``schemes=True``)."""
        table = self._table
        found: dict[str, list[int]] = {}
        if self._schemes is None and table is not None and "scheme" in table.column_names:
            # The engine's columns, counted where they are (value_counts: a
            # group_by would import pandas, where it is installed, for its
            # keys); then what the library changed.
            import pyarrow.compute as pc  # (pyarrow: the engine's columns are Arrow)

            files = table.column("scheme")
            verdicts = table.column("valid")
            for side, mask in enumerate((verdicts, pc.invert(verdicts))):
                for row in pc.value_counts(pc.filter(files, mask)).to_pylist():
                    if row["values"] is not None:
                        found.setdefault(row["values"], [0, 0])[side] += row["counts"]
            for index, (verdict, file) in self._changed.items():
                was: str | None = table.column("scheme")[index].as_py()
                steps: list[tuple[str | None, bool | None, int]] = [
                    (was, table.column("valid")[index].as_py(), -1),
                    (file or was, verdict, 1),
                ]
                for scheme, valid, step in steps:
                    if scheme is not None and valid is not None:
                        found.setdefault(scheme, [0, 0])[0 if valid else 1] += step
        elif self.schemes is None:
            raise ValueError("counts by scheme need check(..., schemes=True)")
        else:
            for scheme, given in zip(self.schemes, self.valid, strict=True):
                if scheme is not None and given is not None:
                    found.setdefault(scheme, [0, 0])[0 if given else 1] += 1
        return {
            scheme: (valid, invalid)
            for scheme, (valid, invalid) in sorted(found.items())
            if valid or invalid
        }

    def to_arrow(self) -> pa.Table:
        """The results as a pyarrow table: ``valid``, and ``scheme``, ``url``, ``error`` if asked.

        ``url`` is the struct (null for a URL not valid), ``error`` a struct
        of ``reason``, ``position``, ``rule`` and ``error`` (the message),
        null for a valid URL. Needs pyarrow.
        """
        # pyarrow: an optional dependency (the duckdb and polars extras bring it).
        import pyarrow as pa

        columns: dict[str, pa.Array] = {"valid": pa.array(self.valid, pa.bool_())}
        if self.schemes is not None:
            columns["scheme"] = pa.array(self.schemes, pa.string())
        table = self._table
        if self._structs is not None or (table is not None and "url" in table.column_names):
            columns["url"] = self.struct_column()
        if self.errors is not None:
            rows = [
                None if index not in self.errors else error_row(self.errors[index])
                for index in range(len(self))
            ]
            columns["error"] = pa.array(rows, _error_type())
        return pa.table(columns)


def arrow_struct_type(plan: ColumnPlan) -> Any:
    """The struct of ``plan`` as a pyarrow type: strings, and lists of ``(name, value)`` pairs."""
    # pyarrow: an optional dependency (see Checked.to_arrow).
    import pyarrow as pa

    pair = pa.list_(pa.struct([("name", pa.string()), ("value", pa.string())]))
    return pa.struct(
        [(SCHEME, pa.string())]
        + [(f.name, pair if f.kind == "pairs" else pa.string()) for f in plan.fields]
    )


def _error_type() -> Any:
    # pyarrow: an optional dependency (see Checked.to_arrow).
    import pyarrow as pa

    types = {"position": pa.int32()}
    return pa.struct([(name, types.get(name, pa.string())) for name in ERROR_FIELDS])
