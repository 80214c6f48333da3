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
from .ir import Alt, Chars, Group, Lit, Node, Rep, Seq

__all__ = ["matcher_data"]


def matcher_data(node: Node) -> dict[str, Any]:
    """The automaton of ``node`` (simplified), as :meth:`LinearMatcher.from_data` reads it.

    Groups are numbered as the regex writer opens them (from the left, an
    outer group before those inside it), and named by their production: the
    first that took part gives the production's span, as
    :func:`~rfc1738.runtime.spans.spans_from_regs` reads a match's.
    """
    builder = _Builder()
    match = builder.add(MATCH, None, ())
    start = builder.build(builder.numbered(node), match)
    return {"nodes": tuple(builder.nodes), "start": start, "groups": tuple(builder.groups)}


# The tree with each group numbered: ("chars", str), ("seq", items),
# ("alt", options), ("rep", item, low, high), ("group", number, item).
_Numbered = tuple[Any, ...]


class _Builder:
    def __init__(self) -> None:
        #: (kind, argument, ways on) per node, as the data holds them.
        self.nodes: list[tuple[str, Any, tuple[int, ...]]] = []
        #: The production of each group, by number.
        self.groups: list[str] = []

    def add(self, kind: str, argument: Any, outs: tuple[int, ...]) -> int:
        self.nodes.append((kind, argument, outs))
        return len(self.nodes) - 1

    def numbered(self, node: Node) -> _Numbered:
        """``node`` as tuples, its groups numbered from the left (as they open)."""
        if isinstance(node, Chars):
            return ("chars", "".join(sorted(node.chars)))
        if isinstance(node, Lit):
            return ("seq", tuple(("chars", _letters(c, node.ignore_case)) for c in node.text))
        if isinstance(node, Seq):
            return ("seq", tuple(self.numbered(item) for item in node.items))
        if isinstance(node, Alt):
            return ("alt", tuple(self.numbered(option) for option in node.options))
        if isinstance(node, Rep):
            return ("rep", self.numbered(node.item), node.low, node.high)
        if isinstance(node, Group):
            self.groups.append(node.name)
            number = len(self.groups) - 1
            return ("group", number, self.numbered(node.item))
        raise TypeError(f"no automaton for {node!r}")

    def build(self, node: _Numbered, then: int) -> int:
        """The node where ``node`` begins, going on to ``then`` where it ends."""
        kind = node[0]
        if kind == "chars":
            return self.add(CHAR, node[1], (then,))
        if kind == "seq":
            for item in reversed(node[1]):
                then = self.build(item, then)
            return then
        if kind == "alt":
            return self.add(SPLIT, None, tuple(self.build(o, then) for o in node[1]))
        if kind == "group":
            close = self.add(CLOSE, node[1], (then,))
            return self.add(OPEN, node[1], (self.build(node[2], close),))
        _, item, low, high = node
        if high is None:
            # x* as a choice that tries one more x first; x+ begins with that x.
            loop = self.add(SPLIT, None, ())
            body = self.build(item, loop)
            self.nodes[loop] = (SPLIT, None, (body, then))
            entry = loop if low == 0 else body
            low = max(0, low - 1)
        else:
            # x{2,4} as x x [x [x]]: each optional copy tried before going on.
            entry = then
            for _count in range(high - low):
                entry = self.add(SPLIT, None, (self.build(item, entry), then))
        for _count in range(low):
            entry = self.build(item, entry)
        return entry


def _letters(char: str, ignore_case: bool) -> str:
    # ASCII letters only, as the regex writer spells "..."i.
    if ignore_case and char.isascii() and char.isalpha():
        return "".join(sorted({char.lower(), char.upper()}))
    return char
