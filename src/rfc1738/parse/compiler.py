"""The grammar compiler: grammar files in, regular expressions out.

RFC 1738's grammar is regular (no production refers back to itself), so each
start rule can be written as one anchored regular expression. The compiler
reads the grammar files through Lark's own loader, so it sees exactly what the
reference parser sees, and translates the rule definitions into
:mod:`rfc1738.parse.ir` trees. Nothing it produces comes from a pattern written by
hand.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from lark import Token, Tree
from lark.grammar import NonTerminal, Terminal
from lark.lexer import PatternStr

from ..bnf.adapter import LoadedFile, lark_literal
from ..bnf.names import base_name
from ..errors import GrammarError
from .ir import Alt, Chars, Group, Lit, Node, Rep, Seq, prefixes
from .regex import Written, simplify, write_regex

__all__ = ["GrammarFile", "NotRegularError"]


class NotRegularError(GrammarError):
    """A rule that refers back to itself: no regular expression can match it."""


class GrammarFile:
    """The rule and terminal definitions of one grammar file (imports resolved).

    >>> from rfc1738.bnf.files import shipped_grammar_dir
    >>> http = GrammarFile(shipped_grammar_dir() / "http.lark")
    >>> source, groups = http.compile("httpurl", capture={"host", "port"})
    >>> sorted(groups)
    ['host', 'port']
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        loaded = LoadedFile(path)
        self.rules = loaded.rules
        self.terminals = loaded.terminals
        self._translated: dict[tuple[str, frozenset[str]], Node] = {}

    def compile(self, start: str, capture: Collection[str] = ()) -> Written:
        """The regular expression for ``start`` and its capture groups.

        ``capture`` names the productions whose spans are wanted (matched
        without their namespace, see :func:`~rfc1738.parse.spans.base_name`).
        Raises :class:`NotRegularError` if ``start`` reaches a rule that refers
        back to itself.
        """
        if start not in self.rules:
            raise GrammarError(f"no rule {start}", file=str(self.path))
        node = _Translator(self, frozenset(capture)).rule(start, ())
        return write_regex(node)

    def ir(self, start: str, capture: Collection[str] = ()) -> Node:
        """The simplified tree of ``start`` that :meth:`compile` writes (for other dialects)."""
        if start not in self.rules:
            raise GrammarError(f"no rule {start}", file=str(self.path))
        return simplify(_Translator(self, frozenset(capture)).rule(start, ()))

    def compile_prefixes(self, start: str) -> str:
        """An expression matching every prefix of every match of ``start``."""
        if start not in self.rules:
            raise GrammarError(f"no rule {start}", file=str(self.path))
        return write_regex(prefixes(simplify(_Translator(self, frozenset()).rule(start, ()))))[0]

    def terminal_chars(self, name: str) -> frozenset[str]:
        """The single characters terminal ``name`` matches (escapes excluded).

        >>> from rfc1738.bnf.files import shipped_grammar_dir
        >>> sorted(GrammarFile(shipped_grammar_dir() / "common.lark").terminal_chars("SAFE"))
        ['$', '+', '-', '.', '_']
        """
        if name not in self.terminals:
            raise GrammarError(f"no terminal {name}", file=str(self.path))
        node = _Translator(self, frozenset()).tree(self.terminals[name], ())
        return _single_chars(node)

    def rule_chars(self, name: str) -> frozenset[str]:
        """The characters that stand for themselves in rule ``name``'s repeated parts.

        For a field such as ``hsegment`` or ``search`` (``*[ uchar | ";" ... ]``)
        these are the characters that need no escaping there; separators
        between repeated parts (the ``/`` of ``hpath``) are not among them.

        >>> from rfc1738.bnf.files import shipped_grammar_dir
        >>> chars = GrammarFile(shipped_grammar_dir() / "http.lark").rule_chars("hpath")
        >>> "/" in chars, "=" in chars, "a" in chars, "%" in chars
        (False, True, True, False)
        """
        if name not in self.rules:
            raise GrammarError(f"no rule {name}", file=str(self.path))
        return _repeated_chars(_Translator(self, frozenset()).rule(name, ()))


def _single_chars(node: Node) -> frozenset[str]:
    if isinstance(node, Chars):
        return node.chars
    if isinstance(node, Alt):
        return frozenset().union(*(_single_chars(option) for option in node.options))
    return frozenset()


def _repeated_chars(node: Node) -> frozenset[str]:
    if isinstance(node, Rep):
        return _single_chars(node.item) | _repeated_chars(node.item)
    if isinstance(node, Seq):
        return frozenset().union(*(_repeated_chars(item) for item in node.items))
    if isinstance(node, Alt):
        return frozenset().union(*(_repeated_chars(option) for option in node.options))
    if isinstance(node, Group):
        return _repeated_chars(node.item)
    return frozenset()


class _Translator:
    """Lark rule trees → :mod:`rfc1738.parse.ir`, one start rule at a time."""

    def __init__(self, grammar: GrammarFile, capture: frozenset[str]) -> None:
        self.grammar = grammar
        self.capture = capture
        self.done: dict[str, Node] = {}

    def rule(self, name: str, path: tuple[str, ...]) -> Node:
        name = str(name)
        if name in path:
            cycle = " -> ".join((*path[path.index(name) :], name))
            raise NotRegularError(
                f"rule {base_name(name)} refers back to itself ({cycle}): it is not "
                "regular, so the fast parser cannot compile it",
                file=str(self.grammar.path),
            )
        node = self.done.get(name)
        if node is None:
            tree, _priority = self.grammar.rules[name]
            node = self.tree(tree, (*path, name))
            if base_name(name) in self.capture:
                node = Group(base_name(name), node)
            self.done[name] = node
        return node

    def tree(self, tree: Tree[Token], path: tuple[str, ...]) -> Node:
        kind = tree.data
        children = tree.children
        if kind == "expansions":
            return self.alternatives([c for c in children if isinstance(c, Tree)], path)
        if kind == "alias":
            first = children[0]
            assert isinstance(first, Tree)
            return self.tree(first, path)
        if kind == "expansion":
            items = [self.tree(c, path) for c in children if isinstance(c, Tree)]
            flat: list[Node] = []
            for item in items:
                flat.extend(item.items if isinstance(item, Seq) else (item,))
            return flat[0] if len(flat) == 1 else Seq(tuple(flat))
        if kind == "maybe":
            inner = children[0]
            assert isinstance(inner, Tree)
            return Rep(self.tree(inner, path), 0, 1)
        if kind == "expr":
            return self.repetition(children, path)
        if kind == "value":
            return self.value(children[0], path)
        if kind == "literal":
            return self.literal(children[0])
        if kind == "range":
            low, high = (str(lark_literal(c).value) for c in children if isinstance(c, Token))
            return Chars(frozenset(chr(c) for c in range(ord(low), ord(high) + 1)))
        raise GrammarError(f"the fast parser cannot compile {kind!r}", file=str(self.grammar.path))

    def alternatives(self, trees: list[Tree[Token]], path: tuple[str, ...]) -> Node:
        options = [(self.priority(t), self.tree(t, path)) for t in trees]
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

    def priority(self, tree: Tree[Token]) -> int:
        """The highest priority of a rule an alternative names directly."""
        best = 0
        for child in tree.iter_subtrees():
            for leaf in child.children:
                if isinstance(leaf, NonTerminal) and leaf.name in self.grammar.rules:
                    best = max(best, self.grammar.rules[leaf.name][1])
        return best

    def repetition(self, children: list[Tree[Token] | Token], path: tuple[str, ...]) -> Node:
        inner = children[0]
        assert isinstance(inner, Tree)
        item = self.tree(inner, path)
        if len(children) == 2:
            low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[str(children[1])]
        else:
            low, high = int(str(children[1])), int(str(children[2]))
        return Rep(item, low, high)

    def value(self, leaf: object, path: tuple[str, ...]) -> Node:
        if isinstance(leaf, NonTerminal):
            return self.rule(leaf.name, path)
        if isinstance(leaf, Terminal):
            return self.tree(self.grammar.terminals[leaf.name], path)
        if isinstance(leaf, Tree):
            return self.tree(leaf, path)
        raise GrammarError(f"the fast parser cannot compile {leaf!r}", file=str(self.grammar.path))

    def literal(self, token: object) -> Node:
        pattern = lark_literal(token)
        if not isinstance(pattern, PatternStr):
            raise GrammarError(
                f"the fast parser cannot compile the regular expression {token}",
                file=str(self.grammar.path),
            )
        text = str(pattern.value)
        ignore_case = "i" in pattern.flags
        if len(text) == 1:
            letters = {text.lower(), text.upper()} if ignore_case and text.isascii() else {text}
            return Chars(frozenset(letters))
        return Lit(text, ignore_case)
