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
import gc
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from importlib.util import find_spec
from itertools import islice
from json.encoder import encode_basestring_ascii as quoted
from typing import BinaryIO, TextIO

from ..columns import Checked, Engine, column_plan
from ..columns.files import FileCounts
from ..columns.lines import Rows, line_batches, texts_at
from ..columns.runners import Runner, runner
from ..errors import RFC1738Error, URLSyntaxError
from ..output.jsonl import MembersWriter, members_json, members_writer
from ..output.table import CsvWriter, JsonLinesWriter, ParquetWriter
from ..runtime.bulk import check_lines, line_error, lines, match_blocks
from ..urls import Grammar
from .output import (
    INVALID,
    OK,
    TOO_LONG,
    USAGE,
    Refusals,
    error_json,
    not_utf8_dict,
    not_utf8_message,
    open_input,
    plural,
    result_dict,
    say,
    write_json,
)
from .table import (
    arrow_rows,
    arrow_schema,
    line_errors,
    names,
    python_rows,
    rejected_texts,
)

__all__ = ["BATCH_BYTES", "Progress", "Summary", "check", "installed_engine"]

#: How many bytes of the file make one batch for the bulk API: some 80,000
#: lines of the corpora, a query each; what a batch holds at once (the
#: lines, DuckDB's verdicts) stays a few times this, whatever the file's size.
BATCH_BYTES = 4 << 20


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
    for rows in line_batches(stream, BATCH_BYTES, arrow=True):
        found = judge.run(rows, summary.lines, args.host_checks, True, False, False)
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
        parquet = ParquetWriter(args.output, schema)
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

    The batch is counted in ``summary``, with its first errors.
    """
    for rows in line_batches(stream, BATCH_BYTES, arrow=arrow):
        found = judge.run(rows, summary.lines, args.host_checks, True, True, True)
        summary.add(found)
        texts = rejected_texts(found, rows)
        for index, text in texts.items():
            if not summary.wants_error():
                break
            message = not_utf8_message(text)
            if message is None and found.errors is not None and index in found.errors:
                message = str(found.errors[index])
            if message is not None:
                summary.keep(found.start + index + 1, message)
        yield rows, found, line_errors(found, texts)


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
    # The fast way, with the same text: each line matched once, the lines of
    # a block by scheme (match_blocks), a valid line's fields written straight
    # from its match (members_writer), an invalid line's error worked out
    # without raising it (line_error); each block's records put back in the
    # order of its lines and written at once.
    host_checks = args.host_checks
    writers: dict[str, MembersWriter] = {}
    first = 1  # the number of the block's first line
    with _collected_less_often():
        for block in match_blocks(grammar, stream, host_checks=host_checks):
            records = [""] * len(block)
            for number, text, scheme, valid, match in block:
                # The text as json.dumps writes a str (what json_value calls for one).
                written = quoted(text)
                verdict = "true" if valid else "false"
                if match is not None:
                    write = writers.get(scheme)
                    if write is None:
                        write = writers[scheme] = members_writer(
                            grammar.url_class(scheme),
                            grammar.engine(scheme).fields,
                            grammar=grammar,
                            host_checks=host_checks,
                        )
                    fields = write(text, match, len(written) == len(text) + 2)
                elif valid:  # a scheme no expression serves
                    fields = members_json(grammar.parse(text, host_checks=host_checks))
                else:
                    # All the exit status needs: no counts by scheme here.
                    verdict, error = _line_error(grammar, text, scheme, host_checks, refusals)
                    if verdict == "null":
                        summary.too_long += 1
                    else:
                        summary.invalid += 1
                    fields = f'"error": {error}'
                records[number - first] = (
                    f'{{"line": {number}, "text": {written}, "valid": {verdict}, {fields}}}\n'
                )
            out.write("".join(records))
            first += len(block)
            del block, records  # before the next block is read
            if progress is not None:
                progress.update(first - 1, summary.invalid)


def _line_error(
    grammar: Grammar, text: str, scheme: str, host_checks: bool, refusals: Refusals
) -> tuple[str, str]:
    """An invalid line's verdict (``false``, or ``null``: too long to judge) and error, as JSON."""
    encoding = not_utf8_dict(text)
    if encoding is not None:
        return "false", json.dumps(encoding)
    error = line_error(grammar, text, host_checks=host_checks, scheme=scheme)
    refused = refusals.too_long(text, error, scheme)
    if refused is not None:
        return "null", error_json(refused)
    return "false", error_json(error)


def _verdict(valid: object) -> bool | None:
    return None if valid is None else bool(valid)


@contextmanager
def _collected_less_often() -> Iterator[None]:
    """Run the cyclic garbage collector less often, for a loop over many lines.

    The ``--jsonl`` loop keeps a block of lines with their matches while it
    writes their records, and makes and frees several small containers a
    line. At the default threshold (700 more containers made than freed)
    the collector looks at each block's objects many times over and, now
    and then, at every object of the process: some 7% of the time of the
    loop (``docs/performance.md``), which makes no cycles of its own. Here the collector runs
    after :data:`_COLLECT_AFTER` instead; it still runs.
    """
    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], _COLLECT_AFTER), *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)


#: How many more containers made than freed set the collector off in the --jsonl loop.
_COLLECT_AFTER = 50_000


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
