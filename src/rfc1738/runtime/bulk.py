"""Validating many URLs at once: one a line, from a file, a buffer or any iterable.

:func:`check_lines` is :meth:`Grammar.is_valid <rfc1738.Grammar.is_valid>`
for a stream: the same answer for every line, with what is the same from one
line to the next worked out once (the scheme's engine: its expression and
where its ``host``, ``hostnumber`` and ``port`` groups are), and bytes read
in large blocks. It keeps nothing per line, so a file of any length is
checked in constant memory. :func:`match_lines` gives each valid line's
match too, and :func:`match_blocks` the same a block of lines at a time, the
lines of each scheme matched one after another. Each takes a
:class:`rfc1738.Grammar` (``parsers``), and reads it through its
:class:`~rfc1738.runtime.dispatch.Dispatch`: the engines and the explainer.
"""

# No `from __future__ import annotations`: the NamedTuple fields' annotations stay
# types, not strings that typing compiles one by one at import (docs/architecture.md, "Start-up").
import re
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import IO, Any, NamedTuple, cast

from ..errors import URLSyntaxError
from .dispatch import MAX_SPELLINGS, Dispatching

__all__ = [
    "BLOCK",
    "LineMatch",
    "LineResult",
    "check_lines",
    "line_error",
    "lines",
    "match_blocks",
    "match_lines",
]

#: How many bytes are read and decoded at once.
BLOCK = 1 << 20

#: At most how many lines :func:`match_blocks` gives at once.
BLOCK_LINES = 2048


class LineResult(NamedTuple):
    """One line's verdict."""

    #: 1-based line number.
    number: int
    #: The line, without its line ending.
    text: str
    #: The grammar file that judged it: its scheme's, or ``generic``.
    scheme: str
    #: Whether :meth:`~rfc1738.Grammar.parse` would return an object.
    valid: bool


class LineMatch(NamedTuple):
    """One line's verdict, with its match (see :func:`match_lines`)."""

    #: 1-based line number.
    number: int
    #: The line, without its line ending.
    text: str
    #: The grammar file that judged it: its scheme's, or ``generic``.
    scheme: str
    #: Whether :meth:`~rfc1738.Grammar.parse` would return an object.
    valid: bool
    #: The match of the scheme's compiled expression for a valid line it read
    #: (host checks done); ``None`` for an invalid line, or a scheme no
    #: expression serves.
    match: re.Match[str] | None


def lines(source: Iterable[str] | Iterable[bytes] | IO[str] | IO[bytes]) -> Iterator[str]:
    r"""Each line of ``source`` without its ``\n`` or ``\r\n``.

    ``source`` is a binary or text file (read in blocks of up to :data:`BLOCK`), or
    any iterable of lines (``str`` or ``bytes``, with or without their
    endings). Bytes are decoded as UTF-8; bytes that are not UTF-8 become
    lone surrogates (``surrogateescape``), which no URL may hold. A line of
    another type, a ``str`` or ``bytes`` given as the whole source (whose
    items would be characters or numbers), or a file that reads neither,
    is a ``TypeError``.

    >>> list(lines([b"http://h/\r\n", b"a b \n", b"x\r", b"\xff"]))
    ['http://h/', 'a b ', 'x\r', '\udcff']
    >>> import io
    >>> list(lines(io.BytesIO(b"a\r\nb\n\nc")))
    ['a', 'b', '', 'c']
    """
    read = _reader(source)
    if read is not None:
        for block in _blocks(read):
            yield from block
            # Let it go before the next block is read: two blocks of lines at once
            # would be the peak.
            del block
        return
    for line in _items(source):
        yield _line(line)


def _reader(
    source: Iterable[str] | Iterable[bytes] | IO[str] | IO[bytes],
) -> Callable[[int], Any] | None:
    """How ``source`` is read a block at a time, if it is a file.

    ``read1`` where there is one: what has arrived, up to a block, so that a
    pipe is checked as it is written.
    """
    return getattr(source, "read1", None) or getattr(source, "read", None)


def _items(source: object) -> Iterator[str | bytes]:
    """The lines of an iterable ``source`` that is not a file; ``TypeError`` for a text.

    A ``str`` or ``bytes`` is iterable too, but a character or a number a
    line is never what was meant: a one-line source is a list of one line.
    """
    if isinstance(source, str | bytes | bytearray):
        raise TypeError(
            f"source must be a file or an iterable of lines, not {type(source).__name__} "
            "(give one line as a list of one)"
        )
    try:
        items = iter(cast("Iterable[str | bytes]", source))
    except TypeError:
        raise TypeError(
            f"source must be a file or an iterable of lines, not {type(source).__name__}"
        ) from None
    return items


def _line(line: str | bytes) -> str:
    """One line of an iterable, decoded and without its line ending."""
    if isinstance(line, bytes):
        text = line.decode("utf-8", "surrogateescape")
    elif isinstance(line, str):
        text = line
    else:
        raise TypeError(f"a line must be a str or bytes, not {type(line).__name__}")
    if text.endswith("\n"):
        text = text[:-2] if text.endswith("\r\n") else text[:-1]
    return text


def _line_blocks(
    source: Iterable[str] | Iterable[bytes] | IO[str] | IO[bytes], size: int
) -> Iterator[list[str]]:
    """The lines of :func:`lines`, at most ``size`` at a time.

    From a file, the lines of each read (what has arrived, from a pipe); from
    an iterable, ``size`` lines (fewer at its end).
    """
    read = _reader(source)
    if read is not None:
        for block in _blocks(read):
            for start in range(0, len(block), size):
                yield block[start : start + size] if len(block) > size else block
            del block  # (as in lines)
        return
    items = _items(source)
    while True:
        block = [_line(line) for line in islice(items, size)]
        if not block:
            return
        yield block


def _blocks(read: Callable[[int], Any]) -> Iterator[list[str]]:
    """The lines of a file, a list per block read: one decode and one split per block."""
    block = read(BLOCK)
    _check_read(block)
    newline = b"\n" if isinstance(block, bytes) else "\n"
    rest = block[:0]
    while block:
        block = rest + block
        cut = block.rfind(newline) + 1
        rest = block[cut:]
        if cut:
            yield _split(block[:cut])
        block = read(BLOCK)
    if rest:
        yield [rest.decode("utf-8", "surrogateescape") if isinstance(rest, bytes) else rest]


def _check_read(block: object) -> None:
    """``TypeError`` for what a file's ``read`` gave that is neither text nor bytes.

    A file of another kind, or an object whose ``read`` is not a file's.
    """
    if not isinstance(block, str | bytes):
        raise TypeError(f"a file of lines must read str or bytes, not {type(block).__name__}")


def _split(block: str | bytes) -> list[str]:
    text = block.decode("utf-8", "surrogateescape") if isinstance(block, bytes) else block
    parts = text.split("\n")
    parts.pop()  # after the last line ending
    if "\r" in text:
        parts = [part[:-1] if part.endswith("\r") else part for part in parts]
    return parts


#: What judges the lines of one scheme (as written), worked out once: the
#: grammar file; the match of a valid line (``None`` for an invalid one), or
#: ``None`` where no compiled expression matches the scheme's lines; the
#: verdict. A plain tuple: the loops unpack it once a line, and a tuple
#: subclass unpacks slower.
_Judge = tuple[str, "Callable[[str], re.Match[str] | None] | None", Callable[[str], bool]]


def check_lines(
    parsers: Dispatching,
    source: Iterable[str] | Iterable[bytes] | IO[str] | IO[bytes],
    *,
    host_checks: bool = True,
) -> Iterator[LineResult]:
    """Validate each line of ``source`` (see :func:`lines`): one :class:`LineResult` a line.

    The verdict is :meth:`~rfc1738.Grammar.is_valid`'s, with the compiled
    expressions; ask :meth:`~rfc1738.Grammar.parse` or :func:`line_error`
    for the error of a line that is not valid.
    """
    judges = _Judges(parsers, host_checks)
    new = tuple.__new__  # LineResult without the Python-level __new__ of a NamedTuple
    for number, text in enumerate(lines(source), 1):
        colon = text.find(":")
        scheme, _match, valid = judges[text[:colon] if colon > 0 else ""]
        yield new(LineResult, (number, text, scheme, valid(text)))


def match_lines(
    parsers: Dispatching,
    source: Iterable[str] | Iterable[bytes] | IO[str] | IO[bytes],
    *,
    host_checks: bool = True,
) -> Iterator[LineMatch]:
    """:func:`check_lines` with each valid line's match: one :class:`LineMatch` a line.

    For a valid line of a scheme that has a compiled expression, ``match`` is
    its match, host checks done: the groups of each production are those of
    :attr:`Grammar.engine(scheme).fields <rfc1738.runtime.engines.Engine.fields>`,
    so that the URL layer builds the object, or writes its fields, without
    matching again. ``match`` is ``None`` for an invalid line, and for a
    line of a scheme no expression serves (a grammar that refers back to
    itself, a new scheme's file read as a generic URL): parse that one.
    """
    judges = _Judges(parsers, host_checks)
    new = tuple.__new__  # LineMatch without the Python-level __new__ of a NamedTuple
    for number, text in enumerate(lines(source), 1):
        colon = text.find(":")
        scheme, match, valid = judges[text[:colon] if colon > 0 else ""]
        if match is not None:
            found = match(text)
            if found is not None:
                yield new(LineMatch, (number, text, scheme, True, found))
            else:
                yield new(LineMatch, (number, text, scheme, False, None))
        else:
            yield new(LineMatch, (number, text, scheme, valid(text), None))


def match_blocks(
    parsers: Dispatching,
    source: Iterable[str] | Iterable[bytes] | IO[str] | IO[bytes],
    *,
    host_checks: bool = True,
    size: int = BLOCK_LINES,
    start: int = 1,
) -> Iterator[list[LineMatch]]:
    """:func:`match_lines`, a block of lines at a time, each block's lines grouped by scheme.

    Each list holds the :class:`LineMatch` of consecutive lines of
    ``source``, at most ``size`` of them: the lines of one read of a file
    (what has arrived, from a pipe), or ``size`` lines of an iterable. The
    blocks come in the order of the lines, so a block's lines are numbered
    on from the last of the one before; within a block they come by the
    scheme as written, in the order each was first met, each scheme's valid
    lines before its invalid ones, and in the order of the lines within each.
    The verdicts and matches are :func:`match_lines`' (the tests compare both).
    ``start``: the number of the first line (the lines of a part of a file).

    The lines of one scheme are matched one after another, and a consumer
    that takes them in the order given treats them one after another too:
    the same code on the same kind of data, which a processor runs faster
    than the kinds taken in turn (on the lines of ``rfc1738 check``'s
    benchmark, fifteen forms of URL in turn, ``check --jsonl`` takes about a
    quarter less time so: ``docs/performance.md``). A block is kept whole,
    so memory grows with ``size``, not with ``source``.

    >>> import rfc1738
    >>> texts = ["http://a/", "news:x", "http://b c", "http://d/"]
    >>> [(m.number, m.scheme, m.valid) for m in next(match_blocks(rfc1738.shipped(), texts))]
    [(1, 'http', True), (4, 'http', True), (3, 'http', False), (2, 'news', True)]
    """
    judges = _Judges(parsers, host_checks)
    new = tuple.__new__  # LineMatch without the Python-level __new__ of a NamedTuple
    number = start
    for texts in _line_blocks(source, size):
        by_scheme: dict[str, list[int]] = {}
        for at, text in enumerate(texts):
            colon = text.find(":")
            written = text[:colon] if colon > 0 else ""
            found = by_scheme.get(written)
            if found is None:
                by_scheme[written] = [at]
            else:
                found.append(at)
        block: list[LineMatch] = []
        for written, ats in by_scheme.items():
            scheme, match, valid = judges[written]
            invalid = []
            for at in ats:
                text = texts[at]
                if match is not None:
                    matched = match(text)
                    if matched is not None:
                        block.append(new(LineMatch, (number + at, text, scheme, True, matched)))
                    else:
                        invalid.append(new(LineMatch, (number + at, text, scheme, False, None)))
                elif valid(text):
                    block.append(new(LineMatch, (number + at, text, scheme, True, None)))
                else:
                    invalid.append(new(LineMatch, (number + at, text, scheme, False, None)))
            block += invalid
        number += len(texts)
        yield block
        del texts, block, by_scheme  # before the next lines are read (as in lines)


def line_error(
    parsers: Dispatching, text: str, *, host_checks: bool = True, scheme: str | None = None
) -> URLSyntaxError:
    """The error :meth:`~rfc1738.Grammar.parse` raises for ``text``.

    For a line :func:`check_lines` or :func:`match_lines` found invalid:
    the same error, with its details worked out, without raising it. Where
    the scheme's error automaton rejects the text, that is the error
    ``parse`` explains when it is read; otherwise (a host check, a scheme
    served another way) the scheme's engine says. ``ValueError`` if ``text``
    is valid. ``scheme``: the grammar file that judged the line, as
    :class:`LineResult` and :class:`LineMatch` give it (``None``: worked out
    again from ``text``).
    """
    dispatch = parsers.dispatch
    entry = dispatch.files[scheme] if scheme is not None else dispatch.scheme_file(text)
    rejected = dispatch.explainer.rejection(text, entry)
    if rejected is not None:
        return rejected
    try:
        url = dispatch.engine(entry.scheme).parse(text, host_checks)
    except URLSyntaxError as error:  # a host check
        return error
    if url is None:
        return dispatch.explainer.error(text, entry)
    raise ValueError(f"{text!r} is a valid URL")


class _Judges(dict[str, _Judge]):
    """Each scheme's judge by the scheme as written (``""``: no scheme), worked out when first met.

    A dictionary whose look-up of a scheme already met is the dictionary's
    own (the loops look one up per line); at most
    :data:`~rfc1738.runtime.dispatch.MAX_SPELLINGS` spellings are kept, as
    they come from the input.
    """

    def __init__(self, parsers: Dispatching, host_checks: bool) -> None:
        super().__init__()
        self.dispatch = parsers.dispatch
        self.host_checks = host_checks

    def __missing__(self, written: str) -> _Judge:
        entry = self.dispatch.scheme_file(written + ":")
        # The scheme's engine gives both the verdict and, where the scheme has
        # a compiled expression, the match of a valid line: one call a line
        # either way (as Grammar.is_valid judges).
        engine = self.dispatch.engine(entry.scheme)
        if self.host_checks:
            judge: _Judge = (entry.scheme, engine.valid_match, engine.valid)
        else:
            judge = (entry.scheme, engine.fullmatch, engine.matches)
        if len(self) < MAX_SPELLINGS:
            self[written] = judge
        return judge
