"""The grammar compiler: grammar files in, regular expressions out.

RFC 1738's grammar is regular (no production refers back to itself), so each
start rule can be written as one anchored regular expression. The compiler
reads the grammar files as Lark's own loader does (through
:mod:`rfc1738.bnf.adapter`, as :mod:`rfc1738.bnf.tree` definitions), so it
sees exactly what the reference parser sees, and translates the definitions
into :mod:`rfc1738.compile.ir` trees. Nothing it produces comes from a pattern written by
hand.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ..bnf import tree as bnf
from ..bnf.files import SchemeFile, lark_files
from ..bnf.load_errors import load_tree
from ..bnf.names import base_name
from ..errors import GrammarError, GrammarLimitError, NotRegularError
from ..runtime.automaton import ErrorAutomaton
from ..runtime.layout import Layout, fields_in
from ..runtime.tables import CharsKey, SchemeTable
from .emit import Written, runs_in_linear_time, simplify, write_regex, write_simplified
from .glushkov import NotSupportedError, build
from .ir import Alt, Chars, Group, Lit, Node, Production, Rep, Seq, Term, prefixes
from .limits import MAX_DEPTH, MAX_LITERAL, MAX_REPEAT, MAX_SIZE
from .thompson import matcher_data

# NotRegularError is rfc1738.errors' (run time names it too), importable from here as before.
__all__ = ["CompiledFile", "NotRegularError", "checked_files"]


class CompiledFile:
    """One grammar file as the compiler holds it: definitions in, expressions out.

    It holds the file's definitions (imports resolved, as
    :mod:`rfc1738.bnf.tree` nodes) and compiles a start rule to a regular
    expression, or a production to its character set, on request.

    >>> from rfc1738.bnf.files import shipped_grammar_dir
    >>> http = CompiledFile(shipped_grammar_dir() / "http.lark")
    >>> source, groups = http.compile("httpurl", capture={"host", "port"})
    >>> sorted(groups)
    ['host', 'port']
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            loaded = load_tree(path)
        except RecursionError:
            # Parentheses nested some hundreds deep: Lark's loader, or the
            # adapter's reading of its trees, runs out of Python's recursion.
            raise GrammarLimitError(
                _most_nested(path),
                f"parentheses nested more than {MAX_DEPTH} deep",
                f"{MAX_DEPTH} (MAX_DEPTH)",
                file=str(path),
            ) from None
        #: Rule name → its definition (imported ones included).
        self.rules = loaded.rules
        #: Terminal name → its definition.
        self.terminals = loaded.terminals
        self._translated: dict[tuple[str, frozenset[str]], Node] = {}

    def compile(self, start: str, capture: Collection[str] = ()) -> Written:
        """The regular expression for ``start`` and its capture groups.

        ``capture`` names the productions whose spans are wanted (matched
        without their namespace, see :func:`~rfc1738.runtime.spans.base_name`).
        Raises :class:`NotRegularError` if ``start`` reaches a rule that refers
        back to itself.
        """
        return write_simplified(self.ir(start, capture))

    def layout(self, start: str, fields: Collection[str]) -> Layout:
        """How ``start`` lays out the productions ``fields`` (see :mod:`rfc1738.runtime.layout`)."""
        if start not in self.rules:
            raise GrammarError(f"no rule {start}", file=str(self.path))
        wanted = frozenset(fields)
        return _layout_of(_Translator(self, wanted).rule(start, ()), wanted)

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

    def named(self, start: str) -> Node:
        """The tree of ``start`` with every rule and token kept by name, for the error automaton.

        Rules become :class:`~rfc1738.compile.ir.Production` nodes and each
        terminal or literal a rule uses a :class:`~rfc1738.compile.ir.Term`,
        named as the reference parser names it in errors (``UCHAR``, ``"/"``,
        ``"http://"i``). Raises :class:`NotRegularError` like :meth:`compile`.
        """
        if start not in self.rules:
            raise GrammarError(f"no rule {start}", file=str(self.path))
        return _Translator(self, frozenset(), named=True).rule(start, ())

    def error_automaton(self, start: str) -> ErrorAutomaton | None:
        """The error automaton of ``start`` (:mod:`rfc1738.compile.glushkov`).

        ``None`` where there is none: a grammar that is not regular, or a
        token the automaton cannot mirror the reference parser on (Earley
        explains those errors). :class:`~rfc1738.compile.limits.GrammarLimitError`
        where it would have more states than
        :data:`~rfc1738.compile.limits.MAX_STATES`.
        """
        try:
            return build(self.named(start), start, file=str(self.path))
        except GrammarLimitError:
            raise
        except (GrammarError, NotSupportedError):
            return None

    def scheme_table(
        self, start: str, capture: Collection[str], layout_fields: Collection[str] = ()
    ) -> SchemeTable:
        """Compile ``start`` as a scheme's table (:mod:`rfc1738.runtime.tables`).

        The expression has named groups for ``capture``; the table also holds
        the prefix expression, the error automaton of the start rule and, for
        ``layout_fields`` (the productions the scheme's class writes), the
        start rule's layout.
        """
        rules = tuple(sorted(self.rules))
        wanted = tuple(sorted(capture))
        fields = tuple(sorted(layout_fields))
        try:
            node = self.ir(start, wanted)
            prefixes = self.compile_prefixes(start)
        except NotRegularError as error:
            return SchemeTable(start, rules, wanted, None, {}, None, str(error), None, fields)
        expression, groups = write_simplified(node)
        automaton = self.error_automaton(start)
        layout = self.layout(start, frozenset(fields)) if fields else None
        return SchemeTable(
            start,
            rules,
            wanted,
            expression,
            groups,
            prefixes,
            None,
            None if automaton is None else automaton.to_data(),
            fields,
            layout,
            _linear_matcher(node, automaton),
        )

    def char_sets(self, kinds: Iterable[str] = ("rule", "terminal")) -> dict[CharsKey, str]:
        """The character set of every rule and/or terminal of the file (``kinds``), for the tables.

        Rules that refer back to themselves have none.
        """
        found: dict[CharsKey, str] = {}
        for kind in kinds:
            names, read = (
                (self.rules, self.rule_chars)
                if kind == "rule"
                else (self.terminals, self.terminal_chars)
            )
            # Names an %import brings in without listing them (common__x) are not asked for.
            for name in sorted(n for n in names if "__" not in n):
                try:
                    chars = read(name)
                except GrammarError:  # a rule that refers back to itself
                    continue
                found[(self.path.stem, kind, name)] = "".join(sorted(chars))
        return found

    def terminal_chars(self, name: str) -> frozenset[str]:
        """The single characters terminal ``name`` matches (escapes excluded).

        >>> from rfc1738.bnf.files import shipped_grammar_dir
        >>> sorted(CompiledFile(shipped_grammar_dir() / "common.lark").terminal_chars("SAFE"))
        ['$', '+', '-', '.', '_']
        """
        if name not in self.terminals:
            raise GrammarError(f"no terminal {name}", file=str(self.path))
        node = _Translator(self, frozenset(), top=name).node(self.terminals[name].body, ())
        return _single_chars(node)

    def rule_chars(self, name: str) -> frozenset[str]:
        """The characters that stand for themselves in rule ``name``'s repeated parts.

        For a field such as ``hsegment`` or ``search`` (``*[ uchar | ";" ... ]``)
        these are the characters that need no escaping there; separators
        between repeated parts (the ``/`` of ``hpath``) are not among them.

        >>> from rfc1738.bnf.files import shipped_grammar_dir
        >>> chars = CompiledFile(shipped_grammar_dir() / "http.lark").rule_chars("hpath")
        >>> "/" in chars, "=" in chars, "a" in chars, "%" in chars
        (False, True, True, False)
        """
        if name not in self.rules:
            raise GrammarError(f"no rule {name}", file=str(self.path))
        return _repeated_chars(_Translator(self, frozenset()).rule(name, ()))


def checked_files(files: Mapping[str, SchemeFile]) -> dict[str, CompiledFile]:
    """Each scheme's file loaded, its start rule read within the compiler's limits.

    Raises :class:`~rfc1738.compile.limits.GrammarLimitError` for the first
    scheme (by name) whose start rule goes past a limit of
    :mod:`rfc1738.compile.limits` but the error automaton's states (known
    only once it is built, when the scheme is first compiled). Other
    problems (a file Lark refuses, a rule that refers back to itself) are
    left for when the scheme is used, as before: the reference parser serves
    a grammar that is not regular.
    """
    for directory in sorted({entry.path.parent for entry in files.values()}):
        for path in lark_files(directory):
            _refuse_long_literals(path)
    loaded: dict[str, CompiledFile] = {}
    for scheme, entry in sorted(files.items()):
        try:
            compiled = CompiledFile(entry.path)
            if entry.start in compiled.rules:
                _Translator(compiled, frozenset()).rule(entry.start, ())
        except GrammarLimitError:
            raise
        except GrammarError:
            continue
        loaded[scheme] = compiled
    return loaded


#: What a grammar file writes that may hold a quote or a parenthesis: a literal
#: (``"..."``, ``"..."i``), a comment, a regular expression (``/.../flags``).
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/(?:[^/\\\n]|\\.)+/')

#: The longest escape of a literal (``\U0001F600``): a literal written with more
#: than this many times MAX_LITERAL characters holds more than MAX_LITERAL.
_LONGEST_ESCAPE = 10


def _refuse_long_literals(path: Path) -> None:
    """:class:`GrammarLimitError` for a literal of ``path`` far past MAX_LITERAL, found in its text.

    Lark reads a literal at some microseconds a character, again for each
    file that imports it: a literal of a million characters would take
    seconds to refuse after Lark read it. One that is surely too long (its
    text longer than ``_LONGEST_ESCAPE * MAX_LITERAL`` characters) is
    refused before; others after, by the compiler.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return  # left for Lark to report
    if len(text) <= _LONGEST_ESCAPE * MAX_LITERAL:
        return
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


#: A line that begins a definition: its name (``?rule``, ``!rule``, ``rule.2``, ``TERM``).
_DEFINITION = re.compile(r"^[?!]?(\w+)(?:\.-?\d+)?\s*:", re.MULTILINE)


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


def _linear_matcher(node: Node, automaton: ErrorAutomaton | None) -> dict[str, Any] | None:
    """The route of a scheme: ``None`` for its expression, else the linear matcher's data.

    The expression (Python's ``re``) serves a scheme where it runs in linear
    time (:func:`~rfc1738.compile.emit.runs_in_linear_time`: the shipped
    grammar's schemes, and most edited ones), the linear matcher
    (:mod:`rfc1738.runtime.linear`) where it may not. So does a scheme without
    an error automaton: the matcher then finds where a text too long for the
    reference parser stops fitting, which the prefix expression, written
    with loops that give back, could take quadratic time or worse to find.
    """
    if automaton is not None and runs_in_linear_time(node):
        return None
    return matcher_data(node)


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


def _layout_of(node: Node, fields: frozenset[str]) -> Layout:
    """The layout (:mod:`rfc1738.runtime.layout`) of a start rule's IR with groups ``fields``."""
    counter = [0]

    def convert(node: Node) -> Layout:
        if isinstance(node, Lit):
            return ("lit", node.text, node.ignore_case)
        if isinstance(node, Chars):
            return ("chars", "".join(sorted(node.chars)))
        if isinstance(node, Group):
            if node.name not in fields:
                return convert(node.item)
            inner = convert(node.item)
            return ("group", node.name, inner if fields_in(inner) else None)
        if isinstance(node, Seq):
            return ("seq", tuple(convert(item) for item in node.items))
        if isinstance(node, Alt):
            return ("alt", tuple(convert(option) for option in node.options))
        if isinstance(node, Rep):
            if node.low == 0 and node.high == 1:
                counter[0] += 1
                number = counter[0]
                return ("opt", number, convert(node.item))
            high = -1 if node.high is None else node.high
            return ("rep", convert(node.item), node.low, high)
        raise TypeError(f"no layout for {node!r}")

    layout = convert(node)
    # A field inside another that also stands on its own (nntp's article
    # number is digits, and so is the port inside its group) is written where
    # it stands on its own: the outer group keeps no inner layout.
    return _prune(layout, _outside(layout))


def _outside(layout: Layout) -> frozenset[str]:
    """The fields of ``layout`` that are not inside another field."""
    kind = layout[0]
    if kind == "group":
        return frozenset({layout[1]})
    if kind in ("seq", "alt"):
        return frozenset().union(*(_outside(item) for item in layout[1]))
    if kind == "opt":
        return _outside(layout[2])
    if kind == "rep":
        return _outside(layout[1])
    return frozenset()


def _prune(layout: Layout, outside: frozenset[str]) -> Layout:
    kind = layout[0]
    if kind == "group":
        inner = layout[2]
        if inner is None or fields_in(inner) & outside:
            return ("group", layout[1], None)
        return ("group", layout[1], _prune(inner, outside))
    if kind in ("seq", "alt"):
        return (kind, tuple(_prune(item, outside) for item in layout[1]))
    if kind == "opt":
        return ("opt", layout[1], _prune(layout[2], outside))
    if kind == "rep":
        return ("rep", _prune(layout[1], outside), layout[2], layout[3])
    return layout


class _Translator:
    """:mod:`rfc1738.bnf.tree` definitions → :mod:`rfc1738.compile.ir`, one start rule at a time."""

    def __init__(
        self,
        grammar: CompiledFile,
        capture: frozenset[str],
        *,
        named: bool = False,
        depth: int = 0,
        top: str = "",
    ) -> None:
        self.grammar = grammar
        self.capture = capture
        # Named: rules and the tokens they use are kept by name (for errors);
        # a terminal's own definition is then read by a plain translator.
        self.named = named
        self.done: dict[str, Node] = {}
        #: How deep the definition being read is (limits.MAX_DEPTH), and the
        #: definition a limit names when no rule is being read (a terminal's).
        self.depth = depth
        self.top = top
        # Per node translated (kept alive here), the characters it holds written out.
        self.sizes: dict[int, tuple[Node, int]] = {}
        # Per terminal, its definition translated (a terminal names no rule, so
        # where it is used changes nothing), and the translator of named ones.
        self.terminals: dict[str, Node] = {}
        self.plain: _Translator | None = None

    def rule(self, name: str, path: tuple[str, ...]) -> Node:
        if name in path:
            cycle = " -> ".join((*path[path.index(name) :], name))
            raise NotRegularError(
                f"rule {base_name(name)} refers back to itself ({cycle}): it is not "
                "regular, so the fast parser cannot compile it",
                file=str(self.grammar.path),
            )
        node = self.done.get(name)
        if node is None:
            node = self.node(self.grammar.rules[name].body, (*path, name))
            if self.size(node) > MAX_SIZE:
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

    def terminal(self, name: str, path: tuple[str, ...]) -> Node:
        node = self.terminals.get(name)
        if node is None:
            node = self.terminals[name] = self.node(self.grammar.terminals[name].body, path)
        return node

    def limit(self, path: tuple[str, ...], what: str, limit: str) -> GrammarLimitError:
        """The error for a limit of :mod:`~rfc1738.compile.limits` the rule being read goes past."""
        rule = base_name(path[-1]) if path else self.top
        return GrammarLimitError(str(rule), what, limit, file=str(self.grammar.path))

    def size(self, node: Node) -> int:
        """How many characters ``node`` holds with its bounded repetitions written out.

        Capped a little past :data:`~rfc1738.compile.limits.MAX_SIZE`; each
        node's is kept, so that the rules a rule names are counted once.
        """
        known = self.sizes.get(id(node))
        if known is not None:
            return known[1]
        if isinstance(node, Chars):
            size = 1
        elif isinstance(node, Lit):
            size = len(node.text)
        elif isinstance(node, Seq):
            size = sum(self.size(item) for item in node.items)
        elif isinstance(node, Alt):
            size = sum(self.size(option) for option in node.options)
        elif isinstance(node, Rep):
            size = self.size(node.item) * max(1, node.low, node.high or 0)
        else:
            assert isinstance(node, Group | Production | Term)
            size = self.size(node.item)
        size = min(size, MAX_SIZE + 1)
        self.sizes[id(node)] = (node, size)
        return size

    def node(self, node: bnf.Node, path: tuple[str, ...]) -> Node:
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
            if node.terminal:
                if self.named:
                    # A terminal is one token to the reference parser: named as a
                    # whole, its own definition read by a plain translator.
                    if self.plain is None:
                        self.plain = _Translator(self.grammar, frozenset(), top=self.top)
                    self.plain.depth = self.depth
                    return Term(str(base_name(node.name)), self.plain.terminal(node.name, path))
                return self.terminal(node.name, path)
            return self.rule(node.name, path)
        if isinstance(node, bnf.Literal):
            if len(node.text) > MAX_LITERAL:
                raise self.limit(
                    path,
                    f"a literal of {len(node.text):,} characters",
                    f"{MAX_LITERAL:,} (MAX_LITERAL)",
                )
            found = self.literal(node)
            if self.named:
                # Named as the reference parser names an anonymous literal.
                return Term(f'"{node.text}"{"i" if node.ignore_case else ""}', found)
            return found
        if isinstance(node, bnf.Range):
            chars = Chars(frozenset(chr(c) for c in range(ord(node.low), ord(node.high) + 1)))
            return Term(f'"{node.low}".."{node.high}"', chars) if self.named else chars
        raise GrammarError(
            f"the fast parser cannot compile the regular expression /{node.pattern}/",
            file=str(self.grammar.path),
        )

    def alternatives(self, trees: tuple[bnf.Node, ...], path: tuple[str, ...]) -> Node:
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

    def literal(self, literal: bnf.Literal) -> Node:
        text = literal.text
        if len(text) == 1:
            letters = (
                {text.lower(), text.upper()} if literal.ignore_case and text.isascii() else {text}
            )
            return Chars(frozenset(letters))
        return Lit(text, literal.ignore_case)
