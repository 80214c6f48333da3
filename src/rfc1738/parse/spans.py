"""Where each production matched: the common currency of the two parsers.

Both the reference (Earley) parser and the fast (regular expression) parser
report a match as a mapping from production name to the ``(start, end)`` slice
of the text it covered, for the productions that become object fields. The
object builder reads only this mapping, so a URL gives the same object
whichever parser read it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import TYPE_CHECKING

from ..bnf.names import base_name

if TYPE_CHECKING:
    # Only the reference parser's trees need Lark: the fast parser, the
    # objects and a generated standalone module use this module without it.
    from lark import Token, Tree

__all__ = ["Spans", "spans_from_regs", "spans_from_tree"]

#: Production name → ``(start, end)`` of its first match in the text.
Spans = dict[str, tuple[int, int]]


def spans_from_regs(
    regs: tuple[tuple[int, int], ...], groups: tuple[tuple[str, tuple[int, ...]], ...]
) -> Spans:
    """The spans of a regular expression match: per production, its first group that matched.

    ``regs`` are the match's registers (``re.Match.regs``); ``groups`` the
    numbers of the groups that may hold each production (a production
    reached along several alternatives has one group each).
    """
    spans: Spans = {}
    for name, numbers in groups:
        for number in numbers:
            span = regs[number]
            if span[0] >= 0:
                spans[name] = span
                break
    return spans


def spans_from_tree(tree: Tree[Token], wanted: Collection[str]) -> Spans:
    """The span of the first node of each ``wanted`` production in ``tree``.

    Nodes that matched the empty string carry no position in Lark; they get
    the position where the previous token ended, found by walking the tree in
    order (the tree keeps every token).
    """
    from lark import Token

    spans: Spans = {}
    cursor = 0
    for node in _in_order(tree):
        if isinstance(node, Token):
            if node.end_pos is not None:
                cursor = node.end_pos
            continue
        name = base_name(str(node.data))
        if name in wanted and name not in spans:
            if node.meta.empty:
                spans[name] = (cursor, cursor)
            else:
                spans[name] = (node.meta.start_pos, node.meta.end_pos)
    return spans


def _in_order(tree: Tree[Token]) -> Iterator[Tree[Token] | Token]:
    from lark import Tree

    stack: list[Tree[Token] | Token] = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, Tree):
            stack.extend(reversed(node.children))
