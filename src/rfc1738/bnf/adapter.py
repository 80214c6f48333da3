"""The one Lark adapter: every use of Lark in the package goes through this module.

Lark reads the grammar files and runs the reference (Earley) parser; the rest
of the package never sees a Lark object, only what this module translates
Lark's into:

- a loaded file's definitions as the project's own trees
  (:func:`load_file` → :class:`~rfc1738.bnf.tree.GrammarTree`);
- a file's statements as its text writes them, imports unresolved
  (:func:`read_statements`, for :mod:`rfc1738.bnf.index`);
- a grammar Lark refuses as :class:`LoadFailed`, with what the message names
  (the file and line are found by :mod:`rfc1738.bnf.load_errors`);
- an Earley parser (:func:`earley_parser`) whose errors are
  :class:`EarleyError`: position, expected items, rule; and whose work is
  counted as it parses, so that a budget stops it
  (:class:`EarleyBudgetExceeded`).

Some of what it reads is internal to Lark (``load_grammar``'s helpers, the
names of the helper rules Lark makes, the English of its messages).
``tests/bnf/test_lark_contract.py`` pins each of them, and ``make test`` runs
it against the oldest Lark ``pyproject.toml`` allows as well as the newest.

This module imports Lark at its top: import it only inside the functions
that need it, so that ``import rfc1738`` imports no Lark.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import threading
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias, TypeGuard

from lark import Lark, Token, Tree
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)
from lark.grammar import NonTerminal, Symbol, Terminal
from lark.lexer import Pattern, PatternStr

# Internal to Lark (pinned by the contract test): the functions its own loader
# runs on a grammar file, and the token patterns of its grammar of grammars.
from lark.load_grammar import (
    TERMINALS,
    GrammarBuilder,
    _literal_to_pattern,
    _parse_grammar,
    load_grammar,
)

from ..errors import GrammarError, unfinished_literal_reason
from .names import base_name
from .tree import (
    Alias,
    Choice,
    Definition,
    GrammarTree,
    Literal,
    Node,
    Optional,
    Range,
    Ref,
    Regexp,
    Repeat,
    Sequence,
)

__all__ = [
    "LARK_VERSION",
    "EarleyBudgetExceeded",
    "EarleyError",
    "EarleyParser",
    "LoadFailed",
    "ParseTree",
    "WrittenDeclare",
    "WrittenDefinition",
    "WrittenIgnore",
    "WrittenImport",
    "check_loads",
    "earley_parser",
    "is_parse_tree",
    "load_file",
    "read_statements",
    "tree_spans",
]

#: The Lark release this module runs with.
LARK_VERSION: str = __import__("lark").__version__

#: The reference parser's parse tree, for annotations (a Lark ``Tree`` of ``Token``).
ParseTree: TypeAlias = Tree[Token]


def is_parse_tree(node: object) -> TypeGuard[Tree[Token]]:
    """Whether ``node`` is a node of a parse tree (not a token, a leaf)."""
    return isinstance(node, Tree)


_EXTENSION = ".lark"


# ---- errors of loading a grammar ----


class LoadFailed(Exception):
    """Lark refused a grammar file: its message, and what the message names.

    :mod:`rfc1738.bnf.load_errors` turns it into a
    :class:`~rfc1738.errors.GrammarError` at the file and line at fault.
    """

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        at_end_of_line: bool = False,
        missing_file: bool = False,
        undefined: str | None = None,
        duplicate: str | None = None,
        import_module: str | None = None,
        names: tuple[str, ...] = (),
        fragments: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        #: The line Lark gives (in the file it was parsing), if any.
        self.line = line
        #: Lark reported it at an end-of-line token (the statement ended too early).
        self.at_end_of_line = at_end_of_line
        #: An ``%import`` named a file that is not there.
        self.missing_file = missing_file
        #: The name used but not defined, if that is the error.
        self.undefined = undefined
        #: The name defined more than once, if that is the error.
        self.duplicate = duplicate
        #: The file a colliding ``%import`` names, if that is the error.
        self.import_module = import_module
        #: Names the message mentions, most telling first.
        self.names = names
        #: Grammar text the message quotes in parentheses (``Empty terminals ... ("")``).
        self.fragments = fragments


def _failed(exc: BaseException) -> LoadFailed:
    """What Lark (or the ``OSError`` it lets through) raised, as :class:`LoadFailed`."""
    if isinstance(exc, FileNotFoundError) and exc.filename:
        return LoadFailed(f"no grammar file {exc.filename} to import", missing_file=True)
    line = _error_line(exc)
    token = getattr(exc, "token", None)
    at_end = getattr(token, "type", None) in _END_OF_LINE
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        found = _describe(token.type) if token.type in _DESCRIBED else repr(str(token))
        expected = sorted(_describe(name) for name in exc.expected)
        # At the end of a line, Lark's column is that of a later line.
        column = f" at column {exc.column}" if exc.column and exc.column > 0 and not at_end else ""
        message = f"unexpected {found}{column}; expected {' or '.join(expected)}"
        return LoadFailed(message, line=line, at_end_of_line=at_end)
    raw = str(exc)
    # Lark may append a picture of the grammar text after a blank line.
    text = raw.strip().split("\n\n")[0].strip().removesuffix(":")
    names = _quoted(raw)
    undefined = duplicate = module = None
    if "used but not defined" in raw:
        # "Rule 'b' used but not defined (in rule a)"; "Terminal used but not defined: B"
        undefined = names[0] if names else raw.rpartition(":")[2].strip()
    elif "defined more than once" in raw and names:
        duplicate = names[0]
    elif raw.startswith("Cannot import") and len(names) > 1:
        # "Cannot import 'x' from 'common.lark': Symbol already defined."
        module = names[1]
    return LoadFailed(
        unmangled(_without_line(text)),
        line=line,
        at_end_of_line=at_end,
        undefined=undefined,
        duplicate=duplicate,
        import_module=module,
        # "Recursion in terminal 'A' ...", "Rules aren't allowed inside terminals
        # (NonTerminal('b') in A)", "Terminals cannot be empty (A)".
        names=(*names, *_words_after(raw, " in "), *_in_parentheses(raw)),
        fragments=tuple(_in_parentheses(raw)),
    )


def unmangled(message: str) -> str:
    """``message`` with each namespaced name (``http__hpath``) as its base name.

    >>> unmangled("Rule 'http__hsegmnt' used but not defined (in rule http__hpath)")
    "Rule 'hsegmnt' used but not defined (in rule hpath)"
    """
    out: list[str] = []
    word = ""
    for char in message + " ":
        if char.isascii() and (char.isalnum() or char == "_"):
            word += char
            continue
        out.append(base_name(word) if "__" in word else word)
        out.append(char)
        word = ""
    return "".join(out)[:-1]


def _without_line(text: str) -> str:
    """Lark's "..., at line 3 column 5" as "... at column 5": the line goes with the file.

    >>> _without_line("Expecting a value, at line 13 column 21")
    'Expecting a value at column 21'
    >>> _without_line("Unexpected input at line 2 column 4 in /g/x.lark")
    'Unexpected input at column 4'
    """
    head, found, tail = text.partition(" at line ")
    if not found:
        return text
    words = tail.split()
    column = words[2] if len(words) > 2 and words[1] == "column" else None
    head = head.removesuffix(",")
    return f"{head} at column {column}" if column else head


def _error_line(exc: BaseException) -> int | None:
    """The line a Lark syntax error gives, as an attribute or in its message."""
    line = getattr(exc, "line", None)
    if isinstance(line, int) and line > 0:
        return line
    words = str(exc).replace(",", " ").split()
    for word, number in itertools.pairwise(words):
        if word == "line" and number.isdigit():
            return int(number)
    return None


#: How a syntax error names the tokens of Lark's grammar of grammars.
_DESCRIBED = {
    "RULE": "rule name",
    "TERMINAL": "terminal name",
    "STRING": "string literal",
    "REGEXP": "regular expression",
    "OP": "operator",
    "NUMBER": "number",
    "_NL": "end of line",
    "_NL_OR": '"|" on the next line',
    "$END": "end of file",
}

_END_OF_LINE = frozenset({"_NL", "_NL_OR", "$END"})


def _describe(name: str) -> str:
    """A token type of Lark's grammar parser in words: ``_RBRA`` → ``"]"``."""
    if name in _DESCRIBED:
        return _DESCRIBED[name]
    pattern = TERMINALS.get(name)
    if isinstance(pattern, str):
        literal = pattern.split("(?")[0].replace("\\", "")
        if literal:
            return f'"{literal}"'
    return name


def _quoted(message: str) -> list[str]:
    parts = message.split("'")
    return [parts[i] for i in range(1, len(parts) - 1, 2)]


def _words_after(message: str, marker: str) -> list[str]:
    if marker not in message:
        return []
    return [message.rpartition(marker)[2].strip(" ()")]


def _in_parentheses(message: str) -> list[str]:
    if "(" not in message:
        return []
    return [message.rpartition("(")[2].strip(" ()")]


# ---- a loaded file as the project's tree ----


def load_file(path: Path) -> GrammarTree:
    """The definitions of ``path`` as Lark's loader reads them (imports resolved).

    Raises :class:`LoadFailed` if Lark refuses the file.

    >>> from rfc1738.bnf.files import shipped_grammar_dir
    >>> http = load_file(shipped_grammar_dir() / "http.lark")
    >>> "httpurl" in http.rules, "hostport" in http.rules, "UCHAR" in http.terminals
    (True, True, True)
    """
    try:
        grammar, _ = load_grammar(  # type: ignore[no-untyped-call]
            path.read_text(encoding="utf-8"), str(path), [str(path.parent)], False
        )
    except (LarkError, OSError) as exc:
        raise _failed(exc) from exc
    for name, params, _tree, _options in grammar.rule_defs:
        if params:
            raise GrammarError(f"rule {name} has template parameters", file=str(path))
    term_trees = {str(name): tree for name, (tree, _priority) in grammar.term_defs}
    reader = _Reader(path, {id(tree): name for name, tree in term_trees.items()})
    terminals = {
        name: Definition(name, reader.definition(tree), terminal=True)
        for name, tree in term_trees.items()
    }
    rules = {
        str(name): Definition(str(name), reader.node(tree), priority=options.priority or 0)
        for name, _params, tree, options in grammar.rule_defs
    }
    return GrammarTree(path, rules, terminals)


#: The bounds of each repetition operator.
_OPERATORS: dict[str, tuple[int, int | None]] = {"*": (0, None), "+": (1, None), "?": (0, 1)}


class _Reader:
    """Lark's definition trees → :mod:`rfc1738.bnf.tree` nodes."""

    def __init__(self, path: Path, terminal_trees: dict[int, str]) -> None:
        self.path = path
        # Lark's loader puts a terminal's tree where another terminal names it:
        # the very same object, so the name can be read back.
        self.terminal_trees = terminal_trees

    def definition(self, tree: Tree[Token]) -> Node:
        """A terminal's own tree (its root is not a reference to itself)."""
        return self.node(tree)

    def node(self, tree: Tree[Token]) -> Node:
        kind = tree.data
        children = tree.children
        if kind == "expansions":
            options = [self.node(c) for c in children if isinstance(c, Tree)]
            return options[0] if len(options) == 1 else Choice(tuple(options))
        if kind == "expansion":
            items = [self.node(c) for c in children if isinstance(c, Tree)]
            return items[0] if len(items) == 1 else Sequence(tuple(items))
        if kind == "alias":
            inner = children[0]
            assert isinstance(inner, Tree)
            name = children[1]  # a NonTerminal naming the alias
            return Alias(self.node(inner), str(getattr(name, "name", name)))
        if kind == "maybe":
            inner = children[0]
            assert isinstance(inner, Tree)
            return Optional(self.node(inner))
        if kind == "expr":
            return self.repetition(children)
        if kind == "value":
            return self.value(children[0])
        if kind == "literal":
            return self.literal(children[0])
        if kind == "range":
            low, high = (str(_pattern(c).value) for c in children if isinstance(c, Token))
            return Range(low, high)
        raise GrammarError(f"cannot read {kind!r} (a Lark construct)", file=str(self.path))

    def repetition(self, children: list[Tree[Token] | Token]) -> Node:
        inner = children[0]
        assert isinstance(inner, Tree)
        item = self.node(inner)
        # x*, x+, x? hold their operator; x ~ n and x ~ n..m hold "~" and the numbers.
        numbers = [int(str(c)) for c in children[1:] if str(c).isdigit()]
        if numbers:
            return Repeat(item, numbers[0], numbers[-1])
        low, high = _OPERATORS[str(children[1])]
        return Repeat(item, low, high)

    def value(self, leaf: object) -> Node:
        if isinstance(leaf, Terminal):
            return Ref(str(leaf.name), terminal=True)
        if isinstance(leaf, NonTerminal):
            return Ref(str(leaf.name))
        if isinstance(leaf, Tree):
            name = self.terminal_trees.get(id(leaf))
            return Ref(name, terminal=True) if name is not None else self.node(leaf)
        raise GrammarError(f"cannot read {leaf!r} (a Lark construct)", file=str(self.path))

    def literal(self, token: object) -> Node:
        pattern = _pattern(token)
        if isinstance(pattern, PatternStr):
            line = token.line if isinstance(token, Token) and token.line else 0
            return Literal(str(pattern.value), "i" in pattern.flags, line=line)
        return Regexp(str(pattern.value), frozenset(pattern.flags))


def _pattern(token: object) -> Pattern:
    """Lark's reading of a ``"..."``/``/.../`` literal: escapes and flags as it reads them."""
    pattern: Pattern = _literal_to_pattern(token)  # type: ignore[no-untyped-call]
    return pattern


def check_loads(path: Path, start: str | None) -> None:
    """Raise :class:`LoadFailed` if Lark refuses ``path`` (or its ``start`` rule)."""
    try:
        grammar, _ = load_grammar(  # type: ignore[no-untyped-call]
            path.read_text(encoding="utf-8"), str(path), [str(path.parent)], False
        )
        if start is not None:
            grammar.compile([start], set())
    except (LarkError, OSError) as exc:
        raise _failed(exc) from exc


# ---- a file's statements, as written ----


@dataclass(frozen=True, slots=True)
class WrittenDefinition:
    """A rule or terminal definition as its file writes it."""

    name: str
    terminal: bool
    line: int
    #: The names its expansion refers to, in the order written (no template parameters).
    symbols: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WrittenDeclare:
    """A name ``%declare`` introduces (defined by no statement)."""

    name: str
    terminal: bool


@dataclass(frozen=True, slots=True)
class WrittenIgnore:
    """The terminals an ``%ignore`` names."""

    symbols: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WrittenImport:
    """One ``%import``: the file it reads (``None``: Lark's own library) and its names."""

    module: Path | None
    #: Name in that file → local name, in the order written.
    names: tuple[tuple[str, str], ...]
    line: int
    #: Lark's objection to the statement ("Nothing was imported ..."), if any.
    error: LoadFailed | None = None


Written = WrittenDefinition | WrittenDeclare | WrittenIgnore | WrittenImport


def read_statements(text: str, path: Path) -> list[Written]:
    """The statements of one file, as Lark's grammar parser reads them.

    Raises :class:`LoadFailed` if the file does not parse.

    >>> from rfc1738.bnf.files import shipped_grammar_dir
    >>> path = shipped_grammar_dir() / "http.lark"
    >>> found = read_statements(path.read_text(), path)
    >>> next(s for s in found if isinstance(s, WrittenDefinition)).symbols
    ('hostport', 'hpath', 'search')
    """
    try:
        statements: Tree[Token] = _parse_grammar(text, str(path))  # type: ignore[no-untyped-call]
    except (LarkError, GrammarError) as exc:
        raise _failed(exc) from exc
    found: list[Written] = []
    for statement in statements.children:
        if isinstance(statement, Tree):
            found.extend(_statement(statement, path))
    return found


def _statement(statement: Tree[Token], path: Path) -> Iterator[Written]:
    kind = statement.data
    if kind in ("override", "extend"):
        (statement,) = statement.children  # type: ignore[assignment]
        kind = statement.data
    if kind in ("rule", "term"):
        token = next(c for c in statement.children if isinstance(c, Token))
        expansions = statement.children[-1]
        assert isinstance(expansions, Tree)
        # A template's parameters are no references (rule{x}: ... x ...).
        params = {
            str(t)
            for child in statement.children
            if isinstance(child, Tree) and child.data == "template_params"
            for t in child.children
        }
        symbols = tuple(s for s in _symbols(expansions) if s not in params)
        yield WrittenDefinition(str(token), kind == "term", token.line or 0, symbols)
    elif kind == "declare":
        for symbol in statement.children:
            assert isinstance(symbol, Symbol)
            yield WrittenDeclare(str(symbol.name), bool(symbol.is_term))
    elif kind == "ignore":
        yield WrittenIgnore(tuple(_symbols(statement)))
    elif kind == "import":
        line = _first_line(statement)
        try:
            dotted, base, aliases = GrammarBuilder()._unpack_import(  # type: ignore[no-untyped-call]
                statement, str(path)
            )
        except LarkError as exc:  # "Nothing was imported from grammar ..."
            yield WrittenImport(None, (), line, _failed(exc))
            return
        relative = Path(os.path.join(*dotted) + _EXTENSION)
        module = Path(base) / relative if base is not None else None
        names = tuple((str(original), str(local)) for original, local in aliases.items())
        yield WrittenImport(module, names, line)


def _symbols(tree: Tree[Token]) -> Iterator[str]:
    """The names a definition's expansion refers to, in the order written."""
    for child in tree.children:
        if isinstance(child, Symbol):
            yield str(child.name)
        elif isinstance(child, Tree):
            yield from _symbols(child)


def _first_line(tree: Tree[Token]) -> int:
    for token in tree.scan_values(lambda v: isinstance(v, Token)):
        if token.line:
            return int(token.line)
    return 0


# ---- the Earley parser ----


# Lark turns ``x*``, ``x+`` and ``[x]`` into helper rules named after their
# owner (``__hsegment_star_4``); errors name the owner instead.
_HELPER_RULE = re.compile(r"^__(?P<owner>\w+?)_(?:star|plus|opt)_\d+$")


class EarleyError(Exception):
    """Where the Earley parser stopped: position, expected items, innermost rule.

    ``reason`` is the wording of an error inside a literal the URL began
    (:func:`rfc1738.errors.unfinished_literal_reason`), else ``None``.
    """

    def __init__(
        self, position: int, expected: frozenset[str], rule: str, reason: str | None = None
    ) -> None:
        super().__init__(f"at {position}: expected {sorted(expected)} in {rule}")
        self.position = position
        #: Terminals by grammar name (``UCHAR``), literals as written (``"/"``, ``"http://"i``).
        self.expected = expected
        self.rule = rule
        self.reason = reason


class EarleyBudgetExceeded(Exception):
    """The Earley parser did more work than it was allowed, and was stopped.

    ``position`` is how far into the text it had read; ``budget`` the work it
    was allowed (see :class:`EarleyParser`).
    """

    def __init__(self, position: int, budget: int) -> None:
        super().__init__(f"stopped at {position} after {budget} steps")
        self.position = position
        self.budget = budget


#: No budget: a count that never runs out in a parse that ends.
_UNLIMITED = 1 << 62


class _Meter:
    """The work one parse may still do, and how far into its text it has read."""

    __slots__ = ("budget", "left", "position")

    def __init__(self, budget: int | None) -> None:
        self.budget = budget
        self.left = budget if budget is not None else _UNLIMITED
        self.position = 0

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise EarleyBudgetExceeded(self.position, self.budget or 0)


#: The meter of the parse each thread is running (Lark's parser objects are
#: shared by the threads that parse with one grammar: the count is not).
_running = threading.local()


def _meter() -> _Meter:
    meter: _Meter | None = getattr(_running, "meter", None)
    return meter if meter is not None else _Meter(None)


class _MeteredSet:
    """Lark's ordered set of Earley items, counting the work done with it.

    The Earley parser keeps its items in sets of this one class (its ``Set``:
    one per position, and the items to scan). Adding an item is a step, and
    so is each item a loop over a set goes through: the completer walks the
    whole set of the position where a completed item began, which is where
    the time goes (more than linear in the length) on a grammar that reads a
    text in many ways. The parse tree is built from the items made, so what
    is counted bounds its time and memory too. Ordered as Lark's own
    ``OrderedSet`` is (a dictionary), so that trees come out the same.
    """

    __slots__ = ("_items", "_meter")

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self._items = dict.fromkeys(items)
        self._meter = _meter()
        self._meter.spend(len(self._items))

    def __contains__(self, item: object) -> bool:
        return item in self._items

    def add(self, item: Any) -> None:
        self._items[item] = None
        meter = self._meter
        meter.left -= 1
        if meter.left < 0:
            meter.spend(0)

    def remove(self, item: Any) -> None:
        del self._items[item]

    def __iter__(self) -> Iterator[Any]:
        self._meter.spend(len(self._items))
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)


def _metered_matcher(match: Callable[..., Any]) -> Callable[..., Any]:
    """Lark's terminal matcher, noting the position the parse has reached."""

    def matcher(term: Any, text: str, index: int = 0) -> Any:
        _meter().position = index
        return match(term, text, index)

    return matcher


class EarleyParser:
    """Lark's Earley parser of one grammar file for one start rule.

    ``budget`` bounds the work of one parse, in steps (an Earley item made,
    or one gone through; see :class:`_MeteredSet`): past it, :meth:`parse`
    raises :class:`EarleyBudgetExceeded` (``None``: no bound).
    """

    def __init__(self, lark: Lark, start: str, budget: int | None = None) -> None:
        #: The Lark object itself (for tools that take one, such as Hypothesis' ``from_lark``).
        self.lark = lark
        self.start = start
        self.budget = budget
        self._display = _terminal_display_names(lark)
        self._literals = {t.name: t.pattern for t in lark.terminals if _is_literal(t.pattern)}
        # The hook: Lark's Earley parser (lark.parser.parser, an xearley.Parser
        # for the dynamic lexer) makes its item sets with its `Set` and
        # matches terminals with its `term_matcher`, both read at each parse.
        earley = lark.parser.parser
        earley.Set = _MeteredSet
        earley.term_matcher = _metered_matcher(earley.term_matcher)

    def _metered_parse(self, text: str, meter: _Meter | None = None) -> Tree[Token]:
        _running.meter = meter or _Meter(self.budget)
        try:
            return self.lark.parse(text)
        finally:
            _running.meter = None

    def work(self, text: str) -> int:
        """The steps a parse of ``text`` takes, with no budget (whether it parses or not).

        For measuring the budget against: docs/parsers.md's figures and the tests.
        """
        meter = _Meter(None)
        with contextlib.suppress(UnexpectedInput):
            self._metered_parse(text, meter)
        return _UNLIMITED - meter.left

    def parse(self, text: str) -> Tree[Token]:
        """The parse tree of ``text``; :class:`EarleyError`, :class:`EarleyBudgetExceeded`."""
        try:
            return self._metered_parse(text)
        except UnexpectedInput as exc:
            raise self._error(text, exc) from None

    def accepts(self, text: str) -> bool:
        """Whether ``text`` parses (or :class:`EarleyBudgetExceeded`)."""
        try:
            self._metered_parse(text)
        except UnexpectedInput:
            return False
        return True

    def _error(self, text: str, exc: UnexpectedInput) -> EarleyError:
        display = self._display
        reason = None
        if isinstance(exc, UnexpectedCharacters):
            last = exc.pos_in_stream if exc.pos_in_stream is not None else 0
            allowed, items = set(exc.allowed), exc.considered_rules or []
            progress, begun = self._literal_progress(text, last, exc.allowed)
            position = last + progress
            if begun:
                # Inside a literal the URL began: what was expected is that
                # literal, in the production it is written in.
                allowed = begun
                items = [item for item in items if str(item.expect.name) in begun]
            expected = frozenset(display.get(str(name), str(name)) for name in allowed)
            if begun:
                reason = unfinished_literal_reason(text, last, position, expected)
            # The innermost production the error is inside: of the matches
            # begun before the error, the one that began last.
            inside = [item for item in items if item.start < position] or items
            innermost = max(
                inside, key=lambda item: (item.start, str(item.rule.origin.name)), default=None
            )
            rule = _rule_name(str(innermost.rule.origin.name)) if innermost else self.start
        elif isinstance(exc, UnexpectedEOF):
            position = len(text)
            expected = frozenset(display.get(str(name), str(name)) for name in exc.expected)
            rules = sorted(
                (ptr, _rule_name(str(rule.origin.name))) for rule, ptr in (exc.state or ())
            )
            rule = rules[-1][1] if rules else self.start
        else:  # pragma: no cover - the Earley parser raises only the two above
            position, expected, rule = 0, frozenset(), self.start
        return EarleyError(position, expected, rule, reason)

    def _literal_progress(
        self, text: str, position: int, allowed: set[str]
    ) -> tuple[int, set[str]]:
        """How far into the expected literals the text goes before it differs, and which.

        Lark reports a literal that does not match (``"http://"i`` against
        ``http:x``) at its first character; the character that is wrong is
        further on, where the longest viable prefix ends. The literals the
        text goes furthest into are returned by terminal name (none where it
        begins none). One that begins with ``%`` (gopher's ``"%09"``) is left
        out: begun, it is also an escape begun, reported at its ``%``.
        """
        longest, begun = 0, set[str]()
        for name in allowed:
            pattern = self._literals.get(name)
            if pattern is None or str(pattern.value).startswith("%"):
                continue
            fold = "i" in pattern.flags
            count = 0
            for index, char in enumerate(str(pattern.value)):
                found = text[position + index : position + index + 1]
                if not found or (found.lower() if fold else found) != (
                    char.lower() if fold else char
                ):
                    break
                count = index + 1
            if count > longest:
                longest, begun = count, {name}
            elif count == longest and count:
                begun.add(name)
        return longest, begun


def earley_parser(path: Path, start: str, budget: int | None = None) -> EarleyParser:
    """Lark's Earley parser for ``start`` in ``path``, with the reference parser's options.

    ``budget`` bounds the work of each parse (see :class:`EarleyParser`).
    Raises :class:`LoadFailed` if Lark refuses the grammar.
    """
    try:
        lark = Lark.open(
            str(path),
            start=start,
            parser="earley",
            lexer="dynamic",
            ambiguity="resolve",
            propagate_positions=True,
            keep_all_tokens=True,
            maybe_placeholders=False,
        )
    except (LarkError, OSError) as exc:
        raise _failed(exc) from exc
    return EarleyParser(lark, start, budget)


def _is_literal(pattern: object) -> bool:
    return isinstance(pattern, PatternStr)


def _terminal_display_names(parser: Lark) -> dict[str, str]:
    """How each terminal of ``parser`` is named in errors.

    Named terminals keep their grammar name (``UCHAR``); the anonymous ones Lark
    makes for literals are shown as the literal (``"/"``, ``"http://"i``).
    """
    names: dict[str, str] = {}
    for terminal in parser.terminals:
        pattern = terminal.pattern
        if isinstance(pattern, PatternStr):
            flags = "i" if "i" in pattern.flags else ""
            names[terminal.name] = f'"{pattern.value}"{flags}'
        else:
            # Terminals an imported rule uses arrive namespaced (common__ALPHA).
            names[terminal.name] = str(base_name(terminal.name))
    return names


def _rule_name(name: str) -> str:
    helper = _HELPER_RULE.match(name)
    return helper.group("owner") if helper else name


def tree_spans(tree: Tree[Token], wanted: Collection[str]) -> dict[str, tuple[int, int]]:
    """The ``(start, end)`` of the first node of each ``wanted`` production in ``tree``.

    Nodes are matched by base name (``common__host`` is ``host``). Nodes that
    matched the empty string carry no position in Lark; they get the position
    where the previous token ended, found by walking the tree in order (the
    tree keeps every token).
    """
    spans: dict[str, tuple[int, int]] = {}
    cursor = 0
    stack: list[Tree[Token] | Token] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Token):
            if node.end_pos is not None:
                cursor = node.end_pos
            continue
        stack.extend(reversed(node.children))
        name = base_name(str(node.data))
        if name in wanted and name not in spans:
            if node.meta.empty:
                spans[name] = (cursor, cursor)
            else:
                spans[name] = (node.meta.start_pos, node.meta.end_pos)
    return spans
