"""The linear matcher's automaton, built from the IR: Thompson's construction, choices in order.

:func:`matcher_data` takes the simplified tree of a start rule (what
:mod:`rfc1738.compile.emit` writes) and gives the automaton
:class:`~rfc1738.runtime.linear.LinearMatcher` runs, as plain data: a node per
character set, per choice, per group boundary, and one where the text may end.
A choice lists its ways on in the order a backtracking matcher tries them
(the options of an alternative as written, another iteration of a repetition
before leaving it), so that the matcher can find the match Python's ``re``
would find, with the same groups, without trying ways that fail.

Run once per grammar (or when the wheel is built); imports no Lark.
"""

from __future__ import annotations

from typing import Any

from ..runtime.linear import CHAR, CLOSE, MATCH, OPEN, SPLIT
from ..runtime.visit import Visitor
from .ir import Alt, Chars, Group, Lit, Node, NodeVisitor, Rep, Seq, folded

__all__ = ["matcher_data"]


def matcher_data(node: Node) -> dict[str, Any]:
    """The automaton of ``node`` (simplified), as :meth:`LinearMatcher.from_data` reads it.

    Groups are numbered as the regex writer opens them (from the left, an
    outer group before those inside it), and named by their production: the
    first that took part gives the production's span, as
    :func:`~rfc1738.runtime.spans.spans_from_regs` reads a match's.
    """
    numbering = _Numbering()
    builder = _Builder()
    match = builder.add(MATCH, None, ())
    start = builder.visit(numbering.visit(node), match)
    return {"nodes": tuple(builder.nodes), "start": start, "groups": tuple(numbering.groups)}


# The tree with each group numbered: ("chars", str), ("seq", items),
# ("alt", options), ("rep", item, low, high), ("group", number, item).
_Numbered = tuple[Any, ...]


class _Numbering(NodeVisitor[_Numbered]):
    """A node as tuples, its groups numbered from the left (as they open)."""

    def __init__(self) -> None:
        #: The production of each group, by number.
        self.groups: list[str] = []

    def visit_chars(self, node: Chars) -> _Numbered:
        return ("chars", "".join(sorted(node.chars)))

    def visit_lit(self, node: Lit) -> _Numbered:
        # ASCII letters only, as the regex writer spells "..."i.
        letters = ("".join(sorted(folded(c, node.ignore_case))) for c in node.text)
        return ("seq", tuple(("chars", chars) for chars in letters))

    def visit_seq(self, node: Seq) -> _Numbered:
        return ("seq", tuple(self.visit(item) for item in node.items))

    def visit_alt(self, node: Alt) -> _Numbered:
        return ("alt", tuple(self.visit(option) for option in node.options))

    def visit_rep(self, node: Rep) -> _Numbered:
        return ("rep", self.visit(node.item), node.low, node.high)

    def visit_group(self, node: Group) -> _Numbered:
        self.groups.append(node.name)
        number = len(self.groups) - 1
        return ("group", number, self.visit(node.item))

    def generic_visit(self, node: Node, *context: Any) -> _Numbered:
        raise TypeError(f"no automaton for {node!r}")


class _Builder(Visitor[int]):
    """The automaton's nodes: ``visit`` gives where a numbered node begins, given its way on."""

    def __init__(self) -> None:
        #: (kind, argument, ways on) per node, as the data holds them.
        self.nodes: list[tuple[str, Any, tuple[int, ...]]] = []

    def add(self, kind: str, argument: Any, outs: tuple[int, ...]) -> int:
        self.nodes.append((kind, argument, outs))
        return len(self.nodes) - 1

    def visit_chars(self, node: _Numbered, then: int) -> int:
        return self.add(CHAR, node[1], (then,))

    def visit_seq(self, node: _Numbered, then: int) -> int:
        for item in reversed(node[1]):
            then = self.visit(item, then)
        return then

    def visit_alt(self, node: _Numbered, then: int) -> int:
        return self.add(SPLIT, None, tuple(self.visit(o, then) for o in node[1]))

    def visit_group(self, node: _Numbered, then: int) -> int:
        close = self.add(CLOSE, node[1], (then,))
        return self.add(OPEN, node[1], (self.visit(node[2], close),))

    def visit_rep(self, node: _Numbered, then: int) -> int:
        _, item, low, high = node
        if high is None:
            # x* as a choice that tries one more x first; x+ begins with that x.
            loop = self.add(SPLIT, None, ())
            body = self.visit(item, loop)
            self.nodes[loop] = (SPLIT, None, (body, then))
            entry = loop if low == 0 else body
            low = max(0, low - 1)
        else:
            # x{2,4} as x x [x [x]]: each optional copy tried before going on.
            entry = then
            for _count in range(high - low):
                entry = self.add(SPLIT, None, (self.visit(item, entry), then))
        for _count in range(low):
            entry = self.visit(item, entry)
        return entry
