"""``rfc1738 find [FILE|-]``: the URLs in a text, one JSON object each.

The text is read whole, as UTF-8; bytes that are not UTF-8 become lone
surrogates (``surrogateescape``), which no URL holds: a delimited URL that
holds one is invalid, with an error that names the byte
(:func:`~.output.not_utf8_dict`). Spans count characters of the decoded text.
"""

from __future__ import annotations

import argparse
import sys

from ..text.find import Found, find_urls
from ..urls import Grammar
from .output import INVALID, OK, USAGE, error_dict, not_utf8_dict, open_input, write_json

__all__ = ["find", "found_dict"]


def find(args: argparse.Namespace, grammar: Grammar) -> int:
    """Run ``rfc1738 find`` with the parsed arguments."""
    stream = open_input(args.file)
    if stream is None:
        return USAGE
    with stream:
        raw = stream.read()
    text = raw.decode("utf-8", "surrogateescape")
    status = OK
    line, counted = 1, 0
    for found in find_urls(text, grammar=grammar, host_checks=args.host_checks):
        line += text.count("\n", counted, found.start)
        counted = found.start
        write_json(found_dict(found, line), sys.stdout)
        if not found.valid:
            status = INVALID
    return status


def found_dict(found: Found, line: int | None = None) -> dict[str, object]:
    """What ``rfc1738 find`` prints for one URL found.

    ``span`` (start and end, brackets included), ``line`` (1-based, of the
    start), ``url`` as extracted, ``fragment``, ``delimited``,
    ``alternatives`` (the other readings of a line break after a hyphen),
    ``valid``, then the fields (:meth:`URL.to_dict`) or the ``error``.
    """
    result: dict[str, object] = {"span": [found.start, found.end]}
    if line is not None:
        result["line"] = line
    result |= {
        "url": found.url_text,
        "fragment": found.fragment,
        "delimited": found.delimited,
        "alternatives": list(found.alternatives),
        "valid": found.valid,
    }
    if found.url is not None:
        return result | found.url.to_dict()
    assert found.error is not None
    return result | {"error": not_utf8_dict(found.url_text) or error_dict(found.error)}
