"""Where each production matched: the common currency of the two parsers.

Both the reference (Earley) parser and the fast (regular expression) parser
report a match as a mapping from production name to the ``(start, end)`` slice
of the text it covered, for the productions that become object fields. The
object builder reads only this mapping, so a URL gives the same object
whichever parser read it.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # Only the reference parser's trees need Lark: the fast parser, the
    # objects and a generated standalone module use this module without it.
    from ..bnf.adapter import ParseTree

__all__ = ["Groups", "Spans", "spans_from_regs", "spans_from_tree"]

#: Production name → ``(start, end)`` of its first match in the text.
Spans = dict[str, tuple[int, int]]

#: Per production, the numbers of the groups of an expression that may hold it
#: (a production reached along several alternatives has one group each).
Groups = tuple[tuple[str, tuple[int, ...]], ...]


def spans_from_regs(regs: tuple[tuple[int, int], ...], groups: Groups) -> Spans:
    """The spans of a regular expression match: per production, its first group that matched.

    ``regs`` are the match's registers (``re.Match.regs``); ``groups`` the
    numbers of the groups that may hold each production.
    """
    spans: Spans = {}
    for name, numbers in groups:
        for number in numbers:
            span = regs[number]
            if span[0] >= 0:
                spans[name] = span
                break
    return spans


def spans_from_tree(tree: ParseTree, wanted: Collection[str]) -> Spans:
    """The span of the first node of each ``wanted`` production in ``tree``.

    ``tree`` is the reference parser's; :func:`rfc1738.bnf.adapter.tree_spans`
    reads it.
    """
    from ..bnf.adapter import tree_spans  # Lark: only the reference parser's trees need it

    return tree_spans(tree, wanted)
