"""The reference parser: Lark's Earley parser over the grammar files as written.

It gives the full parse tree of a URL and the exact position of an error. Its
cost grows faster than linearly with the length of the input, so it refuses
input longer than :data:`MAX_REFERENCE_LENGTH` characters. Lark itself is
reached only through :mod:`rfc1738.bnf.adapter`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..bnf.adapter import EarleyError, EarleyParser, LoadFailed, ParseTree, earley_parser
from ..bnf.load_errors import grammar_error
from ..errors import MAX_REFERENCE_LENGTH, InputTooLongError, URLSyntaxError

__all__ = ["END", "MAX_REFERENCE_LENGTH", "ReferenceParser"]

#: How ``URLSyntaxError.expected`` names the end of the URL (Lark's name for it).
END = "$END"


class ReferenceParser:
    """Earley parsers for one grammar file, built on first use, one per start rule."""

    def __init__(self, path: Path, max_length: int = MAX_REFERENCE_LENGTH) -> None:
        self.path = path
        #: The longest input this parser accepts (see :data:`MAX_REFERENCE_LENGTH`).
        self.max_length = max_length
        self._parsers: dict[str, EarleyParser] = {}

    def earley(self, start: str) -> EarleyParser:
        """The Earley parser of this file for ``start`` (built once)."""
        parser = self._parsers.get(start)
        if parser is None:
            try:
                parser = earley_parser(self.path, start)
            except LoadFailed as failed:
                raise grammar_error(failed, self.path) from failed
            self._parsers[start] = parser
        return parser

    def lark(self, start: str) -> Any:
        """The Lark object of :meth:`earley` (for tools that take one, e.g. Hypothesis)."""
        return self.earley(start).lark

    def parse(self, text: str, start: str) -> ParseTree:
        """The parse tree of ``text`` under ``start``, or :class:`URLSyntaxError`."""
        if len(text) > self.max_length:
            raise InputTooLongError(
                text,
                self.max_length,
                rule=start,
                reason=(
                    f"the reference parser takes at most {self.max_length} characters "
                    f"and this URL has {len(text)}"
                ),
            )
        parser = self.earley(start)
        try:
            return parser.parse(text)
        except EarleyError as exc:
            error = URLSyntaxError(text, exc.position, exc.expected, exc.rule, exc.reason)
        if error.position < len(text) and parser.accepts(text[: error.position]):
            # Lark lists only the terminals that could come next; where the
            # URL could also have ended, say so.
            error = URLSyntaxError(text, error.position, error.expected | {END}, error.rule)
        raise error
