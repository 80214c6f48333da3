"""Errors in RFC terms: where a rejected URL stops fitting, what was expected there, and why.

The engines (:mod:`.engines`) know at once that a string is not a URL; the
:class:`Explainer` of a grammar directory works out the error when it is
first read: its position, what was expected and the production, from the
scheme's error automaton where the grammar has one, else from Earley, or,
beyond Earley's bound, from where the longest viable prefix ends. Two cases
then deserve plainer words: a character that no URL may hold unencoded
(section 2.2), and a URL of a predefined scheme that only the generic
production would accept (``http://user@host/``).

Each of those steps works on an error's :data:`Details` (the explainer
explains an error found by the automaton before making the one error it
gives).
"""

from __future__ import annotations

import re

# _thread's RLock is threading's, without importing threading at start-up.
from _thread import RLock
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..bnf.files import GENERIC, SchemeFile
from ..errors import InputTooLongError, URLSyntaxError
from .automaton import ErrorAutomaton
from .facts import SCHEME_FACTS
from .possessive import compile_expression
from .spans import Spans, spans_from_regs

if TYPE_CHECKING:
    from .dispatch import Dispatch

__all__ = [
    "GENERIC_READS",
    "Details",
    "Explainer",
    "details_of",
    "escape_start",
    "explained_characters",
    "explained_scheme",
    "longest_viable_prefix",
]

#: The productions of a generic URL that :func:`explained_scheme` reads.
GENERIC_READS = frozenset({"user", "ip_schemepart"})

#: An error's ``(position, expected, rule, reason)``, as :class:`~rfc1738.URLSyntaxError`
#: takes them after its text; a ``reason`` of ``None`` is the default wording.
Details = tuple[int, frozenset[str], str | None, str | None]


class Explainer:
    """The errors of one grammar directory's URLs, worked out when first read.

    Made by its :class:`~rfc1738.runtime.dispatch.Dispatch`, whose scheme
    tables, engines and Earley parsers it reads. What it builds on first use
    (a scheme's error automaton and prefix expression, the characters of
    section 2.2, how a generic URL is read) is built once, under the
    dispatch's lock.
    """

    def __init__(self, dispatch: Dispatch, lock: RLock) -> None:
        self._dispatch = dispatch
        self._building = lock
        # Per scheme, the error automaton, or None where the grammar has none.
        self._automata: dict[str, ErrorAutomaton | None] = {}
        self._prefixes: dict[str, re.Pattern[str]] = {}
        self._characters: tuple[frozenset[str], frozenset[str]] | None = None
        # The spans of GENERIC_READS of a text read as a generic URL (see _generic_reader).
        self._generic_reading: Callable[[str], Spans | None] | None = None
        # The characters a generic URL may hold (see _generic_alphabet).
        self._generic_characters: frozenset[str] | None = None

    def deferred(self, text: str, entry: SchemeFile) -> URLSyntaxError:
        """The error for a text ``entry``'s engine rejected, worked out when first read.

        A method of its own, so that :meth:`rfc1738.Grammar.parse` holds no
        closure: its variables stay plain locals on the hot path.
        """
        return URLSyntaxError.deferred(text, lambda: self.error(text, entry))

    def error(self, text: str, entry: SchemeFile) -> URLSyntaxError:
        """The error for a text ``entry``'s engine rejected, as exact as the reference's.

        From the error automaton where the grammar has one; otherwise from
        Earley, or beyond its bound from the prefix search.
        """
        found = self.rejection(text, entry)
        if found is not None:
            return found
        try:
            self._dispatch.reference_parser(entry.scheme).parse(text, entry.start)
        except InputTooLongError as too_long:
            error = self._prefix_error(text, entry)
            return too_long if error is None else self._explained(error, entry)
        except URLSyntaxError as error:
            return self._explained(error, entry)
        raise AssertionError(  # pragma: no cover - the equivalence tests guard this
            f"the fast parser rejected {text!r}, which the reference parser accepts"
        )

    def earley_error(self, error: URLSyntaxError, entry: SchemeFile) -> URLSyntaxError:
        """Earley's ``error``, with the automaton's details where the grammar has one.

        So that both parsers report an error alike (docs/parsers.md, "Errors").
        """
        automaton = self.automaton(entry.scheme)
        found = None if automaton is None else automaton.error(error.text)
        # Its reason is None (the default wording) or a sentence, as URLSyntaxError keeps it.
        return self._explained(
            error if found is None else URLSyntaxError(error.text, *found), entry
        )

    def rejection(self, text: str, entry: SchemeFile) -> URLSyntaxError | None:
        """The explained error for ``text`` where the scheme's automaton rejects it, else ``None``.

        ``None`` also where the grammar has no automaton. The automaton
        rejects what the compiled expression rejects (the tests hold them to
        each other), so a rejection here is the error ``parse`` raises.
        """
        automaton = self._automata.get(entry.scheme)
        if automaton is None:  # not loaded yet, or none
            automaton = self.automaton(entry.scheme)
            if automaton is None:
                return None
        found = automaton.error(text)
        if found is None:
            return None
        # Explained on its details: one error made, not one per step.
        return URLSyntaxError._of(text, self._details(text, found, entry))

    def automaton(self, scheme: str) -> ErrorAutomaton | None:
        """The error automaton of one scheme's start rule (``None`` if the grammar has none).

        Loaded from the scheme's table on first use. A grammar that is not
        regular, or has a token the automaton cannot mirror Earley on, has
        none: Earley explains its errors.
        """
        if scheme in self._automata:
            return self._automata[scheme]
        with self._building:
            if scheme not in self._automata:
                data = self._dispatch.table(scheme).automaton
                self._automata[scheme] = None if data is None else ErrorAutomaton.from_data(data)
            return self._automata[scheme]

    def _prefix_error(self, text: str, entry: SchemeFile) -> URLSyntaxError | None:
        """The error for a string too long for Earley: where its longest viable prefix ends.

        A prefix is viable if some URL of the production begins with it. The
        scheme's linear matcher, where it has one, reads the text once to
        where it stops fitting; otherwise, as the prefixes of a viable prefix
        are viable too, a binary search over lengths finds the position in a
        logarithmic number of matches of the prefix expression
        (:func:`longest_viable_prefix`). What was expected there is not
        computed (``expected`` is empty); the production named is the start
        rule. ``None`` for a grammar that is not regular: it has no prefix
        expression.
        """
        matcher = self._dispatch.engine(entry.scheme).matcher
        if matcher is not None:  # in linear time, whatever the grammar
            return URLSyntaxError(text, matcher.viable_prefix(text), frozenset(), entry.start)
        pattern = self._prefixes.get(entry.scheme)
        if pattern is None:
            table = self._dispatch.table(entry.scheme)
            if table.prefixes is None:
                return None
            # A pure value: a thread that compiles it at the same time keeps its own.
            compiled = compile_expression(table.prefixes, table.prefixes_forms)
            pattern = self._prefixes.setdefault(entry.scheme, compiled)
        return URLSyntaxError(text, longest_viable_prefix(pattern, text), frozenset(), entry.start)

    def _explained(self, error: URLSyntaxError, entry: SchemeFile) -> URLSyntaxError:
        before = details_of(error)
        return _as_error(error, before, self._details(error.text, before, entry))

    def _details(self, text: str, details: Details, entry: SchemeFile) -> Details:
        """An error's details in RFC terms (see above): the same object if unchanged."""
        raw, hexes = self._characters or self._raw_characters()
        details = explained_characters(text, escape_start(text, details, hexes), raw, hexes)
        if entry.scheme == GENERIC:
            return details
        position = details[0]
        alphabet = self._generic_characters
        if alphabet is None:
            alphabet = self._generic_alphabet()
        if alphabet and position < len(text) and text[position] not in alphabet:
            # No generic URL holds that character: explained_scheme has nothing
            # to say, and the generic expression need not be matched to know it.
            return details
        facts = SCHEME_FACTS.get(entry.scheme)
        return explained_scheme(
            text,
            details,
            entry.start,
            facts.section if facts else None,
            facts.login if facts else True,
            (self._generic_reading or self._generic_reader())(text),
        )

    def _generic_alphabet(self) -> frozenset[str]:
        """The characters a generic URL may hold (its automaton's); empty: unknown, no automaton."""
        data = None if GENERIC in self._automata else self._dispatch.table(GENERIC).automaton
        if data is not None:  # its tables, not loaded yet: read them without loading
            alphabet = ErrorAutomaton.data_alphabet(data)
        else:
            automaton = self.automaton(GENERIC)
            alphabet = frozenset() if automaton is None else automaton.alphabet()
        self._generic_characters = alphabet
        return alphabet

    def _generic_reader(self) -> Callable[[str], Spans | None]:
        """The spans of :data:`GENERIC_READS` where a text is a generic URL, else ``None``.

        Made on first use: from the generic file's compiled expression where
        its match builds the generic class's objects (only those groups:
        fewer, so faster); otherwise the spans the generic scheme's engine reads.
        """
        engine = self._dispatch.engine(GENERIC)
        reading = engine.spans
        fullmatch = engine.fullmatch
        if fullmatch is not None:
            fields = tuple(field for field in engine.fields if field[0] in GENERIC_READS)

            def read(text: str) -> Spans | None:
                match = fullmatch(text)
                return None if match is None else spans_from_regs(match.regs, fields)

            reading = read
        self._generic_reading = reading
        return reading

    def _raw_characters(self) -> tuple[frozenset[str], frozenset[str]]:
        """The characters any URL may hold as themselves, and the hex digits."""
        if self._characters is None:
            with self._building:
                if self._characters is None:
                    tables = self._dispatch.tables
                    xchar = tables.char_set("common", "terminal", "XCHAR")
                    hexes = tables.char_set("common", "terminal", "HEX")
                    # A grammar without RFC 1738's XCHAR and HEX (the W3 grammar):
                    # its errors are left as the parser reported them.
                    self._characters = (xchar or frozenset(), hexes or frozenset())
        return self._characters


def longest_viable_prefix(prefixes: re.Pattern[str], text: str) -> int:
    """The length of the longest prefix of ``text`` that ``prefixes`` matches.

    ``prefixes`` matches every prefix of a language (see
    :meth:`rfc1738.compile.pipeline.CompiledFile.compile_prefixes`); a prefix of a
    viable prefix is viable too, so bisection over lengths finds the end in
    a logarithmic number of matches. That end is where a rejected string
    stops fitting.

    >>> longest_viable_prefix(re.compile("(?:a(?:b(?:c)?)?)?"), "abx")
    2
    """
    viable, beyond = 0, len(text) + 1
    while beyond - viable > 1:
        middle = (viable + beyond) // 2
        if prefixes.fullmatch(text, 0, middle):
            viable = middle
        else:
            beyond = middle
    return viable


def details_of(error: URLSyntaxError) -> Details:
    """The details of ``error``, its reason ``None`` where it is the default wording."""
    return error._resolved()  # the error keeps its details as this tuple


def _as_error(error: URLSyntaxError, before: Details, after: Details) -> URLSyntaxError:
    """``error`` itself if its details did not change, else a new error with ``after``."""
    return error if after is before else URLSyntaxError._of(error.text, after)


def escape_start(text: str, details: Details, hex_chars: frozenset[str]) -> Details:
    """The details moved back to the ``%`` of an escape the position falls inside.

    An escape (``"%" hex hex``) is one token: ``http://h/%4x`` is wrong at
    the ``%``, whichever way the position was found (the reference parser's
    tokens, the prefix search's characters, a literal such as ``"%09"``).
    Moved, the reason is the default wording. The same object when not moved.
    """
    position, expected, rule, _reason = details
    if "%" not in text[max(position - 2, 0) : position]:  # the usual case, found at once
        return details
    for start in (position - 1, position - 2):
        if start >= 0 and text[start] == "%" and set(text[start + 1 : position]) <= hex_chars:
            return start, expected, rule, None
    return details


def explained_characters(
    text: str, details: Details, raw_chars: frozenset[str], hex_chars: frozenset[str]
) -> Details:
    """Say so when the character at the error may never appear as itself.

    ``raw_chars`` are the characters some production lets stand for
    themselves (the grammar's ``xchar`` minus its escapes), ``hex_chars`` the
    digits of an escape. Without ``raw_chars`` (a grammar that has no
    ``XCHAR``) the details are left as they are (the same object, as when
    there is nothing to say).
    """
    position, expected, rule, _reason = details
    if not raw_chars or position >= len(text) or text[position] in raw_chars:
        return details
    char = text[position]
    if char == "%":
        if (
            all(c in hex_chars for c in text[position + 1 : position + 3])
            and len(text[position + 1 : position + 3]) == 2
        ):
            return details
        reason = (
            "'%' must begin an escape: '%' and two hex digits (RFC 1738 section 2.2); "
            "a '%' that stands for itself is written %25"
        )
    elif char == "#":
        # Section 2.2 lists '#' as unsafe because it delimits a fragment
        # identifier, which "is not considered part of the URL" (section 2.2);
        # RFC 1738's grammar has no fragment.
        reason = (
            "'#' begins a fragment identifier, which is not part of an RFC 1738 URL "
            "(section 2.2); write '#' in a URL as %23, or parse URL#fragment with "
            "rfc1738.parse_reference"
        )
    else:
        reason = _NOT_ALLOWED.get(char) or _not_allowed(char)
    return position, expected, rule, reason


def _not_allowed(char: str) -> str:
    reason = (
        f"character {char!r} (U+{ord(char):04X}) is not allowed in a URL: it must be "
        "percent-encoded (RFC 1738 section 2.2)"
    )
    if len(_NOT_ALLOWED) < _NOT_ALLOWED_KEPT:
        _NOT_ALLOWED[char] = reason
    return reason


#: The reasons worded so far for a character no URL may hold (the same few come back).
_NOT_ALLOWED: dict[str, str] = {}
_NOT_ALLOWED_KEPT = 1024


def explained_scheme(
    text: str,
    details: Details,
    start: str,
    section: str | None,
    allows_login: bool,
    generic_spans: Spans | None,
) -> Details:
    """Name the scheme's production when the generic one would have taken the URL.

    Only where the generic production reads the URL as ``//login/urlpath``
    (an opaque ``*xchar`` schemepart takes nearly anything, so saying it
    would is no help). The same object when there is nothing to say.

    ``generic_spans`` are those of the text parsed with ``genericurl``: the
    spans of :data:`GENERIC_READS` at least, or ``None`` where it is no
    generic URL; section 5 defines each predefined scheme by its own
    production, and the generic one does not rescue a URL that breaks it.
    """
    spans = generic_spans
    if spans is None:
        return details
    position, expected, rule, reason = details
    where, no_login = _scheme_words(start, section)
    if not allows_login and "user" in spans:
        return position, expected, start, no_login
    if "ip_schemepart" not in spans:
        return details
    if reason is None:
        reason = URLSyntaxError(text, *details).reason  # the default wording
    return (
        position,
        expected,
        rule,
        f"{reason}; {where} is stricter here than the generic syntax, which would take this URL",
    )


def _scheme_words(start: str, section: str | None) -> tuple[str, str]:
    """How a message names a scheme's production, and says it takes no login; kept per scheme."""
    words = _SCHEME_WORDS.get((start, section))
    if words is None:
        where = f"{start} (RFC 1738 section {section})" if section else start
        words = (where, f"{where} allows no user name or password")
        if len(_SCHEME_WORDS) < _SCHEME_WORDS_KEPT:
            _SCHEME_WORDS[start, section] = words
    return words


#: The words of :func:`_scheme_words` so far: one pair per start rule of a grammar.
_SCHEME_WORDS: dict[tuple[str, str | None], tuple[str, str]] = {}
_SCHEME_WORDS_KEPT = 256
