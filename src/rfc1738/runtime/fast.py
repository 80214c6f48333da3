"""The fast parser: one compiled regular expression per scheme.

The expression comes from :mod:`rfc1738.compile.pipeline`, so it accepts exactly what
the grammar files accept; its named groups give the spans of the productions
the object builder reads.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from .possessive import compile_expression
from .spans import Spans, spans_from_regs

if TYPE_CHECKING:
    from ..compile.pipeline import CompiledFile

__all__ = ["FastParser", "longest_viable_prefix"]


class FastParser:
    """Validate a URL and find its fields with one ``re.fullmatch``.

    >>> from rfc1738.bnf.files import shipped_grammar_dir
    >>> from rfc1738.compile.pipeline import CompiledFile
    >>> p = FastParser(CompiledFile(shipped_grammar_dir() / "nntp.lark"), "nntpurl", {"group"})
    >>> p.spans("nntp://news.example/comp.lang.c")
    {'group': (20, 31)}
    >>> p.spans("nntp://news.example/") is None
    True
    """

    __slots__ = ("checked", "fields", "pattern", "source")

    def __init__(
        self,
        grammar: CompiledFile,
        start: str,
        capture: Collection[str],
        checked: Collection[str] = (),
    ) -> None:
        self.source, groups = grammar.compile(start, {*capture, *checked})
        # In the form this Python matches right (CPython 3.11.0-3.11.4: see .possessive).
        self.pattern = compile_expression(self.source)
        #: Per captured production, the numbers of the groups that may hold it.
        self.fields = self._numbers(groups, capture)
        #: The same for the ``checked`` productions (the host checks').
        self.checked = self._numbers(groups, checked)

    def _numbers(
        self, groups: Mapping[str, tuple[str, ...]], names: Collection[str]
    ) -> tuple[tuple[str, tuple[int, ...]], ...]:
        # Per production, the numbers of the groups that may hold it: a
        # production reached along several alternatives has one group each.
        index = self.pattern.groupindex
        return tuple(
            (name, tuple(index[group] for group in groups[name]))
            for name in names
            if name in groups
        )

    def spans(self, text: str) -> Spans | None:
        """The spans of the captured productions, or ``None`` if ``text`` does not match."""
        match = self.pattern.fullmatch(text)
        return None if match is None else spans_from_regs(match.regs, self.fields)

    def checked_spans(self, text: str) -> Spans | None:
        """Like :meth:`spans`, for the ``checked`` productions only (fewer, so faster)."""
        match = self.pattern.fullmatch(text)
        return None if match is None else spans_from_regs(match.regs, self.checked)


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
