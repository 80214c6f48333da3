"""Decimal numbers of any length: ports, ``hostnumber`` parts, article numbers.

The grammar lets a run of digits be as long as it likes; Python's ``int()``
refuses strings of more than 4300 digits, so these never hand it one.
"""

from __future__ import annotations

__all__ = ["DIGITS", "decimal", "digits", "exceeds"]

#: The decimal digits, in their order: what the numbers the host checks
#: compare are written in (the column plan's patterns of numbers above a limit).
DIGITS = "0123456789"

#: Digits converted at once by :func:`decimal`: Python's ``int()`` refuses a
#: string of more than 4300 digits (``sys.get_int_max_str_digits()``).
_CHUNK = 4000


def decimal(digits: str) -> int:
    """The value of a run of decimal digits, however long.

    ``digits`` (a ``port``, a ``hostnumber`` part, an article number) may
    be any length the grammar allows: ``ftp://h:0000…080/`` is port 80
    however many zeros it has.

    >>> decimal("0" * 10_000 + "80"), decimal("1" + "0" * 5000) == 10**5000
    (80, True)
    """
    significant = digits.lstrip("0") or "0"
    value = 0
    for start in range(0, len(significant), _CHUNK):
        chunk = significant[start : start + _CHUNK]
        value = value * 10 ** len(chunk) + int(chunk)
    return value


def exceeds(digits: str, limit: int) -> bool:
    """Whether the number ``digits`` writes is above ``limit`` (a long one is not converted).

    >>> exceeds("00065536", 65535), exceeds("9" * 100_000, 65535), exceeds("000", 0)
    (True, True, False)
    """
    significant = digits.lstrip("0")
    return len(significant) > len(str(limit)) or (bool(significant) and int(significant) > limit)


def digits(value: int) -> str:
    """The decimal digits of ``value`` (not negative), however many.

    >>> digits(10**5000) == "1" + "0" * 5000
    True
    """
    unit = 10**_CHUNK
    parts: list[str] = []
    while value >= unit:
        value, low = divmod(value, unit)
        parts.append(f"{low:0{_CHUNK}d}")
    parts.append(str(value))
    return "".join(reversed(parts))
