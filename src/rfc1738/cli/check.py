"""``rfc1738 check``: validate a file of URLs, one a line, in constant memory.

The summary (and ``--format``) is worked out by the bulk API
(:mod:`rfc1738.columns`) a batch of lines at a time: on DuckDB when it and
pyarrow are installed (``rfc1738[duckdb]``), else on the library in Python
(the lines by :func:`rfc1738.check_lines`); ``--engine`` chooses, and the
summary's last line says which ran. For the summary, a file DuckDB's
reader splits as :func:`rfc1738.check_lines` does, DuckDB reads itself, in
one query (:mod:`rfc1738.columns.files`). The counts, the errors and the exit
status are the same either way. ``--jsonl`` and ``--parser reference`` run
in Python. ``--format`` writes a table of one row a line (:mod:`.table`,
:mod:`rfc1738.output.table`).

Lines are read as bytes and stripped of their line ending (``\\n`` or
``\\r\\n``) only: anything else on the line, spaces included, is part of the
URL and is judged. A line holding a byte that is not UTF-8 is invalid, and
its error names that byte and its offset (:func:`~.output.not_utf8`). The
lines are validated by :func:`rfc1738.check_lines`
(:mod:`rfc1738.runtime.bulk`). The summary keeps counts and the first
``--show`` errors, nothing per line, however long the input; ``--jsonl``
writes one record a line, with its line number, from each line's match
(:func:`~rfc1738.runtime.bulk.match_blocks`, :mod:`rfc1738.output.jsonl`),
a block of lines at a time. A line the reference parser refuses as too long
for it is counted apart, as not judged (:class:`~.output.Refusals`).
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, closing
from functools import partial
from importlib.util import find_spec
from itertools import islice
from typing import Any, BinaryIO, TextIO

from ..columns import Checked, Engine, column_plan
from ..columns.files import FileCounts
from ..columns.lines import Rows, line_batches, texts_at
from ..columns.runners import Runner, runner
from ..errors import RFC1738Error, URLSyntaxError
from ..output.table import CsvWriter, JsonLinesWriter, ParquetWriter
from ..runtime.bulk import check_lines, line_error, lines
from ..urls import Grammar
from .output import (
    INVALID,
    OK,
    TOO_LONG,
    USAGE,
    Refusals,
    not_utf8_message,
    open_input,
    plural,
    result_dict,
    say,
    write_json,
)
from .records import RecordWriter, write_records
from .table import (
    REPEATED,
    arrow_rows,
    arrow_schema,
    line_errors,
    names,
    python_rows,
    rejected_texts,
)

__all__ = ["AHEAD", "BATCH_BYTES", "Progress", "Summary", "check", "installed_engine"]

#: How many bytes of the file make one batch for the bulk API: some 80,000
#: lines of the corpora, a query each; what a batch holds at once (the
#: lines, DuckDB's verdicts) stays a few times this, whatever the file's size.
BATCH_BYTES = 4 << 20

#: How many batches ``--format`` has judged ahead of the one it writes.
AHEAD = 2


def installed_engine() -> Engine:
    """What ``rfc1738 check`` runs on by default: ``duckdb`` if it and pyarrow are installed."""
    # Only whether they can be found: importing them takes a quarter of a second.
    found = find_spec("duckdb") is not None and find_spec("pyarrow") is not None
    return "duckdb" if found else "python"


def check(args: argparse.Namespace, grammar: Grammar) -> int:
    """Run ``rfc1738 check`` with the parsed arguments."""
    name = "<stdin>" if args.file == "-" else args.file
    judge = _runner(args, grammar)
    if judge is None:
        return USAGE
    stream = open_input(args.file)
    if stream is None:
        return USAGE
    progress = Progress(sys.stderr) if sys.stderr is not None and sys.stderr.isatty() else None
    summary = Summary(args.show)
    refusals = Refusals(grammar, args.parser, args.host_checks)
    to_stdout = args.jsonl or (args.format is not None and args.output in (None, "-"))
    with stream:
        if args.jsonl:
            _records(stream, grammar, args, summary, progress, refusals)
        elif args.format is not None:
            _table(stream, grammar, args, summary, progress, judge)
        elif judge.engine == "duckdb":
            if not _counted(grammar, args, summary, progress, judge):
                _batches(stream, grammar, args, summary, progress, judge)
        else:
            _summary(stream, grammar, args, summary, progress, refusals)
    if progress is not None:
        progress.clear()
    if not to_stdout:
        summary.write(sys.stdout, name)
        sys.stdout.write(f"\nengine: {judge.engine}\n")
    return summary.status()


def _runner(args: argparse.Namespace, grammar: Grammar) -> Runner | None:
    """The bulk API's runner for the summary or ``--format``; ``None`` (said why) if none runs."""
    if args.format is None and args.output is not None:
        say("--output is for --format: the summary is written to standard output")
        return None
    if args.format == "parquet":
        if args.output in (None, "-"):
            say("--format parquet needs --output PATH (a Parquet file, not standard output)")
            return None
        if find_spec("pyarrow") is None:
            say("--format parquet needs pyarrow: pip install 'rfc1738[duckdb]'")
            return None
    python_only = args.jsonl or args.parser != "fast"
    if args.format is not None and args.parser != "fast":
        say("--format judges with the fast parser only (not --parser reference)")
        return None
    engine: Engine = args.engine or ("python" if python_only else installed_engine())
    if engine == "duckdb" and python_only:
        say("--engine duckdb: --jsonl and --parser reference run in Python only")
        return None
    try:
        return runner(engine, grammar)
    except ImportError as error:
        say(f"--engine duckdb needs duckdb and pyarrow: pip install 'rfc1738[duckdb]' ({error})")
        return None
    except RFC1738Error:
        if args.engine is not None:
            raise  # (asked for by name: said, exit status 2)
        # A grammar with no column plan (a scheme that is not regular, which
        # Earley judges): the library in Python judges every line.
        return runner("python", grammar)


def _counted(
    grammar: Grammar,
    args: argparse.Namespace,
    summary: Summary,
    progress: Progress | None,
    judge: Runner,
) -> bool:
    """Count a file the engine reads itself (:mod:`rfc1738.columns.files`); ``False`` if not."""
    if args.file == "-":
        return False
    found = judge.count_file(
        args.file,
        args.host_checks,
        summary.show,
        None if progress is None else progress.share,
    )
    return _summed(grammar, args, summary, found)


def _summed(
    grammar: Grammar, args: argparse.Namespace, summary: Summary, found: FileCounts | None
) -> bool:
    """Count what the engine found in a file it read itself; ``False`` if it read none."""
    if found is None:
        return False
    summary.add_counts(found.lines, found.counts)
    for number, text in found.first_invalid:
        scheme = grammar.scheme_file(text).scheme
        error = line_error(grammar, text, host_checks=args.host_checks, scheme=scheme)
        summary.keep(number, str(error))
    return True


def _batches(
    stream: BinaryIO,
    grammar: Grammar,
    args: argparse.Namespace,
    summary: Summary,
    progress: Progress | None,
    judge: Runner,
) -> None:
    """Count the lines a batch at a time on the engine; keep the first errors."""
    blocks = line_batches(stream, BATCH_BYTES, arrow=True)
    for rows, found in judge.stream(blocks, 0, args.host_checks, True, False, False):
        summary.add(found)
        wanted = summary.show - len(summary.errors)
        if wanted > 0 and found.invalid:
            rejected = list(
                islice((i for i, verdict in enumerate(found.valid) if verdict is False), wanted)
            )
            for index, text in zip(rejected, texts_at(rows, rejected), strict=True):
                assert text is not None  # a file's line
                message = not_utf8_message(text)
                if message is None:
                    error = line_error(
                        grammar,
                        text,
                        host_checks=args.host_checks,
                        scheme=grammar.scheme_file(text).scheme,
                    )
                    message = str(error)
                summary.keep(found.start + index + 1, message)
        if progress is not None:
            progress.update(summary.lines, summary.invalid)


def _table(
    stream: BinaryIO,
    grammar: Grammar,
    args: argparse.Namespace,
    summary: Summary,
    progress: Progress | None,
    judge: Runner,
) -> None:
    """One row a line, as ``--format`` names, to ``--output`` (or standard output)."""
    plan = column_plan(grammar)
    columns = names(plan)
    arrow = judge.engine == "duckdb"
    if args.format == "parquet":
        schema = arrow_schema(plan)
        parquet = ParquetWriter(args.output, schema, REPEATED)
        try:
            for rows, found, errors in _judged(stream, args, summary, judge, arrow):
                parquet.write(arrow_rows(found, rows, schema, errors))
                if progress is not None:
                    progress.update(summary.lines, summary.invalid)
        finally:
            parquet.close()
        return
    with ExitStack() as opened:
        out = sys.stdout
        if args.output not in (None, "-"):
            out = opened.enter_context(open(args.output, "w", encoding="utf-8", newline=""))
        writer = (JsonLinesWriter if args.format == "jsonl" else CsvWriter)(out, columns)
        for rows, found, errors in _judged(stream, args, summary, judge, arrow):
            writer.write(python_rows(found, rows, plan, errors))
            if progress is not None:
                progress.update(summary.lines, summary.invalid)


def _judged(
    stream: BinaryIO, args: argparse.Namespace, summary: Summary, judge: Runner, arrow: bool
) -> Iterator[tuple[Rows, Checked, dict[int, tuple[int, str | None, str]]]]:
    """Each batch: its lines, the verdicts with structs and errors, the errors by index.

    The batch is counted in ``summary``, with its first errors. The engine
    judges the next batch in a thread of its own (DuckDB lets go of the
    interpreter while it runs) while this one explains the rejected lines
    and the caller writes the rows: at most :data:`AHEAD` batches ahead.
    """
    host_checks = args.host_checks
    for rows, found in _ahead(stream, judge, host_checks, arrow):
        # The rejected lines' texts, taken out of the batch once for both uses.
        texts = rejected_texts(found, rows)
        found.errors = judge.explained(partial(_picked, texts), found.valid, host_checks)
        summary.add(found)
        for index, text in texts.items():
            if not summary.wants_error():
                break
            message = not_utf8_message(text)
            if message is None and found.errors is not None and index in found.errors:
                message = str(found.errors[index])
            if message is not None:
                summary.keep(found.start + index + 1, message)
        yield rows, found, line_errors(found, texts)


def _picked(texts: dict[int, str], indices: list[int]) -> list[str | None]:
    """The texts at ``indices`` (``None`` where ``texts`` has none)."""
    return [texts.get(index) for index in indices]


def _ahead(
    stream: BinaryIO, judge: Runner, host_checks: bool, arrow: bool
) -> Iterator[tuple[Rows, Checked]]:
    """Each batch's lines and verdicts with structs (no errors), judged in a thread ahead.

    Only that thread uses the runner's connection. An error there is raised
    here; leaving the loop early (an error here, Ctrl-C) stops the thread
    once it has judged the batch at hand.
    """
    ready: queue.Queue[tuple[Rows, Checked] | BaseException | None] = queue.Queue(AHEAD)
    stop = threading.Event()

    def judged() -> None:
        blocks = line_batches(stream, BATCH_BYTES, arrow=arrow)
        verdicts = judge.stream(blocks, 0, host_checks, True, True, False)
        try:
            for item in verdicts:
                if not _handed(ready, item, stop):
                    verdicts.close()  # (DuckDB's query ended)
                    return
        except BaseException as error:  # (raised again in the caller's thread)
            _handed(ready, error, stop)
            return
        _handed(ready, None, stop)

    worker = threading.Thread(target=judged, name="rfc1738-judge", daemon=True)
    worker.start()
    try:
        while (item := ready.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        worker.join()


def _handed(ready: queue.Queue[Any], item: object, stop: threading.Event) -> bool:
    """Put ``item`` in ``ready`` once there is room; ``False`` if the reader stopped first."""
    while not stop.is_set():
        try:
            ready.put(item, timeout=0.1)
        except queue.Full:
            continue
        return True
    return False


def _summary(
    stream: BinaryIO,
    grammar: Grammar,
    args: argparse.Namespace,
    summary: Summary,
    progress: Progress | None,
    refusals: Refusals,
) -> None:
    """Count the lines; keep the first errors."""
    host_checks = args.host_checks
    if args.parser == "fast":
        for number, text, scheme, valid in check_lines(grammar, stream, host_checks=host_checks):
            if valid:
                summary.count(scheme, True)
            else:
                _rejected(grammar, summary, refusals, host_checks, number, text, scheme, None)
            if progress is not None:
                progress.update(summary.lines, summary.invalid)
        return
    for number, text in enumerate(lines(stream), 1):
        scheme = grammar.scheme_file(text).scheme
        try:
            grammar.parse(text, parser=args.parser, host_checks=host_checks)
        except URLSyntaxError as error:
            _rejected(grammar, summary, refusals, host_checks, number, text, scheme, error)
        else:
            summary.count(scheme, True)
        if progress is not None:
            progress.update(summary.lines, summary.invalid)


def _rejected(
    grammar: Grammar,
    summary: Summary,
    refusals: Refusals,
    host_checks: bool,
    number: int,
    text: str,
    scheme: str,
    error: URLSyntaxError | None,
) -> None:
    """Count a line the parser rejected: invalid, or too long for the reference parser."""
    message = not_utf8_message(text)
    if message is None:
        refused = refusals.too_long(text, error, scheme)
        if refused is not None:
            summary.count(scheme, None)
            summary.keep_too_long(number, refused)
            return
    summary.count(scheme, False)
    if summary.wants_error():
        if message is None:
            found = error or line_error(grammar, text, host_checks=host_checks, scheme=scheme)
            message = str(found)
        summary.keep(number, message)


def _records(
    stream: BinaryIO,
    grammar: Grammar,
    args: argparse.Namespace,
    summary: Summary,
    progress: Progress | None,
    refusals: Refusals,
) -> None:
    """One JSON record a line: its 1-based number, then what ``rfc1738 parse`` prints."""
    out = sys.stdout
    if args.parser != "fast":
        for number, text in enumerate(lines(stream), 1):
            result = {"line": number} | result_dict(
                grammar,
                text,
                parser=args.parser,
                host_checks=args.host_checks,
                refusals=refusals,
            )
            write_json(result, out)
            summary.count(grammar.scheme_file(text).scheme, _verdict(result["valid"]))
            if progress is not None:
                progress.update(summary.lines, summary.invalid)
        return
    # The fast way, with the same text (rfc1738.cli.records): each line
    # matched once, the blocks of a large file written by worker processes.
    writer = RecordWriter(grammar, args.host_checks, refusals)
    with closing(write_records(writer, stream, out)) as written:
        for lines_done, invalid, too_long in written:
            # All the exit status needs: no counts by scheme here.
            summary.invalid += invalid
            summary.too_long += too_long
            if progress is not None:
                progress.update(lines_done, summary.invalid)


def _verdict(valid: object) -> bool | None:
    return None if valid is None else bool(valid)


class Summary:
    """Counts by scheme, and the first ``show`` errors and refusals with their line numbers."""

    def __init__(self, show: int) -> None:
        self.show = show
        self.lines = 0
        self.invalid = 0
        #: Lines the reference parser refused as too long for it: judged neither way.
        self.too_long = 0
        self.valid_by_scheme: Counter[str] = Counter()
        self.invalid_by_scheme: Counter[str] = Counter()
        self.too_long_by_scheme: Counter[str] = Counter()
        #: The first errors, by line number: each error's message with its picture.
        self.errors: list[tuple[int, str]] = []
        self.refusals: list[tuple[int, str]] = []

    def add(self, found: Checked) -> None:
        """Count a batch of lines the bulk API judged (with ``schemes=True``)."""
        self.add_counts(len(found), found.counts())

    def add_counts(self, lines: int, counts: Mapping[str, tuple[int, int]]) -> None:
        """Count ``lines`` lines: grammar file → (valid, invalid)."""
        self.lines += lines
        for scheme, (valid, invalid) in counts.items():
            self.valid_by_scheme[scheme] += valid
            self.invalid_by_scheme[scheme] += invalid
            self.invalid += invalid

    def count(self, scheme: str, valid: bool | None) -> None:
        """Count a line of ``scheme``: valid, invalid, or (``None``) too long to judge."""
        self.lines += 1
        if valid:
            self.valid_by_scheme[scheme] += 1
        elif valid is None:
            self.too_long += 1
            self.too_long_by_scheme[scheme] += 1
        else:
            self.invalid += 1
            self.invalid_by_scheme[scheme] += 1

    def wants_error(self) -> bool:
        return len(self.errors) < self.show

    def keep(self, line: int, message: str) -> None:
        self.errors.append((line, message))

    def keep_too_long(self, line: int, refused: URLSyntaxError) -> None:
        if len(self.refusals) < self.show:
            self.refusals.append((line, refused.reason))

    def status(self) -> int:
        """The exit status: any line invalid, else any too long to judge, else all valid."""
        if self.invalid:
            return INVALID
        return TOO_LONG if self.too_long else OK

    def write(self, out: TextIO, name: str) -> None:
        """The summary: totals, a table by scheme, the first errors with their pictures."""
        valid = self.lines - self.invalid - self.too_long
        totals = f"{plural(self.lines, 'line')}: {valid} valid, {self.invalid} invalid"
        if self.too_long:
            totals += f", {self.too_long} too long for the reference parser"
        out.write(totals + "\n")
        counts = [self.valid_by_scheme, self.invalid_by_scheme]
        headings = ["valid", "invalid"]
        if self.too_long:
            counts.append(self.too_long_by_scheme)
            headings.append("too long")
        schemes = sorted(set().union(*counts))
        if schemes:
            width = max(len("scheme"), *(len(s) for s in schemes))
            out.write(f"\n{'scheme':<{width}}" + "".join(f"  {h:>7}" for h in headings) + "\n")
            for scheme in schemes:
                row = "".join(
                    f"  {c[scheme]:>{max(7, len(h))}}"
                    for c, h in zip(counts, headings, strict=True)
                )
                out.write(f"{scheme:<{width}}{row}\n")
        self._list(out, name, self.errors, self.invalid, "error", "errors")
        self._list(
            out,
            name,
            self.refusals,
            self.too_long,
            "line too long for the reference parser",
            "lines too long for the reference parser",
        )

    @staticmethod
    def _list(
        out: TextIO, name: str, kept: list[tuple[int, str]], count: int, one: str, many: str
    ) -> None:
        if not kept:
            return
        shown = len(kept)
        which = one if shown == 1 else f"{shown} {many}"
        of = f" (of {count})" if count > shown else ""
        out.write(f"\nfirst {which}{of}:\n")
        for line, message in kept:
            out.write(f"{name}:{line}: {message}\n")


class Progress:
    """Lines so far and lines per second on one terminal line, redrawn at most 10 times a second."""

    INTERVAL = 0.1

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.start = time.monotonic()
        self.due = self.start + self.INTERVAL
        self.shown = False

    def update(self, lines: int, invalid: int) -> None:
        now = time.monotonic()
        if now < self.due:
            return
        self.due = now + self.INTERVAL
        rate = lines / (now - self.start)
        self.out.write(f"\r{lines:,} lines, {invalid:,} invalid, {rate:,.0f} lines/s\x1b[K")
        self.out.flush()
        self.shown = True

    def share(self, percent: float) -> None:
        """How much of the file the engine has read, where it counts the lines at the end."""
        now = time.monotonic()
        if now < self.due:
            return
        self.due = now + self.INTERVAL
        self.out.write(f"\r{percent:.0f}% of the file read\x1b[K")
        self.out.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.out.write("\r\x1b[K")
            self.out.flush()
