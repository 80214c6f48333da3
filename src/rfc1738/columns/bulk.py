"""Many URLs in one call: verdicts, and if asked the struct and the errors, at an engine's speed.

:func:`check` takes a list of strings, a file (a path), a pyarrow array, a
pandas or Polars Series; :func:`check_batches` a file or any iterable of
lines, a batch at a time, in constant memory. Both run on DuckDB when it
and pyarrow are installed (:mod:`rfc1738.duckdb`'s macros, the column plan
of :mod:`rfc1738.columns.plan`), and on the library in Python otherwise
(:func:`rfc1738.is_valid` for each URL): the same results either way,
which ``engine="python"`` or ``engine="duckdb"`` chooses outright.

- A verdict is :func:`rfc1738.is_valid`'s (``host_checks=False``: the bare
  grammar's); ``None`` for a missing value (``None``, a null, a NaN).
- ``schemes=True``: the grammar file that read each URL (its scheme's in
  lower case, or ``generic``), as ``rfc1738 check`` counts them.
- ``struct=True``: each valid URL's struct (:mod:`rfc1738.columns.plan`:
  ``scheme`` as written, then every field as written, ``None`` where it
  does not apply, ``""`` where it is empty), ``None`` for the others.
- ``errors=True``: for each URL that is not valid, the library's
  :class:`~rfc1738.URLSyntaxError` (position, rule, reason), worked out
  only for those rows, in Python (:mod:`rfc1738.columns.errors`).

DuckDB stores text as UTF-8 without lone surrogates: a string that holds
one (a line of a file that is not UTF-8, read with ``surrogateescape``) is
judged by the library, which rejects it, as no URL holds such a character.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import IO, TYPE_CHECKING, Any, Literal

from ..errors import URLSyntaxError
from ..urls import Grammar, shipped
from .errors import ERROR_FIELDS, error_of, error_row
from .plan import SCHEME, ColumnPlan, SchemeColumns
from .store import column_plan

if TYPE_CHECKING:
    import duckdb
    import pyarrow as pa

__all__ = [
    "BATCH_BYTES",
    "Checked",
    "Engine",
    "arrow_struct_type",
    "check",
    "check_batches",
    "default_engine",
    "struct_of",
]

#: Which runner judges: DuckDB (with pyarrow), or the library in Python.
Engine = Literal["duckdb", "python"]

#: How many bytes of a file :func:`check_batches` reads for one batch (about
#: 600,000 lines of 50 characters): a query per batch (each costs about 10 ms
#: to set up: the macros' patterns), in constant memory.
BATCH_BYTES = 32 << 20

#: How many lines of an iterable make one batch.
BATCH_LINES = 100_000

#: Rows are a list of strings (``None`` for missing), or a pyarrow array of them.
Rows = Any


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
        "_table",
        "_valid",
        "engine",
        "errors",
        "start",
        "structs",
    )

    #: Which runner judged: ``"duckdb"`` or ``"python"``.
    engine: Engine
    #: How many rows came before this batch (0 for :func:`check`): row ``i``
    #: is line ``start + i + 1`` of a file.
    start: int
    #: Each URL's struct (``struct=True``), ``None`` for one not valid; else ``None``.
    structs: list[dict[str, object] | None] | None
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
        self.structs = structs
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
            # The engine's columns, counted where they are; then what the library changed.
            grouped = table.group_by(["scheme", "valid"]).aggregate([([], "count_all")])
            for row in grouped.to_pylist():
                if row["scheme"] is not None and row["valid"] is not None:
                    counted = found.setdefault(row["scheme"], [0, 0])
                    counted[0 if row["valid"] else 1] += row["count_all"]
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
        if self.structs is not None:
            kind = None if self._plan is None else arrow_struct_type(self._plan)
            table = self._table
            if table is not None and "url" in table.column_names:
                # The engine's own column, without a round trip through Python.
                columns["url"] = table.column("url").combine_chunks().cast(kind)
            else:
                columns["url"] = pa.array(self.structs, kind)
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


def default_engine() -> Engine:
    """``"duckdb"`` when duckdb and pyarrow can be imported, else ``"python"``."""
    try:
        # The engine: an optional dependency (rfc1738[duckdb]); only whether it imports.
        import duckdb  # noqa: F401

        # Its data: an optional dependency too.
        import pyarrow  # noqa: F401
    except ImportError:
        return "python"
    return "duckdb"


def check(
    urls: object,
    *,
    host_checks: bool = True,
    schemes: bool = False,
    struct: bool = False,
    errors: bool = False,
    grammar: Grammar | None = None,
    engine: Engine | None = None,
) -> Checked:
    """The verdicts on ``urls``, in one call (see the module's description).

    ``urls``: a list (or tuple) of strings and ``None``, a file's path (a
    :class:`pathlib.Path` or other path-like object: its lines, as
    :func:`rfc1738.check_lines` reads them), a pyarrow array or chunked
    array of strings, a pandas or Polars Series. A ``str`` alone is a
    ``TypeError`` (one URL is a list of one). ``grammar``: an edited
    grammar (:func:`rfc1738.load`). ``engine``: ``None`` for
    :func:`default_engine`.

    >>> found = check(["http://example.com/", "http://user@host/", None], errors=True)
    >>> found.valid, found.errors[1].rule
    ([True, False, None], 'httpurl')
    """
    chosen = shipped() if grammar is None else grammar
    if isinstance(urls, os.PathLike):
        found = check_batches(
            urls,
            host_checks=host_checks,
            schemes=schemes,
            struct=struct,
            errors=errors,
            grammar=chosen,
            engine=engine,
        )
        return _joined(list(found), schemes, struct, errors, _runner(engine, chosen).engine)
    runner = _runner(engine, chosen)
    return runner.run(runner.rows(urls), 0, host_checks, schemes, struct, errors)


def _joined(
    batches: list[Checked], schemes: bool, struct: bool, errors: bool, engine: Engine
) -> Checked:
    """One :class:`Checked` of the batches of one file."""
    valid: list[bool | None] = [v for b in batches for v in b.valid]
    files = [f for b in batches for f in (b.schemes or ())] if schemes else None
    structs = [s for b in batches for s in (b.structs or ())] if struct else None
    found = (
        {b.start + i: e for b in batches for i, e in (b.errors or {}).items()} if errors else None
    )
    plan = batches[0]._plan if batches else None
    return Checked(engine, 0, valid, files, structs, found, plan=plan)


def check_batches(
    source: str | os.PathLike[str] | IO[bytes] | Iterable[str],
    *,
    host_checks: bool = True,
    schemes: bool = False,
    struct: bool = False,
    errors: bool = False,
    grammar: Grammar | None = None,
    engine: Engine | None = None,
    batch_bytes: int = BATCH_BYTES,
) -> Iterator[Checked]:
    """:func:`check` a batch at a time, in constant memory: one :class:`Checked` a batch.

    ``source``: a file's path (``str`` or path-like), a binary file, or any
    iterable of lines (``str``, with or without their line endings). A
    file's lines are read as :func:`rfc1738.check_lines` reads them (split
    at ``\\n``, a ``\\r`` before it dropped, UTF-8 with ``surrogateescape``),
    ``batch_bytes`` at a time; an iterable's :data:`BATCH_LINES` at a time.
    Each batch's ``start`` says how many lines came before it.
    """
    chosen = shipped() if grammar is None else grammar
    runner = _runner(engine, chosen)
    start = 0
    for block in _batches(source, batch_bytes, arrow=runner.engine == "duckdb"):
        found = runner.run(block, start, host_checks, schemes, struct, errors)
        start += len(found)
        yield found


def _batches(
    source: str | os.PathLike[str] | IO[bytes] | Iterable[str], size: int, *, arrow: bool = False
) -> Iterator[Rows]:
    """The lines of ``source`` a block at a time: lists, or with ``arrow`` Arrow arrays."""
    if isinstance(source, str | os.PathLike):
        with open(os.fspath(source), "rb") as stream:
            yield from _file_blocks(stream, size, arrow=arrow)
        return
    read = getattr(source, "read", None)
    if read is not None:
        yield from _file_blocks(source, size, arrow=arrow)  # type: ignore[arg-type]
        return
    items = iter(source)
    while True:
        block = [_ended(line) for line in islice(items, BATCH_LINES)]
        if not block:
            return
        yield block


def _ended(line: object) -> str:
    """A line of an iterable, without its ``\\n`` or ``\\r\\n``."""
    if not isinstance(line, str):
        raise TypeError(f"a line must be a str, not {type(line).__name__}")
    if line.endswith("\n"):
        return line[:-2] if line.endswith("\r\n") else line[:-1]
    return line


def _file_blocks(stream: IO[bytes], size: int, *, arrow: bool = False) -> Iterator[Rows]:
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
            lines_of = _arrow_lines(block[:cut]) if arrow else None
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


def _arrow_lines(block: bytes) -> Any | None:
    """The lines of ``block`` (which ends in ``\\n``) as Arrow strings, sharing its bytes.

    ``None`` where the block must be split in Python: numpy is not there to
    find the line ends, a ``\\r`` may have to go, or bytes are not UTF-8.
    """
    if b"\r" in block:
        return None
    try:
        # numpy and pyarrow: where they are not installed, Python splits.
        import numpy as np
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:
        return None
    ends = np.flatnonzero(np.frombuffer(block, np.uint8) == 10)
    offsets = np.empty(len(ends) + 1, np.int64)
    offsets[0] = 0
    offsets[1:] = ends + 1
    lines = pa.LargeStringArray.from_buffers(len(ends), pa.py_buffer(offsets), pa.py_buffer(block))
    try:
        lines.validate(full=True)
    except pa.ArrowInvalid:
        return None  # not UTF-8: surrogateescape, in Python
    return pc.utf8_slice_codeunits(lines, 0, -1)  # each line without its \n


def _runner(engine: Engine | None, grammar: Grammar) -> _Runner:
    chosen = default_engine() if engine is None else engine
    if chosen == "python":
        return _Python(grammar)
    if chosen == "duckdb":
        return _duckdb_runner(grammar)
    raise ValueError(f"engine must be 'duckdb' or 'python', not {chosen!r}")


class _Runner:
    """What judges rows: the same answers from every runner."""

    engine: Engine

    def __init__(self, grammar: Grammar) -> None:
        self.grammar = grammar

    def rows(self, urls: object) -> Rows:
        """``urls`` as this runner's rows; ``TypeError`` for what is not a column of strings."""
        raise NotImplementedError

    def run(
        self, rows: Rows, start: int, host_checks: bool, schemes: bool, struct: bool, errors: bool
    ) -> Checked:
        raise NotImplementedError

    def explained(
        self,
        texts: Callable[[list[int]], list[str | None]],
        valid: list[bool | None],
        host_checks: bool,
    ) -> dict[int, URLSyntaxError]:
        """The library's error for each row not valid: one pass in Python over those rows."""
        rejected = [index for index, verdict in enumerate(valid) if verdict is False]
        found: dict[int, URLSyntaxError] = {}
        for index, text in zip(rejected, texts(rejected), strict=True):
            error = None if text is None else error_of(self.grammar, text, host_checks)
            if error is not None:
                found[index] = error
        return found


def _as_list(urls: object) -> list[str | None]:
    """``urls`` as a list of strings and ``None`` (pyarrow, pandas, Polars, any sequence)."""
    if isinstance(urls, str | bytes | bytearray):
        raise TypeError(
            f"urls must be a column of strings, not {type(urls).__name__} "
            "(give one URL as a list of one)"
        )
    converted = getattr(urls, "to_pylist", None) or getattr(urls, "to_list", None)
    if converted is not None:
        found = list(converted())
    elif hasattr(urls, "tolist"):
        found = list(urls.tolist())  # numpy arrays, pandas Series
    elif isinstance(urls, Sequence | Iterable):
        found = list(urls)
    else:
        raise TypeError(f"urls must be a column of strings, not {type(urls).__name__}")
    for index, value in enumerate(found):
        if isinstance(value, float) and value != value:  # a NaN: pandas' missing value
            found[index] = None
        elif value is not None and not isinstance(value, str):
            raise TypeError(f"URL {index} is a {type(value).__name__}, not a str")
    return found


class _Python(_Runner):
    """The library itself, one URL after another."""

    engine: Engine = "python"

    def rows(self, urls: object) -> Rows:
        return _as_list(urls)

    def run(
        self, rows: Rows, start: int, host_checks: bool, schemes: bool, struct: bool, errors: bool
    ) -> Checked:
        texts: list[str | None] = rows
        is_valid = self.grammar.is_valid
        valid: list[bool | None] = [
            None if text is None else is_valid(text, host_checks=host_checks) for text in texts
        ]
        files = None
        if schemes:
            scheme_file = self.grammar.scheme_file
            files = [None if text is None else scheme_file(text).scheme for text in texts]
        structs = None
        if struct:
            build = _StructBuilder(column_plan(self.grammar), self.grammar)
            structs = [
                build(text) if verdict else None for text, verdict in zip(texts, valid, strict=True)
            ]
        found = None
        if errors:
            found = self.explained(
                lambda rejected: [texts[i] for i in rejected], valid, host_checks
            )
        plan = column_plan(self.grammar) if struct else None
        return Checked("python", start, valid, files, structs, found, plan=plan)


class _StructBuilder:
    """A valid URL's struct, in Python: its scheme's pattern in Python's dialect."""

    def __init__(self, plan: ColumnPlan, grammar: Grammar) -> None:
        self.plan = plan
        self.grammar = grammar
        self.patterns: dict[str, re.Pattern[str]] = {}

    def __call__(self, text: str | None) -> dict[str, object] | None:
        if text is None:
            return None
        scheme = self.plan.schemes[self.grammar.scheme_file(text).scheme]
        pattern = self.patterns.get(scheme.name)
        if pattern is None:
            pattern = self.patterns[scheme.name] = re.compile(scheme.python)
        match = pattern.match(text)
        if match is None:
            return None
        return struct_of(self.plan, scheme, text, match.group)


def struct_of(
    plan: ColumnPlan,
    scheme: SchemeColumns,
    text: str,
    group: Callable[[str], str | None],
) -> dict[str, object]:
    """The struct of ``text``, matched by ``scheme``'s pattern: ``group(name)`` its groups."""
    found: dict[str, object] = {SCHEME: text.partition(":")[0]}
    for field in plan.fields:
        source = scheme.fields.get(field.name)
        value: object = None
        if source is not None:
            value = next((g for g in map(group, source.names) if g is not None), None)
            if source.cut is not None:
                value = source.cut.apply(value if isinstance(value, str) else None)
            if field.kind == "pairs" and isinstance(value, tuple):
                value = [{"name": name, "value": written} for name, written in value]
        found[field.name] = value
    return found


_local = threading.local()


def _duckdb_runner(grammar: Grammar) -> _Runner:
    """This thread's DuckDB runner for ``grammar`` (a connection is used by one thread)."""
    runners: dict[int, _DuckDB] = getattr(_local, "runners", None) or {}
    _local.runners = runners
    found = runners.get(id(grammar))
    if found is None or found.grammar is not grammar:
        found = runners[id(grammar)] = _DuckDB(grammar)
    return found


class _DuckDB(_Runner):
    """The macros of :mod:`rfc1738.duckdb` on a connection of its own, Arrow in and out."""

    engine: Engine = "duckdb"

    def __init__(self, grammar: Grammar) -> None:
        super().__init__(grammar)
        # The engine: an optional dependency (rfc1738[duckdb]), imported when chosen.
        import duckdb

        # The macros: they import duckdb too.
        from ..duckdb import register

        self.con: duckdb.DuckDBPyConnection = duckdb.connect()
        register(self.con, grammar=grammar, prefix="rfc1738")

    def rows(self, urls: object) -> Rows:
        # pyarrow: comes with the duckdb extra.
        import pyarrow as pa

        if isinstance(urls, str | bytes | bytearray):
            return _as_list(urls)  # the TypeError
        if isinstance(urls, pa.ChunkedArray):
            urls = urls.combine_chunks()
        if isinstance(urls, pa.Array):
            return _strings(urls)
        to_arrow = getattr(urls, "to_arrow", None)
        if to_arrow is not None and hasattr(urls, "dtype"):  # a Polars Series
            return _strings(to_arrow())
        if hasattr(urls, "dtype") and hasattr(urls, "index"):  # a pandas Series
            return _strings(pa.array(urls, from_pandas=True))
        if isinstance(urls, list | tuple):
            return urls  # pyarrow reads (and checks) them at once: _from_list
        return _as_list(urls)

    def run(
        self, rows: Rows, start: int, host_checks: bool, schemes: bool, struct: bool, errors: bool
    ) -> Checked:
        # pyarrow: comes with the duckdb extra.
        import pyarrow as pa

        # pyarrow.compute: comes with pyarrow.
        import pyarrow.compute as pc

        if isinstance(rows, list | tuple):
            array, judged = _from_list(rows)
        else:
            array, judged = rows, {}
        checks = "true" if host_checks else "false"
        columns = [f"rfc1738_screen(url, {checks}) AS valid"]
        if schemes:
            columns.append("rfc1738_grammar_file(url) AS scheme")
        if struct:
            columns.append(f"rfc1738_struct(url, host_checks := {checks}) AS url")
        table = self._query(pa.table({"url": array}), ", ".join(columns))
        states = table.column("valid").combine_chunks()
        # The few URLs whose host checks the screen left in doubt (a long
        # label, a large port): the library judges them, as it would.
        doubted = pc.indices_nonzero(pc.fill_null(pc.equal(states, 2), False)).to_pylist()
        changed: dict[int, tuple[bool, str | None]] = {}
        if doubted:
            is_valid = self.grammar.is_valid
            for index, text in zip(doubted, _texts(rows, array, doubted), strict=True):
                verdict = text is not None and is_valid(text, host_checks=host_checks)
                changed[index] = (verdict, None)
        scheme_file = self.grammar.scheme_file
        for index, text in judged.items():
            changed[index] = (False, scheme_file(text).scheme)
        if schemes:
            files = table.column("scheme")
            for index in doubted:
                changed[index] = (changed[index][0], files[index].as_py())
        kept = {"valid": pc.equal(states, 1)}
        if schemes:
            kept["scheme"] = table.column("scheme")
        if struct:
            kept["url"] = table.column("url")
        verdicts = pa.table(kept)
        structs = table.column("url").to_pylist() if struct else None
        found = Checked("duckdb", start, None, None, structs, None, verdicts, None, changed)
        if errors:
            found.errors = self.explained(
                lambda rejected: _texts(rows, array, rejected), found.valid, host_checks
            )
        if struct:
            found._plan = column_plan(self.grammar)
        return found

    def _query(self, table: pa.Table, columns: str) -> pa.Table:
        view = "rfc1738_input"
        self.con.register(view, table)
        try:
            found: pa.Table = self.con.sql(f"SELECT {columns} FROM {view}").to_arrow_table()
        finally:
            self.con.unregister(view)
        return found


def _texts(rows: Rows, array: Any, indices: list[int]) -> list[str | None]:
    """The strings at ``indices``: from the list given, or taken out of the Arrow column."""
    if isinstance(rows, list | tuple):
        return [rows[index] for index in indices]
    # pyarrow: comes with the duckdb extra.
    import pyarrow as pa

    picked: list[str | None] = array.take(pa.array(indices, pa.int64())).to_pylist()
    return picked


def _strings(array: Any) -> Any:
    """``array`` as Arrow strings; ``TypeError`` for another type."""
    # pyarrow: comes with the duckdb extra.
    import pyarrow as pa

    if pa.types.is_null(array.type):
        return array.cast(pa.string())
    if not (
        pa.types.is_string(array.type)
        or pa.types.is_large_string(array.type)
        or getattr(pa.types, "is_string_view", lambda _t: False)(array.type)
    ):
        raise TypeError(f"urls must be strings, not Arrow {array.type}")
    return array.cast(pa.large_string()) if not pa.types.is_large_string(array.type) else array


def _from_list(rows: Sequence[str | None]) -> tuple[Any, dict[int, str]]:
    """``rows`` as Arrow strings, and the rows Arrow cannot hold (lone surrogates), by index.

    Those are given to DuckDB as null and judged by the library.
    """
    # pyarrow: comes with the duckdb extra.
    import pyarrow as pa

    try:
        return pa.array(rows, pa.large_string()), {}
    except (UnicodeEncodeError, pa.ArrowInvalid, pa.ArrowTypeError):
        pass
    _as_list(rows)  # a TypeError for what is not a string
    judged: dict[int, str] = {}
    kept: list[str | None] = []
    for index, text in enumerate(rows):
        if text is not None and _holds_surrogate(text):
            judged[index] = text
            kept.append(None)
        else:
            kept.append(text)
    return pa.array(kept, pa.large_string()), judged


def _holds_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
