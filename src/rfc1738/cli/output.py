"""What the commands share: exit statuses and the JSON records they write."""

from __future__ import annotations

import json
from typing import TextIO

from ..errors import URLSyntaxError
from ..parse.parsers import ParserName
from ..urls import Grammar
from ..urls.records import json_value

__all__ = [
    "INVALID",
    "OK",
    "USAGE",
    "error_dict",
    "error_json",
    "plural",
    "result_dict",
    "write_json",
]

#: Exit statuses.
OK, INVALID, USAGE = 0, 1, 2


def result_dict(
    grammar: Grammar, text: str, *, parser: ParserName = "fast", host_checks: bool = True
) -> dict[str, object]:
    """``text``, whether it is valid, and its fields (:meth:`URL.to_dict`) or its error."""
    try:
        url = grammar.parse(text, parser=parser, host_checks=host_checks)
    except URLSyntaxError as error:
        return {"text": text, "valid": False, "error": error_dict(error)}
    return {"text": text, "valid": True} | url.to_dict()


def error_dict(error: URLSyntaxError) -> dict[str, object]:
    """Where a URL stops fitting its production, and why, as JSON-ready values."""
    return {
        "position": error.position,
        "expected": sorted(error.expected),
        "rule": error.rule,
        "reason": error.reason,
    }


def error_json(error: URLSyntaxError) -> str:
    """``json.dumps(error_dict(error))``, written without the dictionary."""
    # The details read once, as the error keeps them (the properties read them one by one).
    position, expected, rule, reason = error._resolved()
    if reason is None:  # the default wording, worded now
        reason = error.reason
    details = (expected, rule, reason)
    rest = _WRITTEN.get(details)
    if rest is None:
        rest = (
            f'"expected": {json_value(sorted(expected))}, "rule": {json_value(rule)}, '
            f'"reason": {json_value(reason)}}}'
        )
        if len(_WRITTEN) < _WRITTEN_KEPT and len(reason) <= _REASON_KEPT:
            _WRITTEN[details] = rest
    return f'{{"position": {position}, {rest}'


#: What follows the position, for the details written so far: errors of one
#: grammar come back with a few hundred sets of expected items, a few rules,
#: and reasons that mostly name a character or a production.
_WRITTEN: dict[tuple[frozenset[str], str | None, str], str] = {}
_WRITTEN_KEPT = 4096
_REASON_KEPT = 400


def write_json(data: object, out: TextIO, *, pretty: bool = False) -> None:
    """One JSON document on its own line(s); non-ASCII and lone surrogates as escapes."""
    out.write(json.dumps(data, ensure_ascii=True, indent=2 if pretty else None) + "\n")


def plural(count: int, noun: str) -> str:
    """``1 line``, ``2 lines``, ``0 lines``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
