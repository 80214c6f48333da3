"""A small regular-expression tree: what the grammar compiler produces.

The grammar files are read into these nodes (by :mod:`rfc1738.compile.pipeline`) and
written out as Python regular expressions (by :mod:`rfc1738.compile.emit`). Each node
knows the characters it can start with and whether it can match nothing, which
is what the writer needs to make repetitions possessive where that is safe.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, overload

__all__ = [
    "Alt",
    "Chars",
    "End",
    "Group",
    "Lit",
    "Node",
    "Production",
    "Rep",
    "Seq",
    "Term",
    "computed_once",
]

_Value = TypeVar("_Value")


# Lower case: a decorator, as functools.cached_property is.
class computed_once(Generic[_Value]):
    """A property computed on first use and kept in the instance, taking no lock.

    What :func:`functools.cached_property` does, without the lock it takes
    before Python 3.12: one lock per class and property, held while the value
    is computed. The properties of these nodes call each other (a
    :class:`Seq`'s ``first`` asks its items whether they are ``nullable``),
    so two threads computing two of them at once took those locks in
    opposite orders and waited for each other forever. The values are pure
    functions of a frozen node: two threads that compute one at once get
    equal values, and whichever is kept is right.
    """

    def __init__(self, compute: Callable[[Any], _Value]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> computed_once[_Value]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> _Value: ...

    def __get__(
        self, instance: object | None, owner: type | None = None
    ) -> _Value | computed_once[_Value]:
        if instance is None:
            return self
        value = self.compute(instance)
        # Not a data descriptor: once the instance holds the value, attribute
        # look-up finds it there and this method is not called again. A frozen
        # dataclass refuses setattr, not its __dict__.
        instance.__dict__[self.name] = value
        return value


class Node:
    """A piece of a regular language."""

    @computed_once
    def first(self) -> frozenset[str]:
        """The characters a match can begin with."""
        raise NotImplementedError

    @computed_once
    def nullable(self) -> bool:
        """Whether the empty string matches."""
        raise NotImplementedError

    @computed_once
    def fixed(self) -> bool:
        """Whether at any position at most one match is possible.

        True for single characters, literals and sequences of them, and for
        alternatives of fixed parts that begin with different characters: a
        repetition of such a node never needs to try a shorter match.
        """
        return False


@dataclass(frozen=True)
class Chars(Node):
    """Exactly one character out of a set."""

    chars: frozenset[str]

    @computed_once
    def first(self) -> frozenset[str]:
        return self.chars

    @computed_once
    def nullable(self) -> bool:
        return False

    @computed_once
    def fixed(self) -> bool:
        return True


@dataclass(frozen=True)
class Lit(Node):
    """A literal string; ``ignore_case`` folds ASCII letters (Lark's ``"..."i``)."""

    text: str
    ignore_case: bool = False

    @computed_once
    def first(self) -> frozenset[str]:
        if not self.text:
            return frozenset()
        head = self.text[0]
        return frozenset({head, head.swapcase()} if self.ignore_case else {head})

    @computed_once
    def nullable(self) -> bool:
        return not self.text

    @computed_once
    def fixed(self) -> bool:
        return True


@dataclass(frozen=True)
class End(Node):
    """The end of the text: matches the empty string there, nothing elsewhere.

    Only in the trees :func:`prefixes` makes, after the part of a literal a
    prefix ends in; the writer spells it as the dialect's end anchor. (Its
    answers are constants: nothing to cache.)
    """

    first = frozenset[str]()
    nullable = True


@dataclass(frozen=True)
class Seq(Node):
    """The items one after the other."""

    items: tuple[Node, ...]

    @computed_once
    def first(self) -> frozenset[str]:
        found: set[str] = set()
        for item in self.items:
            found |= item.first
            if not item.nullable:
                break
        return frozenset(found)

    @computed_once
    def nullable(self) -> bool:
        return all(item.nullable for item in self.items)

    @computed_once
    def fixed(self) -> bool:
        return all(item.fixed for item in self.items)


@dataclass(frozen=True)
class Alt(Node):
    """One of the options, tried in order (higher rule priority first)."""

    options: tuple[Node, ...]

    @computed_once
    def first(self) -> frozenset[str]:
        return frozenset().union(*(option.first for option in self.options))

    @computed_once
    def nullable(self) -> bool:
        return any(option.nullable for option in self.options)

    @computed_once
    def fixed(self) -> bool:
        if not all(option.fixed and not option.nullable for option in self.options):
            return False
        seen: set[str] = set()
        for option in self.options:
            if seen & option.first:
                return False
            seen |= option.first
        return True


@dataclass(frozen=True)
class Rep(Node):
    """``item`` repeated from ``low`` to ``high`` times (``None``: no limit)."""

    item: Node
    low: int
    high: int | None

    @computed_once
    def first(self) -> frozenset[str]:
        return self.item.first

    @computed_once
    def nullable(self) -> bool:
        return self.low == 0 or self.item.nullable


@dataclass(frozen=True)
class Group(Node):
    """A production whose span is reported under ``name``."""

    name: str
    item: Node

    @computed_once
    def first(self) -> frozenset[str]:
        return self.item.first

    @computed_once
    def nullable(self) -> bool:
        return self.item.nullable

    @computed_once
    def fixed(self) -> bool:
        return self.item.fixed


@dataclass(frozen=True)
class Production(Node):
    """A grammar rule, kept by name so that errors can say which one was being matched.

    Only the error automaton's reading of a grammar has these
    (:meth:`rfc1738.compile.pipeline.CompiledFile.named`); the regex writers never
    see them.
    """

    name: str
    item: Node

    @computed_once
    def first(self) -> frozenset[str]:
        return self.item.first

    @computed_once
    def nullable(self) -> bool:
        return self.item.nullable


@dataclass(frozen=True)
class Term(Node):
    """One token as the grammar names it: a terminal (``UCHAR``) or a literal (``"/"``).

    ``item`` is what the token matches. Like :class:`Production`, only in the
    error automaton's reading of a grammar.
    """

    name: str
    item: Node

    @computed_once
    def first(self) -> frozenset[str]:
        return self.item.first

    @computed_once
    def nullable(self) -> bool:
        return self.item.nullable


def prefixes(node: Node) -> Node:
    """A node matching every prefix of every match of ``node`` (the empty one too).

    Used to find how far a long string fits the grammar: the longest prefix
    of a rejected string that some valid URL begins with ends at the error.
    Captured productions are dropped.
    """
    if isinstance(node, Chars):
        return Rep(node, 0, 1)
    if isinstance(node, Lit):
        # Each character, or the end of the text: (?:a|\Z)(?:b|\Z)(?:c|\Z) for
        # "abc", linear in the literal (as alternatives, "abc|ab|a|" would be
        # quadratic; nested, (?:a(?:b(?:c)?)?)?, deeper than re can compile).
        # A prefix of a literal always ends the text: what prefixes() makes of
        # a sequence or a repetition puts the prefix of a part last.
        letters = (
            Chars(frozenset({c.lower(), c.upper()} if node.ignore_case and c.isascii() else {c}))
            for c in node.text
        )
        return Seq(tuple(Alt((chars, End())) for chars in letters)) if node.text else node
    if isinstance(node, Seq):
        # Each part whole, or a prefix of it that ends the text (the parts
        # after it then match empty): as long as the sequence, however many
        # parts it has (nested, x(?:y(?:z)?)?, it would be as deep).
        *parts, last = node.items
        return Seq(
            (*(Alt((_plain(part), Seq((prefixes(part), End())))) for part in parts), prefixes(last))
        )
    if isinstance(node, Alt):
        return Alt(tuple(prefixes(option) for option in node.options))
    if isinstance(node, Rep):
        if node.high == 1:
            return prefixes(node.item)
        high = None if node.high is None else node.high - 1
        return Seq((Rep(_plain(node.item), 0, high), prefixes(node.item)))
    if isinstance(node, Group):
        return prefixes(node.item)
    raise TypeError(f"no prefixes for {node!r}")


def _plain(node: Node) -> Node:
    """``node`` without its capture groups."""
    if isinstance(node, Group):
        return _plain(node.item)
    if isinstance(node, Seq):
        return Seq(tuple(_plain(item) for item in node.items))
    if isinstance(node, Alt):
        return Alt(tuple(_plain(option) for option in node.options))
    if isinstance(node, Rep):
        return Rep(_plain(node.item), node.low, node.high)
    return node
