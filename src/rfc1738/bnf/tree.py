"""The project's own reading of a grammar file: definitions as small frozen trees.

:mod:`rfc1738.bnf.adapter` translates Lark's definitions into these trees
once, when a file is loaded; the compiler, the diagrams and the inspection
read them and nothing of Lark. Each node says one thing the grammar file
wrote: a literal, a character range, a reference, a sequence, a choice, a
repetition with its bounds, an optional part.

>>> from rfc1738.bnf.adapter import load_file
>>> from rfc1738.bnf.files import shipped_grammar_dir
>>> http = load_file(shipped_grammar_dir() / "http.lark")
>>> first, rest = http.rules["hpath"].body.items  # hpath: hsegment ( "/" hsegment )*
>>> first
Ref(name='hsegment', terminal=False)
>>> rest.low, rest.high, rest.item.items[0]
(0, None, Literal(text='/', ignore_case=False))
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .names import base_name

__all__ = [
    "Alias",
    "Choice",
    "Definition",
    "GrammarTree",
    "Literal",
    "Node",
    "Optional",
    "Range",
    "Ref",
    "Regexp",
    "Repeat",
    "Sequence",
    "walk",
]


@dataclass(frozen=True, slots=True)
class Literal:
    """A ``"..."`` string: its text, and whether letters match in any case (``"..."i``)."""

    text: str
    ignore_case: bool = False
    #: The line of the grammar file it is written on (0 if unknown); not part of equality.
    line: int = field(default=0, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Regexp:
    """A ``/.../flags`` regular expression, as written (the compiler refuses these)."""

    pattern: str
    flags: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Range:
    """``"a".."z"``: any one character from ``low`` to ``high``, both included."""

    low: str
    high: str


@dataclass(frozen=True, slots=True)
class Ref:
    """A reference to a rule (lowercase) or a terminal (UPPERCASE) of the same file.

    ``name`` is the key of the definition in :class:`GrammarTree` (a name a
    file reaches only through an import carries its namespace, ``common__host``);
    :attr:`base` is the name as its own file writes it.
    """

    name: str
    terminal: bool = False

    @property
    def base(self) -> str:
        """The name without its import namespace."""
        return base_name(self.name)


@dataclass(frozen=True, slots=True)
class Sequence:
    """Items one after another (two or more; none is the empty sequence)."""

    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Choice:
    """Alternatives, in the order written (two or more)."""

    options: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Repeat:
    """``item`` at least ``low`` and at most ``high`` times (``None``: no bound).

    ``x*`` is (0, None), ``x+`` (1, None), ``x?`` (0, 1), ``x~2..3`` (2, 3).
    """

    item: Node
    low: int
    high: int | None


@dataclass(frozen=True, slots=True)
class Optional:
    """``[ x ]``: the RFC's optional part."""

    item: Node


@dataclass(frozen=True, slots=True)
class Alias:
    """``x -> name``: an alternative whose tree node is renamed."""

    item: Node
    name: str


#: One node of a definition's tree.
Node = Literal | Regexp | Range | Ref | Sequence | Choice | Repeat | Optional | Alias


@dataclass(frozen=True, slots=True)
class Definition:
    """One rule or terminal definition, as the loaded file holds it."""

    #: Its key in the loaded file (namespaced if reached through an import).
    name: str
    body: Node
    terminal: bool = False
    #: A rule's ``.N`` priority (0 if none); the reference parser prefers higher.
    priority: int = 0

    @property
    def base(self) -> str:
        """The name as its own file writes it."""
        return base_name(self.name)


@dataclass(frozen=True)
class GrammarTree:
    """The rule and terminal definitions of one grammar file, imports resolved."""

    path: Path
    rules: dict[str, Definition]
    terminals: dict[str, Definition]

    def definition(self, ref: Ref) -> Definition:
        """The definition ``ref`` names."""
        return (self.terminals if ref.terminal else self.rules)[ref.name]


def walk(node: Node) -> Iterator[Node]:
    """``node`` and every node below it, not following references."""
    yield node
    if isinstance(node, Sequence):
        for item in node.items:
            yield from walk(item)
    elif isinstance(node, Choice):
        for option in node.options:
            yield from walk(option)
    elif isinstance(node, Repeat | Optional | Alias):
        yield from walk(node.item)
