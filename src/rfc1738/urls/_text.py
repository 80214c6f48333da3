"""Escapes (section 2.2) and the character sets they depend on.

Which characters stand for themselves in a field is read from the grammar
that parsed the URL (:meth:`rfc1738.Grammar.rule_chars`, on first use and once
per grammar) and passed in: nothing here lists URL characters by hand.

Decoding. An escape ``%XX`` stands for one octet; RFC 1738 says nothing of the
character set those octets are in. A decoded field is the octets read as
UTF-8 with ``errors="surrogateescape"``: ``%C3%A9`` is ``"é"``, and an octet
that is not part of valid UTF-8 (``%FF``) becomes a lone surrogate
(``"\\udcff"``), so no octet is lost and :func:`escape` writes it back as the
same ``%FF``.
"""

from __future__ import annotations

import re
from functools import cache
from urllib.parse import unquote_to_bytes

from ..runtime.numbers import decimal, digits, exceeds

__all__ = [
    "decimal",
    "decode",
    "digits",
    "escape",
    "escape_of",
    "exceeds",
    "normalize_escapes",
    "upper_hex",
]

#: How octets are read from, and written into, escapes.
ENCODING = "utf-8"
ERRORS = "surrogateescape"


def decode(raw: str) -> str:
    """``raw`` with its escapes decoded (see the module docstring).

    >>> decode("%2Fetc"), decode("caf%C3%A9"), decode("%FF")
    ('/etc', 'café', '\\udcff')
    """
    if "%" not in raw and raw.isascii():
        return raw  # no escape: ASCII characters as UTF-8 octets are those characters again
    return unquote_to_bytes(raw).decode(ENCODING, ERRORS)


def escape(value: str, safe: frozenset[str]) -> str:
    """``value`` written with every character outside ``safe`` escaped.

    The inverse of :func:`decode`: each such character becomes ``%XX`` for
    each octet of its UTF-8 form, hex in upper case. Raises ``ValueError``
    for a value no octets decode to (a lone surrogate that no octet stands for,
    or surrogate escapes of octets that read back as another character).

    >>> escape("/etc motd", frozenset("etcmod"))
    '%2Fetc%20motd'
    """
    out: list[str] = []
    for char in value:
        if char in safe:
            out.append(char)
            continue
        try:
            octets = char.encode(ENCODING, ERRORS)
        except UnicodeEncodeError:
            raise ValueError(
                f"character {char!r} (U+{ord(char):04X}) stands for no octets and "
                "cannot be written in a URL"
            ) from None
        out.extend(f"%{octet:02X}" for octet in octets)
    written = "".join(out)
    if decode(written) != value:
        raise ValueError(
            f"{value!r} cannot be written in a URL: its octets {written!r} read back "
            f"as {decode(written)!r}"
        )
    return written


def upper_hex(raw: str) -> str:
    """``raw`` with the hex digits of its escapes in upper case.

    >>> upper_hex("%2f%7e")
    '%2F%7E'
    """
    return normalize_escapes(raw, frozenset())


def normalize_escapes(
    raw: str, unreserved: frozenset[str], written: frozenset[str] | None = None
) -> str:
    """``raw`` with escapes of ``unreserved`` characters decoded, other escapes in upper case.

    ``raw`` is a field as the grammar accepted it, so every ``%`` in it starts
    an escape; ``unreserved`` are the characters that mean the same written
    as themselves or escaped there (:meth:`rfc1738.urls.Field.escape_sets`).
    With ``written``, a character of ``raw`` that is in neither set nor in
    ``written`` is escaped (a field a hook cuts out of the text may hold one
    its own production does not: gopher's search holds ``/``).

    >>> normalize_escapes("%7euser%2fx%41", frozenset("Aresu"))
    '%7Euser%2FxA'
    >>> normalize_escapes("a/b", frozenset("ab"), frozenset())
    'a%2Fb'
    """
    out: list[str] = []
    start = 0
    while (percent := raw.find("%", start)) >= 0:
        hex_digits = raw[percent + 1 : percent + 3]
        char = chr(int(hex_digits, 16))
        out.append(_escaped(raw[start:percent], unreserved, written))
        out.append(char if char in unreserved else "%" + hex_digits.upper())
        start = percent + 3
    out.append(_escaped(raw[start:], unreserved, written))
    return "".join(out)


def _escaped(text: str, kept: frozenset[str], written: frozenset[str] | None) -> str:
    """``text`` (no escapes in it) with each character in neither set escaped (``written``
    ``None``: as it is)."""
    if written is None:
        return text
    return "".join(c if c in kept or c in written else f"%{ord(c):02X}" for c in text)


def escape_of(raw: str, chars: frozenset[str]) -> str | None:
    """The first escape in ``raw`` that stands for one of ``chars``, as written; ``None`` if none.

    >>> escape_of("a%20b%2fc%2F", frozenset("/"))
    '%2f'
    """
    if not chars:
        return None
    found = _escapes_of(chars).search(raw)
    return None if found is None else found.group()


@cache
def _escapes_of(chars: frozenset[str]) -> re.Pattern[str]:
    """An expression that finds an escape of one of ``chars`` (hex in either case)."""
    return re.compile(
        "|".join(sorted(f"%{ord(char):02X}" for char in chars if ord(char) < 256)) or "(?!)",
        re.IGNORECASE,
    )
