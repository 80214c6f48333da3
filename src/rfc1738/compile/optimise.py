"""The optimiser: an IR tree rewritten to the same language, in a shape that matches fast.

:func:`simplify` applies each rewrite below throughout the tree. Each keeps
what the tree matches (and what its captured productions capture), and makes
more repetitions ones the writer can make possessive
(:mod:`rfc1738.compile.emit`), so that the expressions run without
catastrophic backtracking and step once per run of plain characters.
"""

from __future__ import annotations

from itertools import product
from math import prod

from ..runtime.linear import LinearMatcher
from .ir import (
    Alt,
    Chars,
    End,
    Group,
    Lit,
    Node,
    NodeVisitor,
    Rep,
    Seq,
    Transform,
    captures,
    folded,
)
from .thompson import matcher_data

__all__ = ["MAX_SPELLINGS", "simplify"]

#: The most spellings of a literal that ignores case the optimiser tries one by one.
MAX_SPELLINGS = 256


class _Simplify(Transform):
    """Each sequence, option list and repetition rewritten, from the leaves up."""

    def visit_seq(self, node: Seq) -> Node:
        items = tuple(self.visit(item) for item in node.items)
        items = _absorb_tails(_joined_runs(_runs_ending_in(items)))
        return items[0] if len(items) == 1 else Seq(items)

    def visit_alt(self, node: Alt) -> Node:
        return _factor(tuple(self.visit(option) for option in node.options))

    def visit_rep(self, node: Rep) -> Node:
        item = self.visit(node.item)
        return (
            _optional(item) if (node.low, node.high) == (0, 1) else Rep(item, node.low, node.high)
        )

    def visit_group(self, node: Group) -> Node:
        return Group(node.name, self.visit(node.item))


def simplify(node: Node) -> Node:
    """``node`` with every rewrite of this module made throughout (see :func:`_absorb_tails`)."""
    return _Simplify().visit(node)


def _runs_ending_in(items: tuple[Node, ...]) -> tuple[Node, ...]:
    """``*Y X`` (X a subset of the characters Y) as ``1*( *[Y but X] X )``.

    ``domainlabel``'s ``*[ alphadigit | "-" ] alphadigit``: the same language
    (a run of Y that ends with an X), written so that each part matches in
    one way (a run of ``-`` then one alphadigit), which lets the repetitions
    around it be possessive; a backtracking engine then needs no stack per
    label (Java's has a depth limit).
    """
    found: list[Node] = []
    for item in items:
        last = found[-1] if found else None
        if (
            isinstance(item, Chars)
            and isinstance(last, Rep)
            and (last.low, last.high) == (0, None)
            and isinstance(last.item, Chars)
            and item.chars <= last.item.chars
        ):
            rest = last.item.chars - item.chars
            found[-1] = (
                Rep(Seq((Rep(Chars(rest), 0, None), item)), 1, None) if rest else Rep(item, 1, None)
            )
        else:
            found.append(item)
    return tuple(found)


def _joined_runs(items: tuple[Node, ...]) -> tuple[Node, ...]:
    """``*A *( S *A )``, S one character no A begins with, as ``*( A | S )``.

    ``hpath = hsegment *[ "/" hsegment ]`` with ``hsegment = *[ uchar | ";"
    ... ]``: runs of A separated by S's are any run of A's and S's (the
    identity ``a*(sa*)* = (a|s)*``), the same language. Written so, a path
    is one loop whose runs of plain characters take the ``/`` in their
    stride, instead of one loop per segment. Parts holding a captured
    production stay as they are.
    """
    found: list[Node] = []
    for item in items:
        joined = _joined(found[-1], item) if found else None
        if joined is None:
            found.append(item)
        else:
            found[-1] = joined
    return tuple(found)


def _joined(run: Node, tail: Node) -> Node | None:
    """``*( A | S )`` for ``run`` = ``*A`` and ``tail`` = ``*( S *A )``, else ``None``."""
    if not (
        isinstance(run, Rep)
        and isinstance(tail, Rep)
        and (run.low, run.high) == (tail.low, tail.high) == (0, None)
        and isinstance(tail.item, Seq)
        and len(tail.item.items) == 2
        and tail.item.items[1] == run
        and not captures(run)
    ):
        return None
    separator = tail.item.items[0]
    if isinstance(separator, Lit) and len(separator.text) == 1:
        chars = folded(separator.text, separator.ignore_case)
    elif isinstance(separator, Chars):
        chars = separator.chars
    else:
        return None
    if chars & run.item.first:
        return None
    unit = run.item
    if isinstance(unit, Chars):
        return Rep(Chars(unit.chars | chars), 0, None)
    options = _options(unit)
    merged = next((o for o in options if isinstance(o, Chars)), None)
    if merged is None:
        return Rep(Alt((*options, Chars(chars))), 0, None)
    return Rep(Alt(tuple(Chars(o.chars | chars) if o is merged else o for o in options)), 0, None)


def _factor(options: tuple[Node, ...]) -> Node:
    """Options that all begin with the same part, with that part written once.

    ``domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit``
    becomes ``alphadigit [ *[ alphadigit | "-" ] alphadigit ]``: the same
    language, but the matcher reads the first character once instead of once
    per option.
    """
    heads = [_head(option) for option in options]
    first = heads[0][0]
    if first is None or any(head != first for head, _rest in heads) or len(options) < 2:
        return Alt(options)
    rests = [rest for _head_, rest in heads]
    present = [rest for rest in rests if rest is not None]
    if not present:
        return first
    tail = present[0] if len(present) == 1 else _factor(tuple(present))
    return Seq((first, _optional(tail) if len(present) < len(rests) else tail))


def _optional(node: Node) -> Node:
    """``[ node ]``, with ``[ 1*x ]`` written ``*x`` and ``[ end of the text ]`` as nothing."""
    if isinstance(node, End):
        return Seq(())
    if isinstance(node, Rep) and node.low == 1:
        return Rep(node.item, 0, node.high)
    return Rep(node, 0, 1)


def _head(node: Node) -> tuple[Node | None, Node | None]:
    """``node`` as its first part and the rest (``None`` when nothing follows)."""
    if isinstance(node, Seq):
        rest = node.items[1:]
        return node.items[0], (rest[0] if len(rest) == 1 else Seq(rest))
    if isinstance(node, Group):
        return None, None  # a captured production stays whole
    return node, None


def _absorb_tails(items: tuple[Node, ...]) -> tuple[Node, ...]:
    """Drop what follows ``x*`` when ``x*`` alone already matches all of it.

    ``gopherurl`` has ``selector [ "%09" search ... ]`` with ``selector =
    *xchar``: every string the optional tail matches is itself a run of
    xchars, so ``*xchar`` followed by the tail is the same language as
    ``*xchar`` alone. Written as is, the tail makes the expression try every
    ``%09`` as a split point, in every combination; without it, the
    repetition can be possessive. Tails holding a captured production stay.
    """
    for index, item in enumerate(items):
        if not (isinstance(item, Rep) and item.high is None and item.item.fixed):
            continue
        rest = items[index + 1 :]
        within = _Within(item.item)
        if rest and all(r.nullable and within.visit(r) for r in rest):
            return items[: index + 1]
    return items


class _Within(NodeVisitor[bool]):
    """Whether every match of a node is a run of matches of ``unit`` (no captures)."""

    def __init__(self, unit: Node) -> None:
        self.unit = unit

    def visit(self, node: Node, *context: object) -> bool:
        unit = self.unit
        if not isinstance(node, Group) and (
            node == unit or (isinstance(unit, Alt) and node in unit.options)
        ):
            return True
        return super().visit(node)

    def visit_chars(self, node: Chars) -> bool:
        return any(isinstance(o, Chars) and node.chars <= o.chars for o in _options(self.unit))

    def visit_lit(self, node: Lit) -> bool:
        # Every spelling "..."i allows (ASCII letters in either case, as
        # ir.folded says), not only the lower and upper ones: "aB" may be
        # outside a run the others are in. Past MAX_SPELLINGS, "no" (the
        # tail is kept, which is never wrong).
        letters = [sorted(folded(char, node.ignore_case)) for char in node.text]
        if prod(len(options) for options in letters) > MAX_SPELLINGS:
            return False
        run = LinearMatcher(matcher_data(Rep(self.unit, 0, None)))
        return all(run.matches("".join(spelling)) for spelling in product(*letters))

    def visit_seq(self, node: Seq) -> bool:
        return all(self.visit(item) for item in node.items)

    def visit_alt(self, node: Alt) -> bool:
        return all(self.visit(option) for option in node.options)

    def visit_rep(self, node: Rep) -> bool:
        return self.visit(node.item)

    def generic_visit(self, node: Node, *context: object) -> bool:
        return False  # a captured production, or the end of the text


def _options(node: Node) -> tuple[Node, ...]:
    return node.options if isinstance(node, Alt) else (node,)
