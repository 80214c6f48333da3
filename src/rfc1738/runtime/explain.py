"""Turn a bare grammar error into one that says what is wrong in RFC terms.

The parsers report where a URL stops fitting its production and what the
grammar allowed there. Two cases deserve plainer words: a character that no
URL may hold unencoded (section 2.2), and a URL of a predefined scheme that
only the generic production would accept (``http://user@host/``).

Each step works on an error's :data:`Details` (the parsers explain an error
found by the automaton before making the one error they give), and has a
form that takes and gives a :class:`~rfc1738.URLSyntaxError`.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import URLSyntaxError
from .spans import Spans

__all__ = [
    "GENERIC_READS",
    "Details",
    "at_escape_start",
    "details_of",
    "escape_start",
    "explain_characters",
    "explain_scheme",
    "explained_characters",
    "explained_scheme",
]

#: The productions of a generic URL that :func:`explain_scheme` reads.
GENERIC_READS = frozenset({"user", "ip_schemepart"})

#: An error's ``(position, expected, rule, reason)``, as :class:`~rfc1738.URLSyntaxError`
#: takes them after its text; a ``reason`` of ``None`` is the default wording.
Details = tuple[int, frozenset[str], str | None, str | None]


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


def at_escape_start(error: URLSyntaxError, hex_chars: frozenset[str]) -> URLSyntaxError:
    """The error moved back to the ``%`` of an escape it falls inside (:func:`escape_start`)."""
    before = details_of(error)
    return _as_error(error, before, escape_start(error.text, before, hex_chars))


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


def explain_characters(
    error: URLSyntaxError, raw_chars: frozenset[str], hex_chars: frozenset[str]
) -> URLSyntaxError:
    """The error, saying so when its character may never appear as itself
    (:func:`explained_characters`)."""
    before = details_of(error)
    return _as_error(error, before, explained_characters(error.text, before, raw_chars, hex_chars))


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


def explain_scheme(
    error: URLSyntaxError,
    start: str,
    section: str | None,
    allows_login: bool,
    generic_spans: Callable[[], Spans | None],
) -> URLSyntaxError:
    """The error, naming the scheme's production when the generic one would have
    taken the URL (:func:`explained_scheme`)."""
    before = details_of(error)
    after = explained_scheme(error.text, before, start, section, allows_login, generic_spans())
    return _as_error(error, before, after)
