"""A small regular-expression tree, what the grammar compiler produces, and the passes over it.

The grammar files are lowered into these nodes (by :mod:`rfc1738.compile.lower`),
simplified (:mod:`rfc1738.compile.optimise`) and written out as regular
expressions (:mod:`rfc1738.compile.emit`). Each node knows the characters it
can start with and whether it can match nothing, which is what the writer
needs to make repetitions possessive where that is safe.

A pass over the tree is one class (:class:`~rfc1738.runtime.visit.Visitor`:
a ``visit_<kind>`` method per kind of node it treats differently):
:class:`Transform` rebuilds the nodes it has no method for from their
children, :class:`Fold` combines their children's results.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar, overload

from ..runtime.visit import Visitor

__all__ = [
    "Alt",
    "Chars",
    "End",
    "Fold",
    "Group",
    "Lit",
    "Named",
    "Node",
    "NodeVisitor",
    "Production",
    "Rep",
    "Seq",
    "Term",
    "Transform",
    "captures",
    "computed_once",
    "folded",
    "prefixes",
    "without_groups",
]

_Value = TypeVar("_Value")
_Result = TypeVar("_Result")


def folded(char: str, ignore_case: bool = True) -> frozenset[str]:
    """``char`` and, where case is ignored and it is an ASCII letter, its other case.

    How the compiler reads Lark's ``"..."i`` and section 2.1's scheme names:
    ASCII letters only (Python's ``re.IGNORECASE`` would also let ``K``
    match the Kelvin sign).
    """
    if ignore_case and char.isascii() and char.isalpha():
        return frozenset((char.lower(), char.upper()))
    return frozenset((char,))


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

    #: What a pass calls it (``visit_<kind>``); the layouts use the same names.
    KIND: ClassVar[str]

    @property
    def children(self) -> tuple[Node, ...]:
        """The nodes directly inside this one."""
        return ()

    def with_children(self, children: tuple[Node, ...]) -> Node:
        """This node with ``children`` in place of its own."""
        return self

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

    KIND = "chars"
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
    """A literal string; ``ignore_case`` folds ASCII letters (Lark's ``"..."i``, :func:`folded`)."""

    KIND = "lit"
    text: str
    ignore_case: bool = False

    @computed_once
    def first(self) -> frozenset[str]:
        return folded(self.text[0], self.ignore_case) if self.text else frozenset()

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

    KIND = "end"
    first = frozenset[str]()
    nullable = True


@dataclass(frozen=True)
class Seq(Node):
    """The items one after the other."""

    KIND = "seq"
    items: tuple[Node, ...]

    @property
    def children(self) -> tuple[Node, ...]:
        return self.items

    def with_children(self, children: tuple[Node, ...]) -> Node:
        return Seq(children)

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

    KIND = "alt"
    options: tuple[Node, ...]

    @property
    def children(self) -> tuple[Node, ...]:
        return self.options

    def with_children(self, children: tuple[Node, ...]) -> Node:
        return Alt(children)

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

    KIND = "rep"
    item: Node
    low: int
    high: int | None

    @property
    def children(self) -> tuple[Node, ...]:
        return (self.item,)

    def with_children(self, children: tuple[Node, ...]) -> Node:
        return Rep(children[0], self.low, self.high)

    @computed_once
    def first(self) -> frozenset[str]:
        return self.item.first

    @computed_once
    def nullable(self) -> bool:
        return self.low == 0 or self.item.nullable


@dataclass(frozen=True)
class Named(Node):
    """``item`` under a name; it matches what ``item`` matches."""

    name: str
    item: Node

    @property
    def children(self) -> tuple[Node, ...]:
        return (self.item,)

    def with_children(self, children: tuple[Node, ...]) -> Node:
        return type(self)(self.name, children[0])

    @computed_once
    def first(self) -> frozenset[str]:
        return self.item.first

    @computed_once
    def nullable(self) -> bool:
        return self.item.nullable

    @computed_once
    def fixed(self) -> bool:
        return self.item.fixed


class Group(Named):
    """A production whose span is reported under ``name``."""

    KIND = "group"


class Production(Named):
    """A grammar rule, kept by name so that errors can say which one was being matched.

    Only the error automaton's reading of a grammar has these
    (:meth:`rfc1738.compile.pipeline.CompiledFile.named`); the regex writers never
    see them.
    """

    KIND = "production"


class Term(Named):
    """One token as the grammar names it: a terminal (``UCHAR``) or a literal (``"/"``).

    ``item`` is what the token matches. Like :class:`Production`, only in the
    error automaton's reading of a grammar.
    """

    KIND = "term"


class NodeVisitor(Visitor[_Result]):
    """A pass over IR nodes: ``visit_<kind>`` per :attr:`Node.KIND`."""

    def kind(self, node: Any) -> str:
        return str(node.KIND)


class Transform(NodeVisitor[Node]):
    """A pass that rebuilds the tree: a node it has no method for, from its children's results."""

    def generic_visit(self, node: Node, *context: Any) -> Node:
        children = node.children
        rebuilt = tuple(self.visit(child, *context) for child in children)
        if all(new is old for new, old in zip(rebuilt, children, strict=True)):
            return node  # unchanged: its computed properties are kept
        return node.with_children(rebuilt)


class Fold(NodeVisitor[_Result]):
    """A pass that answers for a node it has no method for from its children's answers."""

    def generic_visit(self, node: Node, *context: Any) -> _Result:
        return self.combine([self.visit(child, *context) for child in node.children])

    def combine(self, results: list[_Result]) -> _Result:
        """The answer for a node whose children answered ``results`` (none for a leaf)."""
        raise NotImplementedError


class _WithoutGroups(Transform):
    def visit_group(self, node: Group) -> Node:
        return self.visit(node.item)


class _Captures(Fold[bool]):
    def visit_group(self, node: Group) -> bool:
        return True

    def combine(self, results: list[bool]) -> bool:
        return any(results)


#: ``node`` without its capture groups.
without_groups: Callable[[Node], Node] = _WithoutGroups().visit
#: Whether ``node`` holds a captured production.
captures: Callable[[Node], bool] = _Captures().visit


class _Prefixes(_WithoutGroups):
    """A node matching every prefix of every match of the node (the empty one too)."""

    def visit_chars(self, node: Chars) -> Node:
        return Rep(node, 0, 1)

    def visit_lit(self, node: Lit) -> Node:
        # Each character, or the end of the text: (?:a|\Z)(?:b|\Z)(?:c|\Z) for
        # "abc", linear in the literal (as alternatives, "abc|ab|a|" would be
        # quadratic; nested, (?:a(?:b(?:c)?)?)?, deeper than re can compile).
        # A prefix of a literal always ends the text: what prefixes() makes of
        # a sequence or a repetition puts the prefix of a part last.
        letters = (Chars(folded(c, node.ignore_case)) for c in node.text)
        return Seq(tuple(Alt((chars, End())) for chars in letters)) if node.text else node

    def visit_seq(self, node: Seq) -> Node:
        # Each part whole, or a prefix of it that ends the text (the parts
        # after it then match empty): as long as the sequence, however many
        # parts it has (nested, x(?:y(?:z)?)?, it would be as deep).
        *parts, last = node.items
        return Seq(
            (
                *(Alt((without_groups(part), Seq((self.visit(part), End())))) for part in parts),
                self.visit(last),
            )
        )

    def visit_alt(self, node: Alt) -> Node:
        return Alt(tuple(self.visit(option) for option in node.options))

    def visit_rep(self, node: Rep) -> Node:
        if node.high == 1:
            return self.visit(node.item)
        high = None if node.high is None else node.high - 1
        return Seq((Rep(without_groups(node.item), 0, high), self.visit(node.item)))

    def generic_visit(self, node: Any, *context: Any) -> Node:
        raise TypeError(f"no prefixes for {node!r}")


def prefixes(node: Node) -> Node:
    """A node matching every prefix of every match of ``node`` (the empty one too).

    Used to find how far a long string fits the grammar: the longest prefix
    of a rejected string that some valid URL begins with ends at the error.
    Captured productions are dropped.
    """
    return _Prefixes().visit(node)
