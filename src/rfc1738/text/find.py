"""URLs in running text, found as RFC 1738's appendix recommends writing them.

Three forms are found, left to right, never overlapping:

- ``<URL:...>``: the appendix's recommended form. Anything between the
  brackets is reported, as an object or with its :class:`URLSyntaxError`.
  ``URL:`` is matched without case.
- ``<...>`` whose content begins with a scheme the grammar has a file for
  (``http:``, ``ftp:``, ..., any case): reported likewise. Other bracketed
  text (``<joe@example.com>``, ``<b>``) is not a URL, and is searched for
  bare URLs instead.
- a bare URL: one of those schemes and ``:``, not preceded by a letter, digit,
  ``+``, ``-`` or ``.``, running to the first character no URL may hold as
  itself (whitespace, ``<``, ``>``, ``"``, ...: anything but the grammar's
  ``xchar`` and ``%``), less trailing sentence punctuation (see
  :data:`TRAILING`), and reported only if it parses.

Inside brackets, whitespace (line breaks too) is dropped. Where a line break
follows a hyphen, the hyphen may have been added by a typesetter (appendix):
both readings are tried; the one that keeps the hyphen is preferred if it
parses, else the first that parses, and the others are reported as
:attr:`Found.alternatives`. A ``#`` begins a fragment identifier, checked
against the 1994 W3 grammar's ``fragmentid`` (:mod:`rfc1738.text.fragments`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from functools import cache

from .._records import Record
from ..errors import GrammarError, URLSyntaxError
from ..urls import URL, Grammar, shipped
from .fragments import check_fragment, parse_reference

__all__ = ["MAX_HYPHEN_BREAKS", "PREFIX", "TRAILING", "Found", "find_urls"]

#: The prefix the appendix puts before a URL inside brackets (matched without case).
PREFIX = "URL:"

#: Sentence punctuation that ends a bare URL rather than belonging to it when
#: it is its last character ("see ftp://h/pub." ends at ``pub``). A ``)`` is
#: dropped only when the URL has more ``)`` than ``(``.
TRAILING = frozenset(".,;:!?'")

#: Hyphens before a line break whose two readings are tried; beyond these,
#: the hyphen is kept (the readings double with each).
MAX_HYPHEN_BREAKS = 6

_OPEN, _CLOSE, _HASH, _ESCAPE_START = "<", ">", "#", "%"


class Found(Record):
    """A URL found in text.

    ``start`` and ``end`` delimit what was found (brackets included for a
    delimited URL): ``text[start:end]``. ``url_text`` is the URL as extracted
    (no brackets, no ``URL:``, no whitespace, no fragment); ``fragment`` what
    followed ``#``. ``url`` is the parsed object, or ``None`` and ``error``
    the :class:`URLSyntaxError` (its ``text`` is :attr:`reference`).
    ``alternatives`` are the other readings of a URL broken after a hyphen,
    as references, in the order they were preferred.
    """

    _fields = (
        "start",
        "end",
        "url_text",
        "url",
        "error",
        "delimited",
        "fragment",
        "alternatives",
    )
    __slots__ = _fields
    start: int
    end: int
    url_text: str
    url: URL | None
    error: URLSyntaxError | None
    delimited: bool
    fragment: str | None
    alternatives: tuple[str, ...]

    def __init__(
        self,
        start: int,
        end: int,
        url_text: str,
        url: URL | None,
        error: URLSyntaxError | None,
        delimited: bool,
        fragment: str | None = None,
        alternatives: tuple[str, ...] = (),
    ) -> None:
        self._fill(start, end, url_text, url, error, delimited, fragment, alternatives)

    @property
    def reference(self) -> str:
        """The URL and, if there is one, ``#`` and its fragment."""
        return self.url_text if self.fragment is None else f"{self.url_text}#{self.fragment}"

    @property
    def valid(self) -> bool:
        """Whether the URL (and fragment) parsed."""
        return self.error is None


def find_urls(
    text: str, *, grammar: Grammar | None = None, host_checks: bool = True
) -> Iterator[Found]:
    """The URLs in ``text``, in order (see the module's description for the rules).

    >>> [f.url_text for f in find_urls("get <URL:ftp://h/a;type=d> or http://h/b.")]
    ['ftp://h/a;type=d', 'http://h/b']
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    if grammar is None:
        grammar = shipped()
    return _URLSearch(grammar, text, host_checks).run()


class _URLSearch:
    """One search of one text for URLs (the state of :func:`find_urls`)."""

    def __init__(self, grammar: Grammar, text: str, host_checks: bool) -> None:
        self.grammar = grammar
        self.text = text
        self.host_checks = host_checks
        self.starts = _scheme_starts(grammar.schemes)
        self.url_run = _url_run(_chars(grammar, "terminal", "common", "XCHAR"))
        self.scheme_chars = _chars(grammar, "rule", "generic", "scheme")

    def run(self) -> Iterator[Found]:
        text = self.text
        position = 0
        opening = -1  # the next "<" at or after position (-2: none left)
        close = -1  # the last ">" found: every "<" before it shares it
        while position < len(text):
            if -1 < opening < position or opening == -1:
                opening = text.find(_OPEN, position)
                if opening < 0:
                    opening = -2
            limit = len(text) if opening < 0 else opening
            bare = self._bare(position, limit)
            if bare is not None:
                found, position = bare
                if found is not None:
                    yield found
                continue
            if opening < 0:
                return
            if close <= opening and close != -2:
                close = text.find(_CLOSE, opening + 1)
                if close < 0:
                    close = -2  # no ">" after here
            following = text.find(_OPEN, opening + 1)
            if close == -2 or (0 <= following < close):
                position = opening + 1
                continue
            found = self._delimited(opening, close)
            if found is None:
                position = opening + 1
                continue
            yield found
            position = close + 1

    # ---- <URL:...> and <...> ----

    def _delimited(self, opening: int, close: int) -> Found | None:
        inner = self.text[opening + 1 : close]
        pieces = inner.split()
        if not pieces:
            return None
        joined = "".join(pieces)
        if joined[: len(PREFIX)].upper() == PREFIX:
            prefix = len(PREFIX)
        elif self.starts.match(joined):
            prefix = 0
        else:
            return None
        readings = _readings(inner, prefix)
        results = [self._reference(reading) for reading in readings]
        chosen = next((i for i, result in enumerate(results) if result[1] is None), 0)
        url, error, url_text, fragment = results[chosen]
        others = tuple(reading for i, reading in enumerate(readings) if i != chosen)
        return Found(opening, close + 1, url_text, url, error, True, fragment, others)

    def _reference(
        self, reference: str
    ) -> tuple[URL | None, URLSyntaxError | None, str, str | None]:
        hash_at = reference.find(_HASH)
        url_text = reference if hash_at < 0 else reference[:hash_at]
        fragment = None if hash_at < 0 else reference[hash_at + 1 :]
        try:
            url, _ = parse_reference(reference, grammar=self.grammar, host_checks=self.host_checks)
        except URLSyntaxError as error:
            return None, error, url_text, fragment
        return url, None, url_text, fragment

    # ---- bare URLs ----

    def _bare(self, position: int, limit: int) -> tuple[Found | None, int] | None:
        """The next bare URL candidate before ``limit``: what was found and where to go on."""
        text = self.text
        match = self.starts.search(text, position, limit)
        if match is None:
            return None
        start = match.start()
        if start > 0 and text[start - 1] in self.scheme_chars:
            return None, start + 1
        end = self._run_end(start, limit)
        end = _without_trailing(text, start, end)
        url_text = text[start:end]
        try:
            url = self.grammar.parse(url_text, host_checks=self.host_checks)
        except URLSyntaxError:
            return None, max(end, match.end())
        fragment = None
        if end < limit and text[end] == _HASH:
            fragment_end = _without_trailing(text, end + 1, self._run_end(end + 1, limit))
            candidate = text[end + 1 : fragment_end]
            if check_fragment(candidate) is None:
                fragment, end = candidate, fragment_end
        return Found(start, end, url_text, url, None, False, fragment), end

    def _run_end(self, start: int, limit: int) -> int:
        """Where the run of characters a URL may hold that begins at ``start`` ends."""
        match = self.url_run.match(self.text, start, limit)
        return start if match is None else match.end()


def _without_trailing(text: str, start: int, end: int) -> int:
    """``end`` moved back over sentence punctuation and unbalanced ``)``."""
    unbalanced = text.count(")", start, end) - text.count("(", start, end)
    while end > start:
        last = text[end - 1]
        if last in TRAILING:
            end -= 1
        elif last == ")" and unbalanced > 0:
            end -= 1
            unbalanced -= 1
        else:
            break
    return end


def _readings(inner: str, prefix: int) -> list[str]:
    """``inner`` without whitespace and the first ``prefix`` characters, every hyphen reading.

    The first reading keeps every hyphen; then the readings dropping one,
    two, ... of the hyphens that come right before a line break.
    """
    # Alternate: text, whitespace, text, whitespace, ..., text.
    parts = ["".join(run) for _, run in itertools.groupby(inner.strip(), str.isspace)]
    pieces: list[str] = parts[0::2]
    gaps: list[str] = parts[1::2]
    breaks = [
        i
        for i, gap in enumerate(gaps)
        if pieces[i].endswith("-") and "".join(gap.splitlines()) != gap
    ][:MAX_HYPHEN_BREAKS]
    readings: list[str] = []
    for count in range(len(breaks) + 1):
        for dropped in itertools.combinations(breaks, count):
            kept = [piece[:-1] if i in dropped else piece for i, piece in enumerate(pieces)]
            readings.append("".join(kept)[prefix:])
    return readings


def _chars(grammar: Grammar, kind: str, file: str, name: str) -> frozenset[str]:
    """A character set of ``grammar`` (the shipped grammar's where it has no such set).

    A grammar that does not define RFC 1738's ``XCHAR`` or ``scheme`` (the
    1994 W3 grammar) is searched with the shipped grammar's sets.
    """
    for source in (grammar, shipped()):
        try:
            if kind == "rule":
                return source.rule_chars(file, name)
            return source.terminal_chars(file, name)
        except GrammarError:
            continue
    raise GrammarError(f"no {kind} {name} in {file}.lark")


@cache
def _url_run(xchar: frozenset[str]) -> re.Pattern[str]:
    """A run of what a bare URL may hold: ``xchar``'s single characters, and ``%``.

    ``%`` begins an escape (``escape = "%" hex hex``); whether one is
    complete is for the parser to say.
    """
    chars = sorted(xchar | {_ESCAPE_START})
    return re.compile("(?:" + "|".join(re.escape(c) for c in chars) + ")*+")


@cache
def _scheme_starts(schemes: frozenset[str]) -> re.Pattern[str]:
    names = "|".join(re.escape(name) for name in sorted(schemes, key=lambda s: (-len(s), s)))
    return re.compile(f"(?:{names}):", re.IGNORECASE)
