"""Turn a bare grammar error into one that says what is wrong in RFC terms.

The parsers report where a URL stops fitting its production and what the
grammar allowed there. Two cases deserve plainer words: a character that no
URL may hold unencoded (section 2.2), and a URL of a predefined scheme that
only the generic production would accept (``http://user@host/``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import URLSyntaxError
from .spans import Spans

__all__ = ["GENERIC_READS", "at_escape_start", "explain_characters", "explain_scheme"]

#: The productions of a generic URL that :func:`explain_scheme` reads.
GENERIC_READS = frozenset({"user", "ip_schemepart"})


def at_escape_start(error: URLSyntaxError, hex_chars: frozenset[str]) -> URLSyntaxError:
    """The error moved back to the ``%`` of an escape it falls inside.

    An escape (``"%" hex hex``) is one token: ``http://h/%4x`` is wrong at
    the ``%``, whichever way the position was found (the reference parser's
    tokens, the prefix search's characters, a literal such as ``"%09"``).
    """
    text, position = error.text, error.position
    for start in (position - 1, position - 2):
        if start >= 0 and text[start] == "%" and set(text[start + 1 : position]) <= hex_chars:
            return URLSyntaxError(text, start, error.expected, error.rule)
    return error


def explain_characters(
    error: URLSyntaxError, raw_chars: frozenset[str], hex_chars: frozenset[str]
) -> URLSyntaxError:
    """Say so when the character at the error may never appear as itself.

    ``raw_chars`` are the characters some production lets stand for
    themselves (the grammar's ``xchar`` minus its escapes), ``hex_chars`` the
    digits of an escape. Without ``raw_chars`` (a grammar that has no
    ``XCHAR``) the error is left as it is.
    """
    text, position = error.text, error.position
    if not raw_chars or position >= len(text) or text[position] in raw_chars:
        return error
    char = text[position]
    if char == "%":
        if (
            all(c in hex_chars for c in text[position + 1 : position + 3])
            and len(text[position + 1 : position + 3]) == 2
        ):
            return error
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
    return URLSyntaxError(text, position, error.expected, error.rule, reason)


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


def explain_scheme(
    error: URLSyntaxError,
    start: str,
    section: str | None,
    allows_login: bool,
    generic_spans: Callable[[], Spans | None],
) -> URLSyntaxError:
    """Name the scheme's production when the generic one would have taken the URL.

    Only where the generic production reads the URL as ``//login/urlpath``
    (an opaque ``*xchar`` schemepart takes nearly anything, so saying it
    would is no help).

    ``generic_spans`` parses the text with ``genericurl`` (only called when
    needed): the spans of :data:`GENERIC_READS` at least, or ``None``;
    section 5 defines each predefined scheme by its own production, and the
    generic one does not rescue a URL that breaks it.
    """
    spans = generic_spans()
    if spans is None:
        return error
    where = f"{start} (RFC 1738 section {section})" if section else start
    if not allows_login and "user" in spans:
        reason = f"{where} allows no user name or password"
        return URLSyntaxError(error.text, error.position, error.expected, start, reason)
    if "ip_schemepart" not in spans:
        return error
    reason = (
        f"{error.reason}; {where} is stricter here than the generic syntax, "
        "which would take this URL"
    )
    return URLSyntaxError(error.text, error.position, error.expected, error.rule, reason)
