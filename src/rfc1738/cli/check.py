"""``rfc1738 check``: validate a file of URLs, one a line, in constant memory.

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
from collections.abc import Iterator
from contextlib import contextmanager
from json.encoder import encode_basestring_ascii as quoted
from typing import BinaryIO, TextIO

from ..errors import URLSyntaxError
from ..output.jsonl import MembersWriter, members_json, members_writer
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
    write_json,
)

__all__ = ["Progress", "Summary", "check"]


def check(args: argparse.Namespace, grammar: Grammar) -> int:
    """Run ``rfc1738 check`` with the parsed arguments."""
    name = "<stdin>" if args.file == "-" else args.file
    stream = open_input(args.file)
    if stream is None:
        return USAGE
    progress = Progress(sys.stderr) if sys.stderr is not None and sys.stderr.isatty() else None
    summary = Summary(args.show)
    refusals = Refusals(grammar, args.parser, args.host_checks)
    with stream:
        if args.jsonl:
            _records(stream, grammar, args, summary, progress, refusals)
        else:
            _summary(stream, grammar, args, summary, progress, refusals)
    if progress is not None:
        progress.clear()
    if not args.jsonl:
        summary.write(sys.stdout, name)
    return summary.status()


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

    def clear(self) -> None:
        if self.shown:
            self.out.write("\r\x1b[K")
            self.out.flush()
