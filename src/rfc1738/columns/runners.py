"""What judges the rows of the bulk API: the library in Python, or DuckDB; the same answers."""

from __future__ import annotations

import re
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import URLSyntaxError
from ..urls import Grammar
from .checked import Checked, Engine
from .errors import rejected_error
from .files import FileCounts, count_file
from .lines import Rows, arrow_numbers, texts_at
from .plan import SCHEME, ColumnPlan, SchemeColumns
from .store import column_plan

if TYPE_CHECKING:
    import duckdb
    import pyarrow as pa

__all__ = ["Runner", "close_runners", "default_engine", "runner", "struct_of"]


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


def runner(engine: Engine | None, grammar: Grammar) -> Runner:
    """The runner ``engine`` names (``None``: :func:`default_engine`), for ``grammar``."""
    chosen = default_engine() if engine is None else engine
    if chosen == "python":
        return _Python(grammar)
    if chosen == "duckdb":
        return _duckdb_runner(grammar)
    raise ValueError(f"engine must be 'duckdb' or 'python', not {chosen!r}")


class Runner:
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

    def stream(
        self,
        blocks: Iterable[Rows],
        start: int,
        host_checks: bool,
        schemes: bool,
        struct: bool,
        errors: bool,
    ) -> Generator[tuple[Rows, Checked], None, None]:
        """Each of ``blocks`` and its :meth:`run`, its lines counted on from ``start``."""
        for rows in blocks:
            found = self.run(rows, start, host_checks, schemes, struct, errors)
            start += len(found)
            yield rows, found

    def count_file(
        self,
        path: str,
        host_checks: bool,
        show: int,
        progress: Callable[[float], None] | None = None,
    ) -> FileCounts | None:
        """A file's counts and first rejected lines, read by the engine itself; ``None`` if not.

        ``None``: this runner, or this file, is read in batches (:meth:`run`).
        """
        return None

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
            error = None if text is None else rejected_error(self.grammar, text, host_checks)
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


class _Python(Runner):
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

#: The names of the macros a DuckDB runner registers on its connection: ``rfc1738_is_valid``, ...
_PREFIX = "rfc1738"


def _duckdb_runner(grammar: Grammar) -> Runner:
    """This thread's DuckDB runner for ``grammar`` (a connection is used by one thread)."""
    runners: dict[int, _DuckDB] = getattr(_local, "runners", None) or {}
    _local.runners = runners
    found = runners.get(id(grammar))
    if found is None or found.grammar is not grammar:
        found = runners[id(grammar)] = _DuckDB(grammar)
    return found


def close_runners() -> None:
    """Close the connections of this thread's DuckDB runners (and their spares), and forget them.

    For a process about to end without the interpreter's teardown
    (:func:`rfc1738.cli.main.run`): closing its connection is how an
    in-memory database removes what it spilled to its temporary directory.
    The next :func:`runner` call in this thread makes a new one.
    """
    runners: dict[int, _DuckDB] = getattr(_local, "runners", None) or {}
    _local.runners = {}
    for found in runners.values():
        found.close()


class _DuckDB(Runner):
    """The macros of :mod:`rfc1738.duckdb` on a connection of its own, Arrow in and out."""

    engine: Engine = "duckdb"

    def __init__(self, grammar: Grammar) -> None:
        super().__init__(grammar)
        # The engine: an optional dependency (rfc1738[duckdb]), imported when chosen.
        import duckdb

        # The macros: they import duckdb too.
        from ..duckdb import register_screen

        self.con: duckdb.DuckDBPyConnection = duckdb.connect()
        # The rest of the macros when a run first asks for the struct:
        # counting a file (rfc1738 check) or judging rows needs only the
        # screen, the library judging the rows it leaves in doubt.
        self.struct_ready = False
        register_screen(self.con, grammar=grammar, prefix=_PREFIX)
        # Whether a stream's query holds the connection (see _free).
        self.streaming = False
        self._spare: _DuckDB | None = None

    def close(self) -> None:
        """Close the connection, and the spare's."""
        if self._spare is not None:
            self._spare.close()
        self.con.close()

    def _free(self) -> _DuckDB:
        """This runner, or, while a stream of its is open, one on another connection.

        A query on a connection ends the streaming query open on it (DuckDB
        keeps one result a connection open): a caller reading two streams at
        once, or checking rows while it reads one, is given a connection for
        each, made when first needed and kept.
        """
        if not self.streaming:
            return self
        if self._spare is None:
            self._spare = _DuckDB(self.grammar)
        return self._spare._free()

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
        if self.streaming:
            return self._free().run(rows, start, host_checks, schemes, struct, errors)
        array, judged = _arrow(rows)
        select = self._select(host_checks, schemes, struct)
        self._macros(struct)
        table = self._query(_chunked(array), select)
        return self._checked(rows, judged, table, start, host_checks, schemes, struct, errors)

    def stream(
        self,
        blocks: Iterable[Rows],
        start: int,
        host_checks: bool,
        schemes: bool,
        struct: bool,
        errors: bool,
    ) -> Generator[tuple[Rows, Checked], None, None]:
        """One query over every block: DuckDB reads them as an Arrow stream, in order.

        A query costs some 25 ms to set up (70 with the struct: DuckDB binds
        the macros and compiles their patterns each time), most of the time
        of a 4 MiB batch's verdicts and near half of its structs'; one query
        for the whole stream pays it once.
        DuckDB keeps the rows in the order it read them
        (``preserve_insertion_order``), so each block's verdicts are the next
        rows of the result; a column of row numbers checks it.
        """
        if self.streaming:
            yield from self._free().stream(blocks, start, host_checks, schemes, struct, errors)
            return
        # pyarrow: comes with the duckdb extra.
        import pyarrow as pa

        # The blocks DuckDB has read and whose verdicts have not come back
        # (DuckDB calls ``batches`` in a thread of its own): in order.
        pending: deque[tuple[Rows, dict[int, str]]] = deque()
        failed: list[BaseException] = []
        read = 0
        schema = pa.schema([("url", pa.large_string()), ("number", pa.int64())])

        def batches() -> Iterator[pa.RecordBatch]:
            nonlocal read
            try:
                for rows in blocks:
                    array, judged = _arrow(rows)
                    pending.append((rows, judged))
                    for batch in _chunked(array).to_batches():
                        numbers = arrow_numbers(read, batch.num_rows)
                        read += batch.num_rows
                        yield pa.record_batch([batch.column(0), numbers], schema=schema)
            except BaseException as error:  # raised again where DuckDB reports it
                failed.append(error)
                raise

        select = self._select(host_checks, schemes, struct, numbered=True)
        self._macros(struct)
        source = pa.RecordBatchReader.from_batches(schema, batches())
        view = "rfc1738_stream"
        self.con.register(view, source)
        self.streaming = True
        result = reader = None
        try:
            result = self.con.sql(f"SELECT {select.format(view=view)}")
            fetch = getattr(result, "to_arrow_reader", None) or result.fetch_arrow_reader
            reader = fetch(CHUNK_ROWS)
            kept = [name for name in reader.schema.names if name != "number"]
            held: list[pa.RecordBatch] = []
            count = given = 0
            for batch in reader:
                held.append(batch)
                count += batch.num_rows
                while pending and count >= len(pending[0][0]):
                    rows, judged = pending.popleft()
                    table = pa.Table.from_batches(held, reader.schema)
                    taken, rest = table.slice(0, len(rows)), table.slice(len(rows))
                    held, count = rest.to_batches(), rest.num_rows
                    _in_order(taken, given)
                    given += len(rows)
                    found = self._checked(
                        rows,
                        judged,
                        taken.select(kept),
                        start,
                        host_checks,
                        schemes,
                        struct,
                        errors,
                    )
                    yield rows, found
                    start += len(rows)
            if count or any(len(rows) for rows, _ in pending):
                raise RuntimeError("DuckDB gave another number of rows than it read")
            for rows, judged in pending:  # blocks of no lines, after the last row
                empty = reader.schema.empty_table().select(kept)
                yield (
                    rows,
                    self._checked(rows, judged, empty, start, host_checks, schemes, struct, errors),
                )
        except Exception:
            if failed:  # DuckDB's report of the error reading the blocks: that error
                raise failed[0] from None
            raise
        finally:
            if reader is not None:
                reader.close()
            if result is not None:
                result.close()
            self.con.unregister(view)
            self.streaming = False

    def _macros(self, struct: bool) -> None:
        """Register the struct's macros when a run first asks for the struct."""
        if struct and not self.struct_ready:
            # The macros import duckdb: an optional dependency, chosen already.
            from ..duckdb import register

            register(self.con, grammar=self.grammar, prefix=_PREFIX, errors=False)
            self.struct_ready = True

    @staticmethod
    def _select(host_checks: bool, schemes: bool, struct: bool, numbered: bool = False) -> str:
        """The query's text after ``SELECT``, over the rows of ``{view}``."""
        checks = "true" if host_checks else "false"
        # The screen's state (1 valid, 0 not, 2 in doubt) compared in SQL:
        # comparing in pyarrow with a Python scalar imports pandas where it
        # is installed (pyarrow's check for its objects), a fifth of a second.
        inner = ["url", f"rfc1738_screen(url, {checks}) AS state"]
        columns = ["state = 1 AS valid", "state = 2 AS doubt"]
        if numbered:
            inner.append("number")
            columns.append("number")
        if schemes or struct:
            inner.append("rfc1738_grammar_file(url) AS scheme")
        if schemes:
            columns.append("scheme")
        if struct:
            # The verdict and the file found once (rfc1738_struct would find
            # both again): the struct of each valid row, those in doubt too.
            valid = f"state = 1 OR (state = 2 AND rfc1738_is_valid(url, {checks}))"
            columns.append(
                f"CASE WHEN {valid} THEN rfc1738_struct_of_valid(url, scheme) END AS url"
            )
        return f"{', '.join(columns)} FROM (SELECT {', '.join(inner)} FROM {{view}})"

    def _checked(
        self,
        rows: Rows,
        judged: dict[int, str],
        table: pa.Table,
        start: int,
        host_checks: bool,
        schemes: bool,
        struct: bool,
        errors: bool,
    ) -> Checked:
        """The rows' verdicts from the query's ``table``, and the library's where it has them."""
        # pyarrow.compute: comes with the duckdb extra.
        import pyarrow.compute as pc

        # The few URLs whose host checks the screen left in doubt (a long
        # label, a large port): the library judges them, as it would.
        doubted = pc.indices_nonzero(table.column("doubt")).to_pylist()
        changed: dict[int, tuple[bool, str | None]] = {}
        if doubted:
            is_valid = self.grammar.is_valid
            for index, text in zip(doubted, texts_at(rows, doubted), strict=True):
                verdict = text is not None and is_valid(text, host_checks=host_checks)
                changed[index] = (verdict, None)
        scheme_file = self.grammar.scheme_file
        for index, text in judged.items():
            changed[index] = (False, scheme_file(text).scheme)
        if schemes:
            files = table.column("scheme")
            for index in doubted:
                changed[index] = (changed[index][0], files[index].as_py())
        kept = [name for name in table.column_names if name != "doubt"]
        verdicts = table.select(kept)
        # The structs stay the engine's column until read (Checked.structs).
        found = Checked("duckdb", start, None, None, None, None, verdicts, None, changed)
        if errors:
            found.errors = self.explained(
                lambda rejected: texts_at(rows, rejected), found.valid, host_checks
            )
        if struct:
            found._plan = column_plan(self.grammar)
        return found

    def count_file(
        self,
        path: str,
        host_checks: bool,
        show: int,
        progress: Callable[[float], None] | None = None,
    ) -> FileCounts | None:
        return count_file(
            self._free().con,
            path,
            self.grammar,
            prefix=_PREFIX,
            host_checks=host_checks,
            show=show,
            progress=progress,
        )

    def _query(self, table: pa.Table, query: str) -> pa.Table:
        """``SELECT query`` over ``table``, which ``query`` calls ``{view}``."""
        view = "rfc1738_input"
        self.con.register(view, table)
        try:
            found: pa.Table = self.con.sql(f"SELECT {query.format(view=view)}").to_arrow_table()
        finally:
            self.con.unregister(view)
        return found


def _arrow(rows: Rows) -> tuple[Any, dict[int, str]]:
    """``rows`` as an Arrow array, and the rows Arrow cannot hold, by index (:func:`_from_list`)."""
    if isinstance(rows, list | tuple):
        return _from_list(rows)
    return rows, {}


def _in_order(table: pa.Table, start: int) -> None:
    """Check that ``table`` holds the stream's rows ``start``, ``start + 1``, ... in order."""
    # pyarrow.compute: comes with the duckdb extra.
    import pyarrow.compute as pc

    numbers = table.column("number").combine_chunks()
    if len(numbers) and not pc.all(pc.equal(numbers, arrow_numbers(start, len(numbers)))).as_py():
        raise RuntimeError("DuckDB gave the rows of a stream out of order")


#: The rows of each Arrow record batch DuckDB is given: it scans a table a
#: record batch a thread, and one of fewer than 122,880 rows (a batch of
#: ``rfc1738 check``, some 80,000 lines) whole on one thread.
CHUNK_ROWS = 16_384


def _chunked(array: Any) -> pa.Table:
    """``array`` as a table of one column ``url``, in record batches of :data:`CHUNK_ROWS` rows."""
    # pyarrow: comes with the duckdb extra.
    import pyarrow as pa

    if len(array) <= CHUNK_ROWS:
        return pa.Table.from_arrays([array], names=["url"])
    return pa.Table.from_batches(
        [
            pa.record_batch([array.slice(start, CHUNK_ROWS)], names=["url"])
            for start in range(0, len(array), CHUNK_ROWS)
        ]
    )


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
