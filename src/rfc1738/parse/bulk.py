"""Validating many URLs at once: one a line, from a file, a buffer or any iterable.

:func:`check_lines` is :meth:`ParserSet.is_valid
<rfc1738.parse.parsers.ParserSet.is_valid>` for a stream: the same answer for
every line, with what is the same from one line to the next worked out once
(the scheme's expression and where its ``host``, ``hostnumber`` and ``port``
groups are), and bytes read in large blocks. It keeps nothing per line, so a
file of any length is checked in constant memory.
"""

# No `from __future__ import annotations`: the NamedTuple fields' annotations stay
# types, not strings that typing compiles one by one at import (docs/architecture.md, "Start-up").
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, NamedTuple

from .hosts import MAX_LABEL
from .parsers import ParserSet, valid_by_spans

__all__ = ["BLOCK", "LineResult", "check_lines", "lines"]

#: How many bytes are read and decoded at once.
BLOCK = 1 << 20

#: A port of at most this many digits is at most 9999: within 65535, unchecked.
_SHORT_PORT = 4

#: How many distinct schemes (as written) keep their parser at hand.
_SCHEMES_KEPT = 256


class LineResult(NamedTuple):
    """One line's verdict."""

    #: 1-based line number.
    number: int
    #: The line, without its line ending.
    text: str
    #: The grammar file that judged it: its scheme's, or ``generic``.
    scheme: str
    #: Whether :meth:`~rfc1738.parse.parsers.ParserSet.parse` would return an object.
    valid: bool


def lines(source: Iterable[str] | Iterable[bytes] | IO[str] | IO[bytes]) -> Iterator[str]:
    r"""Each line of ``source`` without its ``\n`` or ``\r\n``.

    ``source`` is a binary or text file (read in blocks of up to :data:`BLOCK`), or
    any iterable of lines (``str`` or ``bytes``, with or without their
    endings). Bytes are decoded as UTF-8; bytes that are not UTF-8 become
    lone surrogates (``surrogateescape``), which no URL may hold.

    >>> list(lines([b"http://h/\r\n", b"a b \n", b"x\r", b"\xff"]))
    ['http://h/', 'a b ', 'x\r', '\udcff']
    >>> import io
    >>> list(lines(io.BytesIO(b"a\r\nb\n\nc")))
    ['a', 'b', '', 'c']
    """
    # read1: what has arrived, up to a block, so a pipe is checked as it is written.
    read = getattr(source, "read1", None) or getattr(source, "read", None)
    if read is not None:
        yield from _blocks(read)
        return
    for line in source:
        text = line.decode("utf-8", "surrogateescape") if isinstance(line, bytes) else line
        if text.endswith("\n"):
            text = text[:-2] if text.endswith("\r\n") else text[:-1]
        yield text


def _blocks(read: Callable[[int], Any]) -> Iterator[str]:
    """The lines of a file read in blocks: one decode and one split per block."""
    block = read(BLOCK)
    newline = b"\n" if isinstance(block, bytes) else "\n"
    rest = block[:0]
    while block:
        block = rest + block
        cut = block.rfind(newline) + 1
        rest = block[cut:]
        yield from _split(block[:cut])
        block = read(BLOCK)
    if rest:
        yield rest.decode("utf-8", "surrogateescape") if isinstance(rest, bytes) else rest


def _split(block: str | bytes) -> list[str]:
    text = block.decode("utf-8", "surrogateescape") if isinstance(block, bytes) else block
    parts = text.split("\n")
    parts.pop()  # after the last line ending
    if "\r" in text:
        parts = [part[:-1] if part.endswith("\r") else part for part in parts]
    return parts


#: What judges one line of a scheme: (the scheme's file name, the verdict's function).
_Judge = tuple[str, Callable[[str], bool]]


def check_lines(
    parsers: ParserSet,
    source: Iterable[str] | Iterable[bytes] | IO[str] | IO[bytes],
    *,
    host_checks: bool = True,
) -> Iterator[LineResult]:
    """Validate each line of ``source`` (see :func:`lines`): one :class:`LineResult` a line.

    The verdict is :meth:`~rfc1738.parse.parsers.ParserSet.is_valid`'s, with
    the compiled expressions; ask :meth:`~rfc1738.parse.parsers.ParserSet.parse`
    for the error of a line that is not valid.
    """
    judges: dict[str, _Judge] = {}
    new = tuple.__new__  # LineResult without the Python-level __new__ of a NamedTuple
    for number, text in enumerate(lines(source), 1):
        colon = text.find(":")
        written = text[:colon] if colon > 0 else ""
        judge = judges.get(written)
        if judge is None:
            judge = _judge(parsers, text, host_checks)
            if len(judges) < _SCHEMES_KEPT:
                judges[written] = judge
        scheme, valid = judge
        yield new(LineResult, (number, text, scheme, valid(text)))


def _judge(parsers: ParserSet, text: str, host_checks: bool) -> _Judge:
    """The verdict of ``text``'s scheme, as :meth:`ParserSet.is_valid` gives it, made fast.

    The expression's ``host``, ``hostnumber`` and ``port`` groups are read
    straight from the match: a name of at most :data:`MAX_LABEL` characters
    that is not a ``hostnumber``, and a port of at most four digits, pass the
    host checks whatever they hold; anything else goes through
    :func:`~rfc1738.parse.hosts.check_spans` as in ``is_valid``.
    """
    entry = parsers.scheme_file(text)
    hot = parsers._scheme_hot_path(entry.scheme)
    checked = hot.checked_spans

    def slow(text: str) -> bool:
        return valid_by_spans(checked, text, host_checks)

    table = parsers.compiled(entry.scheme)
    if table.expression is None or parsers._is_foreign(entry, hot.cls):
        return entry.scheme, slow
    pattern = parsers.fast_parser(entry.scheme).pattern
    index = pattern.groupindex
    fullmatch = pattern.fullmatch
    if not host_checks:
        return entry.scheme, lambda text: fullmatch(text) is not None

    def numbers(production: str) -> tuple[int, ...]:
        return tuple(index[group] for group in table.groups.get(production, ()))

    hosts, hostnumbers, ports = numbers("host"), numbers("hostnumber"), numbers("port")

    def valid(text: str) -> bool:
        match = fullmatch(text)
        if match is None:
            return False
        regs = match.regs
        for number in hostnumbers:
            if regs[number][0] >= 0:
                return slow(text)
        for number in hosts:
            start, end = regs[number]
            if start >= 0:
                if end - start > MAX_LABEL:
                    return slow(text)
                break
        for number in ports:
            start, end = regs[number]
            if start >= 0:
                if end - start > _SHORT_PORT:
                    return slow(text)
                break
        return True

    return entry.scheme, valid
