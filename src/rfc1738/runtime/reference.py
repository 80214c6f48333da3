"""The reference parser: Lark's Earley parser over the grammar files as written.

It gives the full parse tree of a URL and the exact position of an error. Its
cost grows faster than linearly with the length of the input, so it refuses
input longer than :data:`MAX_REFERENCE_LENGTH` characters, and stops a parse
that does more than :data:`MAX_REFERENCE_WORK` steps of Earley's work: both
with :class:`~rfc1738.InputTooLongError`. Lark itself is reached only through
:mod:`rfc1738.bnf.adapter`.
"""

from __future__ import annotations

from pathlib import Path
from threading import Lock
from typing import Any

from ..bnf.adapter import (
    EarleyBudgetExceeded,
    EarleyError,
    EarleyParser,
    LoadFailed,
    ParseTree,
    earley_parser,
)
from ..bnf.load_errors import grammar_error
from ..errors import END, MAX_REFERENCE_LENGTH, InputTooLongError, URLSyntaxError

__all__ = ["END", "MAX_REFERENCE_LENGTH", "MAX_REFERENCE_WORK", "ReferenceParser"]

#: The most work one parse may do, in Earley steps (an item made, or one gone
#: through: :class:`rfc1738.bnf.adapter.EarleyParser`). Earley's work is about
#: linear in the length of a URL the grammar reads one way, and cubic where
#: it reads it in many ways (gopher's ``%09``, which ``selector`` and
#: ``search`` may both hold): ``gopher://h/1`` and 678 ``%09`` took 113 s
#: before this bound. A deterministic count, not a clock: a URL parses or is
#: refused the same on every machine and under any load. docs/parsers.md
#: gives the figures it was chosen from.
MAX_REFERENCE_WORK = 2_000_000


class ReferenceParser:
    """Earley parsers for one grammar file, built on first use, one per start rule."""

    def __init__(
        self,
        path: Path,
        max_length: int = MAX_REFERENCE_LENGTH,
        max_work: int = MAX_REFERENCE_WORK,
    ) -> None:
        self.path = path
        #: The longest input this parser accepts (see :data:`MAX_REFERENCE_LENGTH`).
        self.max_length = max_length
        #: The most work one parse may do (see :data:`MAX_REFERENCE_WORK`).
        self.max_work = max_work
        self._parsers: dict[str, EarleyParser] = {}
        # Held while a parser is built (a second thread waits for it rather
        # than build its own); nothing else is waited for under it.
        self._building = Lock()

    def earley(self, start: str) -> EarleyParser:
        """The Earley parser of this file for ``start`` (built once)."""
        parser = self._parsers.get(start)
        if parser is None:
            with self._building:
                parser = self._parsers.get(start)
                if parser is None:
                    try:
                        parser = earley_parser(self.path, start, self.max_work)
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
        except EarleyBudgetExceeded as stopped:
            raise InputTooLongError(
                text,
                stopped.position,
                rule=start,
                reason=(
                    f"the reference parser stops after {stopped.budget:,} steps of work, and "
                    "the grammar reads this URL in too many ways to parse it within them"
                ),
            ) from None
        if error.position < len(text) and self._accepts(parser, text[: error.position]):
            # Lark lists only the terminals that could come next; where the
            # URL could also have ended, say so.
            error = URLSyntaxError(text, error.position, error.expected | {END}, error.rule)
        raise error

    @staticmethod
    def _accepts(parser: EarleyParser, text: str) -> bool:
        """Whether ``text`` parses; ``False`` where that cannot be told within the budget."""
        try:
            return parser.accepts(text)
        except EarleyBudgetExceeded:
            return False
