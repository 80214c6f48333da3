"""``rfc1738 check``: validate a file of URLs, one a line, in constant memory.

Lines are read as bytes and stripped of their line ending (``\\n`` or
``\\r\\n``) only: anything else on the line, spaces included, is part of the
URL and is judged. Bytes that are not UTF-8 become lone surrogates
(``surrogateescape``), which no URL may hold, so such a line is invalid and
says where. The lines are validated by :func:`rfc1738.check_lines`
(:mod:`rfc1738.parse.bulk`). The summary keeps counts and the first
``--show`` errors, nothing per line, however long the input; ``--jsonl``
writes one record a line, with its line number, from each line's match
(:func:`~rfc1738.parse.bulk.match_blocks`, :mod:`rfc1738.urls.records`),
a block of lines at a time.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from json.encoder import encode_basestring_ascii as quoted
from typing import BinaryIO, TextIO

from ..errors import URLSyntaxError
from ..parse.bulk import check_lines, line_error, lines, match_blocks
from ..urls import Grammar
from ..urls.records import MembersWriter, members_json, members_writer
from .output import INVALID, OK, USAGE, error_json, plural, result_dict, write_json

__all__ = ["Progress", "Summary", "check"]


def check(args: argparse.Namespace, grammar: Grammar) -> int:
    """Run ``rfc1738 check`` with the parsed arguments."""
    name = "<stdin>" if args.file == "-" else args.file
    try:
        stream: BinaryIO = sys.stdin.buffer if args.file == "-" else open(args.file, "rb")  # noqa: SIM115
    except OSError as error:
        print(f"rfc1738: cannot read {name}: {error.strerror}", file=sys.stderr)
        return USAGE
    progress = Progress(sys.stderr) if sys.stderr.isatty() else None
    summary = Summary(args.show)
    with stream:
        if args.jsonl:
            _records(stream, grammar, args, summary, progress)
        else:
            _summary(stream, grammar, args, summary, progress)
    if progress is not None:
        progress.clear()
    if not args.jsonl:
        summary.write(sys.stdout, name)
    return INVALID if summary.invalid else OK


def _summary(
    stream: BinaryIO,
    grammar: Grammar,
    args: argparse.Namespace,
    summary: Summary,
    progress: Progress | None,
) -> None:
    """Count the lines; keep the first errors."""
    results: Iterable[tuple[int, str, str, bool]]
    if args.parser == "fast":
        results = check_lines(grammar, stream, host_checks=args.host_checks)
    else:
        results = (
            (
                number,
                text,
                grammar.scheme_file(text).scheme,
                grammar.is_valid(text, parser=args.parser, host_checks=args.host_checks),
            )
            for number, text in enumerate(lines(stream), 1)
        )
    for number, text, scheme, valid in results:
        summary.count(scheme, valid)
        if not valid and summary.wants_error():
            try:
                grammar.parse(text, parser=args.parser, host_checks=args.host_checks)
            except URLSyntaxError as error:
                summary.keep(number, error)
        if progress is not None:
            progress.update(summary.lines, summary.invalid)


def _records(
    stream: BinaryIO,
    grammar: Grammar,
    args: argparse.Namespace,
    summary: Summary,
    progress: Progress | None,
) -> None:
    """One JSON record a line: its 1-based number, then what ``rfc1738 parse`` prints."""
    out = sys.stdout
    if args.parser != "fast":
        for number, text in enumerate(lines(stream), 1):
            result = {"line": number} | result_dict(
                grammar, text, parser=args.parser, host_checks=args.host_checks
            )
            write_json(result, out)
            summary.count(grammar.scheme_file(text).scheme, bool(result["valid"]))
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
                if match is not None:
                    write = writers.get(scheme)
                    if write is None:
                        write = writers[scheme] = members_writer(
                            grammar.url_class(scheme),
                            grammar.fast_parser(scheme).fields,
                            grammar=grammar,
                            host_checks=host_checks,
                        )
                    fields = write(text, match, len(written) == len(text) + 2)
                elif valid:  # a scheme no expression serves
                    fields = members_json(grammar.parse(text, host_checks=host_checks))
                else:
                    error = error_json(
                        line_error(grammar, text, host_checks=host_checks, scheme=scheme)
                    )
                    fields = f'"error": {error}'
                    summary.invalid += 1  # all the exit status needs: no counts by scheme here
                records[number - first] = (
                    f'{{"line": {number}, "text": {written}, '
                    f'"valid": {"true" if valid else "false"}, {fields}}}\n'
                )
            out.write("".join(records))
            first += len(block)
            del block, records  # before the next block is read
            if progress is not None:
                progress.update(first - 1, summary.invalid)


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
    """Counts by scheme, and the first ``show`` errors with their line numbers."""

    def __init__(self, show: int) -> None:
        self.show = show
        self.lines = 0
        self.invalid = 0
        self.valid_by_scheme: Counter[str] = Counter()
        self.invalid_by_scheme: Counter[str] = Counter()
        self.errors: list[tuple[int, URLSyntaxError]] = []

    def count(self, scheme: str, valid: bool) -> None:
        self.lines += 1
        if valid:
            self.valid_by_scheme[scheme] += 1
        else:
            self.invalid += 1
            self.invalid_by_scheme[scheme] += 1

    def wants_error(self) -> bool:
        return len(self.errors) < self.show

    def keep(self, line: int, error: URLSyntaxError) -> None:
        self.errors.append((line, error))

    def write(self, out: TextIO, name: str) -> None:
        """The summary: totals, a table by scheme, the first errors with their pictures."""
        valid = self.lines - self.invalid
        out.write(f"{plural(self.lines, 'line')}: {valid} valid, {self.invalid} invalid\n")
        schemes = sorted(self.valid_by_scheme.keys() | self.invalid_by_scheme.keys())
        if schemes:
            width = max(len("scheme"), *(len(s) for s in schemes))
            out.write(f"\n{'scheme':<{width}}  {'valid':>7}  {'invalid':>7}\n")
            for scheme in schemes:
                good, bad = self.valid_by_scheme[scheme], self.invalid_by_scheme[scheme]
                out.write(f"{scheme:<{width}}  {good:>7}  {bad:>7}\n")
        if self.errors:
            shown = len(self.errors)
            which = "error" if shown == 1 else f"{shown} errors"
            of = f" (of {self.invalid})" if self.invalid > shown else ""
            out.write(f"\nfirst {which}{of}:\n")
            for line, error in self.errors:
                out.write(f"{name}:{line}: {error}\n")


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

    def clear(self) -> None:
        if self.shown:
            self.out.write("\r\x1b[K")
            self.out.flush()
