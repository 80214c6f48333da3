"""Lowering: a grammar file's definitions to the IR, within the compiler's limits.

RFC 1738's grammar is regular (no production refers back to itself), so a
start rule lowers to one tree of :mod:`rfc1738.compile.ir` nodes. The
definitions are read as Lark's own loader reads them (through
:mod:`rfc1738.bnf.adapter`, as :mod:`rfc1738.bnf.tree` nodes), so the compiler
sees exactly what the reference parser sees; nothing it produces comes from a
pattern written by hand.

The limits of :mod:`rfc1738.compile.limits` are checked here, where the work
they bound is done: a literal's length (some in the file's text, before Lark
reads it), a repetition's count, how deep rules and parentheses nest, how many
characters a rule holds written out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from ..bnf import tree as bnf
from ..bnf.files import lark_files
from ..bnf.load_errors import load_tree
from ..bnf.names import base_name
from ..bnf.tree import GrammarTree

# NotRegularError is rfc1738.errors' (run time names it too), importable from here as well.
from ..errors import GrammarError, NotRegularError
from .ir import Alt, Chars, Fold, Group, Lit, Node, Production, Rep, Seq, Term, folded
from .limits import MAX_DEPTH, MAX_LITERAL, MAX_REPEAT, MAX_SIZE, GrammarLimitError

__all__ = ["Lowering", "NotRegularError", "load", "refuse_long_literals"]


def load(path: Path) -> GrammarTree:
    """The definitions of grammar file ``path``, imports resolved (Lark reads it)."""
    try:
        return load_tree(path)
    except RecursionError:
        # Parentheses nested some hundreds deep: Lark's loader, or the
        # adapter's reading of its trees, runs out of Python's recursion.
        raise GrammarLimitError(
            _most_nested(path),
            f"parentheses nested more than {MAX_DEPTH} deep",
            f"{MAX_DEPTH} (MAX_DEPTH)",
            file=str(path),
        ) from None


class Lowering:
    """:mod:`rfc1738.bnf.tree` definitions → :mod:`rfc1738.compile.ir`, one start rule at a time.

    ``capture`` names the productions that get a :class:`~rfc1738.compile.ir.Group`
    (matched without their namespace, see :func:`~rfc1738.bnf.names.base_name`).
    ``named`` keeps every rule and token by name, for the error automaton: rules
    become :class:`~rfc1738.compile.ir.Production` nodes and each terminal or
    literal a rule uses a :class:`~rfc1738.compile.ir.Term`.
    """

    def __init__(
        self,
        grammar: GrammarTree,
        path: Path,
        capture: frozenset[str] = frozenset(),
        *,
        named: bool = False,
        depth: int = 0,
        top: str = "",
    ) -> None:
        self.grammar = grammar
        self.path = path
        self.capture = capture
        # Named: a terminal's own definition is then read by a plain lowering.
        self.named = named
        self.done: dict[str, Node] = {}
        #: How deep the definition being read is (limits.MAX_DEPTH), and the
        #: definition a limit names when no rule is being read (a terminal's).
        self.depth = depth
        self.top = top
        self.sizes = _Size()
        # Per terminal, its definition lowered (a terminal names no rule, so
        # where it is used changes nothing), and the lowering of named ones.
        self.lowered_terminals: dict[str, Node] = {}
        self.plain: Lowering | None = None

    def rule(self, name: str, path: tuple[str, ...] = ()) -> Node:
        """Rule ``name`` lowered; :class:`NotRegularError` if it refers back to itself."""
        if name in path:
            cycle = " -> ".join((*path[path.index(name) :], name))
            raise NotRegularError(
                f"rule {base_name(name)} refers back to itself ({cycle}): it is not "
                "regular, so the fast parser cannot compile it",
                file=str(self.path),
            )
        node = self.done.get(name)
        if node is None:
            node = self.node(self.grammar.rules[name].body, (*path, name))
            if self.sizes.visit(node) > MAX_SIZE:
                raise self.limit(
                    (*path, name),
                    f"it holds more than {MAX_SIZE:,} characters with its repetitions written out",
                    f"{MAX_SIZE:,} (MAX_SIZE)",
                )
            if base_name(name) in self.capture:
                node = Group(base_name(name), node)
            if self.named:
                node = Production(str(base_name(name)), node)
            self.done[name] = node
        return node

    def terminal(self, name: str, path: tuple[str, ...] = ()) -> Node:
        """Terminal ``name`` lowered (what it matches: no token of its own)."""
        node = self.lowered_terminals.get(name)
        if node is None:
            node = self.node(self.grammar.terminals[name].body, path)
            self.lowered_terminals[name] = node
        return node

    def limit(self, path: tuple[str, ...], what: str, limit: str) -> GrammarLimitError:
        """The error for a limit of :mod:`~rfc1738.compile.limits` the rule being read goes past."""
        rule = base_name(path[-1]) if path else self.top
        return GrammarLimitError(str(rule), what, limit, file=str(self.path))

    def node(self, node: bnf.Node, path: tuple[str, ...]) -> Node:
        """``node`` of a definition lowered; ``path`` holds the rules it is inside."""
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise self.limit(
                    path,
                    f"rules and parentheses nested more than {MAX_DEPTH} deep",
                    f"{MAX_DEPTH} (MAX_DEPTH)",
                )
            return self._node(node, path)
        finally:
            self.depth -= 1

    def _node(self, node: bnf.Node, path: tuple[str, ...]) -> Node:
        if isinstance(node, bnf.Choice):
            return self.alternatives(node.options, path)
        if isinstance(node, bnf.Alias):
            return self.node(node.item, path)
        if isinstance(node, bnf.Sequence):
            flat: list[Node] = []
            for item in (self.node(item, path) for item in node.items):
                flat.extend(item.items if isinstance(item, Seq) else (item,))
            return flat[0] if len(flat) == 1 else Seq(tuple(flat))
        if isinstance(node, bnf.Optional):
            return Rep(self.node(node.item, path), 0, 1)
        if isinstance(node, bnf.Repeat):
            count = max(node.low, node.high or 0)
            if count > MAX_REPEAT:
                raise self.limit(path, f"a repetition of {count:,}", f"{MAX_REPEAT:,} (MAX_REPEAT)")
            return Rep(self.node(node.item, path), node.low, node.high)
        if isinstance(node, bnf.Ref):
            if not node.terminal:
                return self.rule(node.name, path)
            if not self.named:
                return self.terminal(node.name, path)
            # A terminal is one token to the reference parser: named as a
            # whole, its own definition read by a plain lowering.
            if self.plain is None:
                self.plain = Lowering(self.grammar, self.path, top=self.top)
            self.plain.depth = self.depth
            return Term(str(base_name(node.name)), self.plain.terminal(node.name, path))
        if isinstance(node, bnf.Literal):
            if len(node.text) > MAX_LITERAL:
                raise self.limit(
                    path,
                    f"a literal of {len(node.text):,} characters",
                    f"{MAX_LITERAL:,} (MAX_LITERAL)",
                )
            text = node.text
            found = (
                Chars(folded(text, node.ignore_case))
                if len(text) == 1
                else Lit(text, node.ignore_case)
            )
            # Named as the reference parser names an anonymous literal.
            return (
                Term(f'"{text}"{"i" if node.ignore_case else ""}', found) if self.named else found
            )
        if isinstance(node, bnf.Range):
            chars = Chars(frozenset(chr(c) for c in range(ord(node.low), ord(node.high) + 1)))
            return Term(f'"{node.low}".."{node.high}"', chars) if self.named else chars
        raise GrammarError(
            f"the fast parser cannot compile the regular expression /{node.pattern}/",
            file=str(self.path),
        )

    def alternatives(self, trees: tuple[bnf.Node, ...], path: tuple[str, ...]) -> Node:
        """A choice lowered: options by priority, single characters merged into one class."""
        options = [(self.priority(t), self.node(t, path)) for t in trees]
        # Higher priority first, as the reference parser resolves ambiguity.
        options.sort(key=lambda pair: -pair[0])
        flat: list[Node] = []
        for _priority, node in options:
            flat.extend(node.options if isinstance(node, Alt) else (node,))
        # Single characters become one class, where the first of them stood:
        # a class matches one character either way, and order among options
        # that match one character changes nothing.
        merged: list[Node] = []
        chars: set[str] = set()
        for node in flat:
            if isinstance(node, Chars):
                if not chars:
                    merged.append(node)
                chars |= node.chars
            else:
                merged.append(node)
        merged = [Chars(frozenset(chars)) if isinstance(n, Chars) else n for n in merged]
        return merged[0] if len(merged) == 1 else Alt(tuple(merged))

    def priority(self, option: bnf.Node) -> int:
        """The highest priority of a rule an alternative names directly."""
        rules = self.grammar.rules
        named = [
            rules[n.name].priority
            for n in bnf.walk(option)
            if isinstance(n, bnf.Ref) and not n.terminal and n.name in rules
        ]
        return max([0, *named])


class _Size(Fold[int]):
    """How many characters a node holds with its bounded repetitions written out.

    Capped a little past :data:`~rfc1738.compile.limits.MAX_SIZE`; each
    node's is kept, so that the rules a rule names are counted once.
    """

    def __init__(self) -> None:
        # Per node (kept alive here), its size.
        self.known: dict[int, tuple[Node, int]] = {}

    def visit(self, node: Node, *context: object) -> int:
        known = self.known.get(id(node))
        if known is None:
            known = self.known[id(node)] = (node, min(super().visit(node), MAX_SIZE + 1))
        return known[1]

    def visit_chars(self, node: Chars) -> int:
        return 1

    def visit_lit(self, node: Lit) -> int:
        return len(node.text)

    def visit_rep(self, node: Rep) -> int:
        return self.visit(node.item) * max(1, node.low, node.high or 0)

    def combine(self, results: list[int]) -> int:
        return sum(results)


def refuse_long_literals(directory: Path) -> None:
    """:class:`GrammarLimitError` for a literal of a file of ``directory`` far past MAX_LITERAL.

    Lark reads a literal at some microseconds a character, again for each
    file that imports it: a literal of a million characters would take
    seconds to refuse after Lark read it. One that is surely too long (its
    text longer than ``_LONGEST_ESCAPE * MAX_LITERAL`` characters) is
    refused from the file's text, before; others after, when lowered.
    """
    for path in lark_files(directory):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # left for Lark to report
        if len(text) <= _LONGEST_ESCAPE * MAX_LITERAL:
            continue
        for token in _TOKEN.finditer(text):
            written = token.end() - token.start() - 2
            if token.group().startswith('"') and written > _LONGEST_ESCAPE * MAX_LITERAL:
                begun = [m.group(1) for m in _DEFINITION.finditer(text, 0, token.start())]
                raise GrammarLimitError(
                    begun[-1] if begun else "?",
                    f"a literal of more than {_LONGEST_ESCAPE * MAX_LITERAL:,} characters",
                    f"{MAX_LITERAL:,} (MAX_LITERAL)",
                    file=str(path),
                )


#: What a grammar file writes that may hold a quote or a parenthesis: a literal
#: (``"..."``, ``"..."i``), a comment, a regular expression (``/.../flags``).
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/(?:[^/\\\n]|\\.)+/')

#: The longest escape of a literal (``\U0001F600``): a literal written with more
#: than this many times MAX_LITERAL characters holds more than MAX_LITERAL.
_LONGEST_ESCAPE = 10

#: A line that begins a definition: its name (``?rule``, ``!rule``, ``rule.2``, ``TERM``).
_DEFINITION = re.compile(r"^[?!]?(\w+)(?:\.-?\d+)?\s*:", re.MULTILINE)


def _most_nested(path: Path) -> str:
    """The definition of ``path`` (or a grammar file next to it) whose parentheses nest deepest.

    Read from the text only to name it in an error, where Lark could not
    load the file: outside literals, regular expressions and comments.
    """
    deepest, name = -1, "?"
    for file in [path, *sorted(path.parent.glob("*.lark"))]:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for definition, depth in _nesting(text):
            if depth > deepest:
                deepest, name = depth, definition
    return name


def _nesting(text: str) -> Iterator[tuple[str, int]]:
    """Each definition of a grammar file's ``text`` with its parentheses' deepest nesting."""
    name, depth, deepest = "", 0, 0
    for line in text.splitlines():
        begun = _DEFINITION.match(line)
        if begun and depth <= 0:
            if name:
                yield name, deepest
            name, depth, deepest = begun.group(1), 0, 0
        quote = ""
        escaped = False
        for char, after in zip(line, line[1:] + " ", strict=False):
            if quote:
                if escaped:
                    escaped = False
                elif char == "\\":
                    escaped = True
                elif char == quote:
                    quote = ""
            elif char == "/" and after == "/":
                break
            elif char in '"/':
                quote = char
            elif char in "([":
                depth += 1
                deepest = max(deepest, depth)
            elif char in ")]":
                depth -= 1
    if name:
        yield name, deepest
