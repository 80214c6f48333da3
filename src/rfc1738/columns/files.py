"""A file of URLs counted by DuckDB reading it itself: ``rfc1738 check FILE`` at the engine's speed.

DuckDB's CSV reader, with no quotes, no escapes, no header and one column,
reads a file a line a row, in parallel and without a Python string a line.
It splits lines as :func:`rfc1738.check_lines` does only on some files, so
:func:`count_file` asks it to read only those and checks what it read:

- a regular file (not standard input, not a pipe) of at most
  :data:`FILE_BYTES` (the reader's memory grows with the lines it reads)
  that does not begin with a UTF-8 byte order mark (which it would drop),
  whose name holds no character DuckDB reads as a glob (:data:`GLOB`);
  the name is given to DuckDB as an absolute path;
- that holds no ``\\r`` (the reader, even with ``new_line='\\n'``, may end a
  line there: ``b"\\r\\n"`` is two empty rows to it): looked for in the file,
  :data:`SCAN_BYTES` at a time, before DuckDB reads it;
- the reader refuses, with an error, bytes that are not UTF-8, or a line
  longer than its buffer: :func:`count_file` then gives ``None``, and the
  caller reads the file in batches (:mod:`rfc1738.columns.lines`), as for
  any other input;
- an empty line is a null row to the reader: it is judged as ``""``.

One query counts the lines by grammar file and the screen's state (an
aggregate: constant memory), and brings back the few lines the screen
leaves in doubt for the library to judge (or, if there are more than it
holds, a second query streams them). If some line is not valid, the first ``show`` of them,
with their line numbers, are looked for by the library in the file's first
:data:`PREFIX_BYTES`, and if not all are there, by a second query
(``row_number() OVER ()``, which DuckDB keeps in the file's order) that
stops once it has them.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import stat
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .sql import sql_string

if TYPE_CHECKING:
    import duckdb

    from ..urls import Grammar

__all__ = [
    "BUFFER_BYTES",
    "DOUBT_CHARS",
    "DOUBT_LINES",
    "FETCH_ROWS",
    "FILE_BYTES",
    "GLOB",
    "PREFIX_BYTES",
    "SCAN_BYTES",
    "FileCounts",
    "count_file",
    "engine_reads",
    "line_source",
]

#: The reader's buffer (its default is 32 MiB): what it holds at once grows
#: with the file up to some buffers a thread; at 4 MiB, 10^6 and 4x10^6
#: lines of the corpora peak within a tenth of each other.
BUFFER_BYTES = 4 << 20

#: The largest file DuckDB reads itself. Its parallel reader keeps a few
#: bytes for each line it has read until the query ends (duckdb#15108: on
#: 2 threads some 16 MiB more for 4x10^6 lines of the corpora than for
#: 10^6); a larger file is read in batches, whose memory does not grow.
FILE_BYTES = 1 << 30

#: What DuckDB reads in a file's name as a pattern of names (a glob):
#: a name holding one is read in batches, not by DuckDB.
GLOB = frozenset("*?[]{}")

#: How much of the file is read at a time to look for a ``\r`` before DuckDB reads it.
SCAN_BYTES = 1 << 20

#: The lines in doubt (:func:`count_file`) the counting query brings back
#: with the counts, a grammar file: up to this many, of at most
#: :data:`DOUBT_CHARS` characters each (a few MiB at most). More, and a
#: second query reads them a batch of :data:`FETCH_ROWS` at a time.
DOUBT_LINES = 4096
DOUBT_CHARS = 1024
FETCH_ROWS = 10_000

#: How much of the file's start Python reads for the first lines not valid
#: before it asks DuckDB to number the lines (a few thousand lines).
PREFIX_BYTES = 256 << 10


@dataclass(frozen=True)
class FileCounts:
    """What :func:`count_file` found: counts by grammar file, and the first lines not valid."""

    #: How many lines the file holds.
    lines: int
    #: Grammar file → (valid, invalid), as :meth:`rfc1738.columns.Checked.counts` gives.
    counts: dict[str, tuple[int, int]]
    #: The first lines not valid: (line number from 1, the line), in the file's order.
    first_invalid: list[tuple[int, str]]


def engine_reads(path: str) -> bool:
    """Whether DuckDB may read ``path`` itself (see the module's description).

    A regular file of at most :data:`FILE_BYTES` whose name holds no
    :data:`GLOB` character, that does not begin with a BOM and holds no ``\\r``.
    """
    if any(char in GLOB for char in path):
        return False  # DuckDB would read the files the pattern names, not this one
    try:
        # Without waiting: opening a pipe otherwise waits for a writer.
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        found = os.fstat(descriptor)
        if not stat.S_ISREG(found.st_mode) or found.st_size > FILE_BYTES:
            return False
        return _plain(descriptor)
    except (OSError, ValueError):
        return False
    finally:
        os.close(descriptor)


def _plain(descriptor: int) -> bool:
    """Whether the open file holds no ``\\r`` and begins with no byte order mark.

    Read a block at a time into one buffer: mapping the file instead made
    its pages part of this process's resident set, as large as the file.
    """
    buffer = bytearray(SCAN_BYTES)
    with os.fdopen(descriptor, "rb", buffering=0, closefd=False) as stream:
        read = stream.readinto(buffer)
        if read and buffer.startswith(codecs.BOM_UTF8):
            return False
        while read:
            # A \r: the reader may end a line there (or refuse the file).
            if buffer.find(b"\r", 0, read) >= 0:
                return False
            read = stream.readinto(buffer)
    return True


def line_source(path: str) -> str:
    """The SQL that reads ``path`` a line a row, as column ``url`` (``""`` for an empty line)."""
    # Absolute: DuckDB reads a name that begins with "~" or "s3://" as
    # a home directory or a URL, and this one is a local file.
    name = sql_string(os.path.abspath(path))
    reader = (
        f"read_csv({name}, columns = {{'url': 'VARCHAR'}}, header = false, "
        r"delim = '\x01', quote = '', escape = '', new_line = '\n', auto_detect = false, "
        f"buffer_size = {BUFFER_BYTES})"
    )
    return f"(SELECT coalesce(url, '') AS url FROM {reader})"


def count_file(
    con: duckdb.DuckDBPyConnection,
    path: str,
    grammar: Grammar,
    *,
    prefix: str,
    host_checks: bool,
    show: int,
    progress: Callable[[float], None] | None = None,
) -> FileCounts | None:
    """Count ``path``'s lines with the macros ``prefix`` names on ``con``; ``None`` if it cannot.

    ``None``: the file is not one DuckDB splits as :func:`rfc1738.check_lines`
    does (see the module's description); read it in batches instead.
    ``progress``: called with the share of the file read (0 to 100), about
    ten times a second, while the counting query runs.
    """
    # The engine's errors: an optional dependency, imported with the runner.
    import duckdb

    if not engine_reads(path):
        return None
    # Read once: DuckDB would otherwise keep what it read, growing with the
    # file (the setting is DuckDB 1.3's: kept optional, should the extra admit older).
    with contextlib.suppress(duckdb.Error):
        con.execute("SET enable_external_file_cache = false")
    source = line_source(path)
    checks = "true" if host_checks else "false"
    # Each line's grammar file and state: 1 valid, 0 not, 2 valid by the
    # grammar with host checks for the library to finish (few: a long host
    # or label, a large port). Those are judged here, not by a Python
    # function in the query: creating one has DuckDB import numpy (35 ms).
    screened = (
        f"SELECT url, {prefix}_grammar_file(url) AS file, {prefix}_screen(url, {checks}) AS state "
        f"FROM {source}"
    )
    # The lines in doubt come with their counts, up to DOUBT_LINES of at
    # most DOUBT_CHARS characters a grammar file: bounded memory.
    doubt = f"state = 2 AND length(url) <= {DOUBT_CHARS}"
    counting = (
        f"SELECT file, state, count(*), count(*) FILTER (WHERE {doubt}), "
        f"min(url, {DOUBT_LINES}) FILTER (WHERE {doubt}) FROM ({screened}) GROUP BY ALL"
    )
    try:
        rows = _run(con, counting, progress)
    except duckdb.Error:
        return None  # bytes that are not UTF-8, a line past the reader's buffer
    is_valid = grammar.is_valid
    counts: dict[str, list[int]] = {}
    judged = True
    for file, state, count, doubted, texts in rows:
        pair = counts.setdefault(file, [0, 0])
        if state != 2:
            pair[0 if state == 1 else 1] += count
        elif doubted == count and len(texts) == count:
            valid = sum(is_valid(text, host_checks=host_checks) for text in texts)
            pair[0] += valid
            pair[1] += count - valid
        else:
            judged = False
    if not judged:
        # Too many in doubt to hold: read again, only those, a batch at a time.
        for pair in counts.values():
            pair[:] = [0, 0]
        for file, state, count, _, _ in rows:
            if state != 2:
                counts[file][0 if state == 1 else 1] += count
        try:
            result = con.execute(f"SELECT file, url FROM ({screened}) WHERE state = 2")
            while batch := result.fetchmany(FETCH_ROWS):
                for file, text in batch:
                    counts[file][0 if is_valid(text, host_checks=host_checks) else 1] += 1
        except duckdb.Error:
            return None  # (the file changed since: the batches read it as it is now)
    invalid = sum(pair[1] for pair in counts.values())
    first: list[tuple[int, str]] = []
    wanted = min(invalid, show)
    if wanted > 0:
        first = _first_invalid(path, grammar, host_checks, wanted)
    if len(first) < wanted:
        numbered = f"SELECT row_number() OVER () AS line, url, state FROM ({screened})"
        first = []
        try:
            result = con.execute(f"SELECT line, url, state FROM ({numbered}) WHERE state <> 1")
            while len(first) < wanted and (batch := result.fetchmany(FETCH_ROWS)):
                for line, text, state in batch:
                    if state == 0 or not is_valid(text, host_checks=host_checks):
                        first.append((int(line), str(text)))
        except duckdb.Error:
            return None  # (the file changed since: the batches read it as it is now)
        first = sorted(first)[:wanted]
    return FileCounts(
        lines=sum(sum(pair) for pair in counts.values()),
        counts={file: (pair[0], pair[1]) for file, pair in counts.items()},
        first_invalid=first,
    )


def _first_invalid(
    path: str, grammar: Grammar, host_checks: bool, wanted: int
) -> list[tuple[int, str]]:
    """The first ``wanted`` lines not valid in the file's first :data:`PREFIX_BYTES`, or fewer.

    In Python: most files with lines not valid have the first few early, and
    judging a few thousand lines costs less than a query that numbers them.
    The file is UTF-8 without ``\r`` (DuckDB has read it).
    """
    with open(path, "rb") as stream:
        block = stream.read(PREFIX_BYTES)
        whole = not stream.read(1)
    lines = block.decode("utf-8", "surrogateescape").split("\n")
    if not whole or lines[-1] == "":
        lines.pop()  # a line cut short, or nothing after the last line ending
    is_valid = grammar.is_valid
    found: list[tuple[int, str]] = []
    for number, text in enumerate(lines, 1):
        if not is_valid(text, host_checks=host_checks):
            found.append((number, text))
            if len(found) == wanted:
                break
    return found


def _run(
    con: duckdb.DuckDBPyConnection, query: str, progress: Callable[[float], None] | None
) -> list[Any]:
    """``query``'s rows; with ``progress``, run in a thread while this one reports how far it is."""
    if progress is None:
        return con.execute(query).fetchall()
    con.execute("SET enable_progress_bar = true; SET enable_progress_bar_print = false")
    result: list[list[Any]] = []
    failed: list[BaseException] = []

    def work() -> None:
        try:
            result.append(con.execute(query).fetchall())
        except BaseException as error:  # (raised again in the caller's thread)
            failed.append(error)

    worker = threading.Thread(target=work, name="rfc1738-count-file", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.1)
            share = con.query_progress()
            if share >= 0:
                progress(share)
    except BaseException:
        con.interrupt()  # Ctrl-C: stop the query too
        worker.join()
        raise
    if failed:
        raise failed[0]
    return result[0]
