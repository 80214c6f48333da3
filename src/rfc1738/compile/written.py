"""An exported pattern read back as a tree: what the column plan asks of it, and its rewrites.

The column plan (:mod:`rfc1738.compile.columns`) is computed from the RE2
patterns :func:`~rfc1738.compile.dialects.export_grammar` writes. Those are
plain text; to learn from one which capture groups take part in every
match, which may match the empty string and which characters they hold, and
to rewrite one (a lookbehind RE2 cannot run, repetitions bounded, every
capture dropped), it is read back here into a small tree of its own.

Only the syntax the writer gives the RE2 dialect is read: ``(?:``,
``(?P<name>``, ``(``, a lookbehind ``(?<=``, ``|``, the quantifiers ``*``,
``+``, ``?`` and ``{n,m}``, classes ``[...]``, escapes (``\\.``, ``\\xhh``,
``\\x{h...}``, ``\\s``, ``\\S``), ``^`` and ``$``; and, for the Java
dialect (``java=True``), what it writes otherwise: ``(?<name>``, possessive
quantifiers (``*+``, ``{n,m}+``) and the anchors ``\\A`` and ``\\z``.
Anything else is a ``ValueError``: a pattern this module would misread is
never rewritten.
:func:`write` gives the text back, byte for byte for a tree :func:`read`
made (a test holds every exported pattern to it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

__all__ = [
    "Alt",
    "Atom",
    "Group",
    "Look",
    "Node",
    "Rep",
    "Seq",
    "capture_numbers",
    "chars",
    "covers",
    "edge_chars",
    "max_length",
    "neighbours",
    "nullable",
    "read",
    "transform",
    "write",
]

#: What a character class or escape stands for when it is "any character" (``[\s\S]``).
ANY: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class Atom:
    """One character, a class or an anchor, as written; ``chars`` what it matches.

    ``chars`` is ``None`` for a class of every character (``[\\s\\S]``), and
    empty for an anchor (``^``, ``$``), which matches no character.
    """

    text: str
    chars: frozenset[str] | None
    anchor: bool = False


@dataclass(frozen=True, slots=True)
class Seq:
    """Items one after another."""

    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Alt:
    """One of the options (the first that leads to a match, as RE2 reports groups)."""

    options: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Rep:
    """``item`` from ``low`` to ``high`` times (``None``: no bound); ``text`` the quantifier."""

    item: Node
    low: int
    high: int | None
    text: str

    @property
    def possessive(self) -> bool:
        """Whether the quantifier is possessive (``*+``, ``{n,m}+``: Java's dialect)."""
        return len(self.text) > 1 and self.text.endswith("+")


@dataclass(frozen=True, slots=True)
class Group:
    """A group: capturing (``number`` > 0, ``name`` for a named one) or not (``number`` 0).

    ``opening`` is how a named one is opened: ``(?P<`` (RE2) or ``(?<`` (Java).
    """

    item: Node
    number: int = 0
    name: str | None = None
    opening: str = "(?P<"


@dataclass(frozen=True, slots=True)
class Look:
    """A lookbehind ``(?<=item)``: it matches no character."""

    item: Node


Node = Atom | Seq | Alt | Rep | Group | Look

_QUANTIFIERS = {"*": (0, None), "+": (1, None), "?": (0, 1)}


class _Reader:
    def __init__(self, text: str, java: bool) -> None:
        self.text = text
        self.java = java
        self.at = 0
        self.groups = 0

    def fail(self, what: str) -> ValueError:
        return ValueError(f"{what} at {self.at} of the pattern {self.text[:60]!r}...")

    def peek(self, size: int = 1) -> str:
        return self.text[self.at : self.at + size]

    def alternation(self) -> Node:
        options = [self.sequence()]
        while self.peek() == "|":
            self.at += 1
            options.append(self.sequence())
        return options[0] if len(options) == 1 else Alt(tuple(options))

    def sequence(self) -> Node:
        items: list[Node] = []
        while self.at < len(self.text) and self.peek() not in "|)":
            item = self.atom()
            while self.peek() and self.peek() in "*+?{":
                item = self.quantified(item)
            items.append(item)
        return items[0] if len(items) == 1 else Seq(tuple(items))

    def quantified(self, item: Node) -> Node:
        start = self.at
        char = self.peek()
        if char == "{":
            end = self.text.find("}", self.at)
            if end < 0:
                raise self.fail("an unclosed {")
            low_text, comma, high_text = self.text[self.at + 1 : end].partition(",")
            if not low_text.isdigit() or (high_text and not high_text.isdigit()):
                raise self.fail("a quantifier this reader does not know")
            low = int(low_text)
            high = (int(high_text) if high_text else None) if comma else low
            self.at = end + 1
        else:
            low, high = _QUANTIFIERS[char]
            self.at += 1
        if self.java and self.peek() == "+":
            self.at += 1
        elif self.peek() and self.peek() in "?+":
            raise self.fail("a lazy or possessive quantifier (not in the dialect)")
        return Rep(item, low, high, self.text[start : self.at])

    def atom(self) -> Node:
        char = self.peek()
        if char == "(":
            return self.group()
        if char == "[":
            return self.char_class()
        if char == "\\":
            if self.java and self.peek(2) in ("\\A", "\\z"):
                self.at += 2
                return Atom(self.text[self.at - 2 : self.at], frozenset(), anchor=True)
            start = self.at
            found = self.escape()
            return Atom(self.text[start : self.at], found)
        if char in "^$":
            self.at += 1
            return Atom(char, frozenset(), anchor=True)
        if char in ".*+?{}]":
            raise self.fail(f"{char!r} where this reader expects a character")
        self.at += 1
        return Atom(char, frozenset({char}))

    def group(self) -> Node:
        if self.peek(3) == "(?:":
            self.at += 3
            return self.closed(lambda item: Group(item))
        if self.peek(4) == "(?<=":
            self.at += 4
            return self.closed(Look)
        opening = "(?<" if self.java else "(?P<"
        if self.peek(len(opening)) == opening:
            end = self.text.find(">", self.at)
            if end < 0:
                raise self.fail("an unclosed group name")
            name = self.text[self.at + len(opening) : end]
            self.at = end + 1
            self.groups += 1
            number = self.groups
            return self.closed(lambda item: Group(item, number, name, opening))
        if self.peek(2) == "(?":
            raise self.fail("a group this reader does not know")
        self.at += 1
        self.groups += 1
        number = self.groups
        return self.closed(lambda item: Group(item, number))

    def closed(self, make: Callable[[Node], Node]) -> Node:
        item = self.alternation()
        if self.peek() != ")":
            raise self.fail("an unclosed group")
        self.at += 1
        return make(item)

    def escape(self) -> frozenset[str] | None:
        """Read one escape (the reader is at its ``\\``): the characters it matches."""
        self.at += 1
        char = self.peek()
        if not char:
            raise self.fail("a pattern that ends in \\")
        self.at += 1
        if char == "x":
            if self.peek() == "{":
                end = self.text.find("}", self.at)
                digits = self.text[self.at + 1 : end] if end > 0 else ""
                self.at = end + 1
            else:
                digits = self.text[self.at : self.at + 2]
                self.at += 2
            try:
                return frozenset({chr(int(digits, 16))})
            except ValueError:
                raise self.fail("a \\x escape this reader does not read") from None
        if char in "sS":
            # Only as the two halves of [\s\S]: the class of every character.
            return ANY
        if char.isalnum():
            raise self.fail(f"an escape \\{char} this reader does not know")
        return frozenset({char})

    def char_class(self) -> Atom:
        start = self.at
        self.at += 1
        if self.peek() == "^":
            raise self.fail("a negated class (never written by the RE2 dialect)")
        found: set[str] = set()
        every = False
        while self.peek() != "]":
            if not self.peek():
                raise self.fail("an unclosed class")
            low = self.class_char()
            if low is ANY:
                every = True
                continue
            if self.peek() == "-" and self.peek(2)[1:] not in ("]", ""):
                self.at += 1
                high = self.class_char()
                if low is None or high is None or len(low) != 1 or len(high) != 1:
                    raise self.fail("a range between classes")
                found.update(chr(c) for c in range(ord(min(low)), ord(min(high)) + 1))
            elif low is not None:
                found.update(low)
        self.at += 1
        return Atom(self.text[start : self.at], None if every else frozenset(found))

    def class_char(self) -> frozenset[str] | None:
        if self.peek() == "\\":
            return self.escape()
        char = self.peek()
        self.at += 1
        return frozenset({char})


def read(text: str, *, java: bool = False) -> Node:
    """The tree of a pattern the RE2 dialect (``java``: Java's) wrote; ``ValueError`` for others."""
    reader = _Reader(text, java)
    node = reader.alternation()
    if reader.at != len(text):
        raise reader.fail("an unopened )")
    return node


def write(node: Node) -> str:
    """The pattern text of ``node`` (for a tree :func:`read` made: the text it read)."""
    if isinstance(node, Atom):
        return node.text
    if isinstance(node, Seq):
        return "".join(
            write(item) if not isinstance(item, Alt) else f"(?:{write(item)})"
            for item in node.items
        )
    if isinstance(node, Alt):
        return "|".join(write(option) for option in node.options)
    if isinstance(node, Rep):
        inner = write(node.item)
        if isinstance(node.item, Seq | Alt):
            inner = f"(?:{inner})"
        return inner + node.text
    if isinstance(node, Look):
        return f"(?<={write(node.item)})"
    body = write(node.item)
    if not node.number:
        return f"(?:{body})"
    if node.name is not None:
        return f"{node.opening}{node.name}>{body})"
    return f"({body})"


def transform(node: Node, change: Callable[[Node], Node | None]) -> Node:
    """``node`` rebuilt bottom-up: ``change`` may give a new node for each (``None``: keep)."""
    if isinstance(node, Seq):
        node = Seq(tuple(transform(item, change) for item in node.items))
    elif isinstance(node, Alt):
        node = Alt(tuple(transform(option, change) for option in node.options))
    elif isinstance(node, Rep | Group | Look):
        node = replace(node, item=transform(node.item, change))
    changed = change(node)
    return node if changed is None else changed


def nullable(node: Node) -> bool:
    """Whether ``node`` matches the empty string."""
    if isinstance(node, Atom):
        return node.anchor
    if isinstance(node, Seq):
        return all(nullable(item) for item in node.items)
    if isinstance(node, Alt):
        return any(nullable(option) for option in node.options)
    if isinstance(node, Rep):
        return node.low == 0 or nullable(node.item)
    if isinstance(node, Look):
        return True
    return nullable(node.item)


def covers(node: Node, numbers: frozenset[int]) -> bool:
    """Whether every match of ``node`` has one of the groups ``numbers`` take part."""
    if isinstance(node, Seq):
        return any(covers(item, numbers) for item in node.items)
    if isinstance(node, Alt):
        return all(covers(option, numbers) for option in node.options)
    if isinstance(node, Rep):
        return node.low > 0 and covers(node.item, numbers)
    if isinstance(node, Group):
        return node.number in numbers or covers(node.item, numbers)
    return False


def max_length(node: Node) -> int | None:
    """The most characters a match of ``node`` holds (``None``: no bound)."""
    if isinstance(node, Atom):
        return 0 if node.anchor else 1
    if isinstance(node, Look):
        return 0
    if isinstance(node, Seq | Alt):
        parts = [max_length(n) for n in (node.items if isinstance(node, Seq) else node.options)]
        if any(part is None for part in parts):
            return None
        known = [part for part in parts if part is not None]
        return sum(known) if isinstance(node, Seq) else max(known)
    if isinstance(node, Rep):
        inner = max_length(node.item)
        return None if inner is None or node.high is None else inner * node.high
    return max_length(node.item)


def chars(node: Node) -> frozenset[str] | None:
    """Every character a match of ``node`` may hold (``None``: any character)."""
    if isinstance(node, Atom):
        return node.chars
    items: tuple[Node, ...]
    if isinstance(node, Seq):
        items = node.items
    elif isinstance(node, Alt):
        items = node.options
    elif isinstance(node, Look):
        return frozenset()
    else:
        items = (node.item,)
    found: set[str] = set()
    for item in items:
        inner = chars(item)
        if inner is None:
            return None
        found |= inner
    return frozenset(found)


def edge_chars(node: Node, *, last: bool = False) -> frozenset[str] | None:
    """The characters a match of ``node`` may begin with (``last``: end with); ``None``: any."""
    if isinstance(node, Atom):
        return frozenset() if node.anchor else node.chars
    if isinstance(node, Look):
        return frozenset()
    if isinstance(node, Alt):
        return _union(edge_chars(option, last=last) for option in node.options)
    if isinstance(node, Seq):
        found: list[frozenset[str] | None] = []
        for item in reversed(node.items) if last else node.items:
            found.append(edge_chars(item, last=last))
            if not nullable(item):
                break
        return _union(found)
    return edge_chars(node.item, last=last)


def neighbours(
    tree: Node, chosen: Callable[[Node], bool]
) -> list[tuple[frozenset[str] | None, frozenset[str] | None]]:
    """The characters that may come right before, and right after, each node ``chosen`` picks.

    In a match of ``tree``, outside lookbehinds; ``None``: any character
    (the text's two ends: none).
    """
    found: list[tuple[frozenset[str] | None, frozenset[str] | None]] = []

    def walk(node: Node, before: frozenset[str] | None, after: frozenset[str] | None) -> None:
        if chosen(node):
            found.append((before, after))
        if isinstance(node, Seq):
            items = node.items
            # What follows each item, from the right; what precedes it, from the left.
            follows: list[frozenset[str] | None] = [after] * len(items)
            for at in range(len(items) - 2, -1, -1):
                following = items[at + 1]
                first = edge_chars(following)
                follows[at] = _union((first, follows[at + 1])) if nullable(following) else first
            precede = before
            for at, item in enumerate(items):
                walk(item, precede, follows[at])
                ending = edge_chars(item, last=True)
                precede = _union((ending, precede)) if nullable(item) else ending
        elif isinstance(node, Alt):
            for option in node.options:
                walk(option, before, after)
        elif isinstance(node, Rep):
            again = node.high is None or node.high > 1
            walk(
                node.item,
                _union((before, edge_chars(node.item, last=True))) if again else before,
                _union((after, edge_chars(node.item))) if again else after,
            )
        elif isinstance(node, Group):
            walk(node.item, before, after)

    walk(tree, frozenset(), frozenset())
    return found


def _union(sets: Iterable[frozenset[str] | None]) -> frozenset[str] | None:
    """The union of character sets, ``None`` (any character) if one is."""
    found: set[str] = set()
    for chars_ in sets:
        if chars_ is None:
            return None
        found |= chars_
    return frozenset(found)


def capture_numbers(node: Node) -> dict[int, Group]:
    """Every capture group of ``node`` by its number."""
    found: dict[int, Group] = {}

    def visit(item: Node) -> None:
        if isinstance(item, Group) and item.number:
            found[item.number] = item
        if isinstance(item, Seq):
            for inner in item.items:
                visit(inner)
        elif isinstance(item, Alt):
            for inner in item.options:
                visit(inner)
        elif isinstance(item, Rep | Group | Look):
            visit(item.item)

    visit(node)
    return found
