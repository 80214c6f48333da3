"""The compile pipeline: a grammar directory in, the tables the run time reads out.

Read :func:`compile_directory` and :func:`compile_scheme` top to bottom, as
re2c's ``main``: each grammar file is read into a tree (Lark, through
:mod:`rfc1738.bnf`), each scheme's start rule is lowered to the IR
(:mod:`~rfc1738.compile.lower`), simplified (:mod:`~rfc1738.compile.optimise`)
and written as a regular expression (:mod:`~rfc1738.compile.emit`); its error
automaton is built from the same rules kept by name
(:mod:`~rfc1738.compile.glushkov`), the linear matcher where the expression
may backtrack (:mod:`~rfc1738.compile.thompson`), and the layout its class
writes objects with; the character sets come last. The result is a
:class:`~rfc1738.runtime.tables.Tables`: what the wheel holds
(:func:`tables_module`, ``hatch_build.py``), a standalone module, or the disk
cache.

The run time reaches this module through one entry, :func:`compiled_file`
(and :func:`checked_files`), for an edited grammar that has no tables yet.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any, Protocol

from ..bnf.files import SchemeFile, lark_files
from ..errors import GrammarError
from ..runtime.automaton import ErrorAutomaton
from ..runtime.hosts import CHECKED_PRODUCTIONS
from ..runtime.layout import Layout
from ..runtime.tables import CharsKey, SchemeTable, Tables, content_key, module_text
from ..version import __version__
from .emit import (
    PYTHON,
    PYTHON_FORMS,
    Dialect,
    Expression,
    runs_in_linear_time,
    write_regex,
    write_simplified,
)
from .glushkov import NotSupportedError, build
from .ir import Alt, Chars, Fold, Group, Lit, Node, NodeVisitor, Rep, Seq, prefixes
from .limits import GrammarLimitError
from .lower import Lowering, NotRegularError, load, refuse_long_literals
from .optimise import simplify
from .thompson import matcher_data

__all__ = [
    "CompiledFile",
    "NotRegularError",
    "SchemeClasses",
    "captured",
    "checked_files",
    "compile_directory",
    "compile_scheme",
    "compiled_file",
    "tables_module",
    "to_layout",
]


class CompiledFiles(Protocol):
    """Where a grammar directory's files are loaded for the compiler, once each."""

    def compiled_file(self, scheme: str) -> CompiledFile:
        """``scheme``'s file as the compiler holds it, loaded once."""


class SchemeClasses(Protocol):
    """A grammar directory with the URL classes of its schemes (a :class:`~rfc1738.Grammar`)."""

    directory: Path
    files: dict[str, SchemeFile]

    @property
    def tables(self) -> CompiledFiles:
        """The directory's tables, which load its files for the compiler."""

    def url_class(self, scheme: str) -> Any:
        """The class ``scheme``'s URLs become: what its table captures and lays out."""


def compile_directory(grammar: SchemeClasses) -> Tables:
    """The whole pipeline for a grammar directory: every scheme, then the character sets."""
    schemes: dict[str, SchemeTable] = {}
    loaded: dict[Path, CompiledFile] = {}
    for scheme, entry in sorted(grammar.files.items()):
        file = loaded[entry.path] = grammar.tables.compiled_file(scheme)  # grammar file -> tree
        reads = grammar.url_class(scheme)
        fields = reads.layout_fields() if hasattr(reads, "layout_fields") else ()
        schemes[scheme] = compile_scheme(file, entry.start, captured(reads), fields)
    chars: dict[CharsKey, str] = {}
    for path in lark_files(grammar.directory):  # what the objects escape and check with
        chars.update((loaded.get(path) or CompiledFile(path)).char_sets())
    return Tables(content_key(grammar.directory), schemes, chars)


def compile_scheme(
    file: CompiledFile, start: str, capture: Collection[str], layout_fields: Collection[str] = ()
) -> SchemeTable:
    """Compile ``start`` as a scheme's table (:mod:`rfc1738.runtime.tables`).

    The expression has named groups for ``capture``; the table also holds
    the prefix expression, the error automaton of the start rule and, for
    ``layout_fields`` (the productions the scheme's class writes), the
    start rule's layout.
    """
    rules = tuple(sorted(file.rules))
    wanted = tuple(sorted(capture))
    fields = tuple(sorted(layout_fields))
    try:
        tree = file.lowered(start, wanted)  # grammar tree -> IR, a group per captured production
        bare = file.lowered(start)  # and with none
    except NotRegularError as error:
        return SchemeTable(start, rules, wanted, None, {}, None, str(error), None, fields)
    simple = simplify(tree)  # optimised IR
    expression, groups = write_simplified(simple)  # the pattern Python's re runs
    fitting = simplify(prefixes(simplify(bare)))
    rejected = write_simplified(fitting).source  # where a rejected text stops fitting
    # Both in each other form a Python may need (runtime/possessive.py), where written otherwise.
    expression_forms: dict[str, str] = {}
    prefixes_forms: dict[str, str] = {}
    for form, dialect in PYTHON_FORMS.items():
        if dialect is not PYTHON:
            _differing(expression_forms, form, write_simplified(simple, dialect).source, expression)
            _differing(prefixes_forms, form, write_simplified(fitting, dialect).source, rejected)
    automaton = file.error_automaton(start)  # rules kept by name -> the error automaton
    matcher = _linear_matcher(simple, automaton)  # the route where re may backtrack
    layout = to_layout(file.lowered(start, fields), frozenset(fields)) if fields else None
    return SchemeTable(
        start,
        rules,
        wanted,
        expression,
        groups,
        rejected,
        None,
        None if automaton is None else automaton.to_data(),
        fields,
        layout,
        matcher,
        expression_forms=expression_forms,
        prefixes_forms=prefixes_forms,
    )


def _differing(forms: dict[str, str], form: str, written: str, as_written: str) -> None:
    """Keep ``written`` as ``form``'s spelling where it is not the possessive one's."""
    if written != as_written:
        forms[form] = written


def tables_module(grammar: SchemeClasses) -> str:
    """The text of the module of a grammar directory's tables, as the wheel holds them.

    ``hatch_build.py`` writes it into the wheel as ``rfc1738/runtime/_tables.py``
    from ``grammar/`` (see :mod:`rfc1738.runtime.store`).
    """
    return (
        f"# Generated by rfc1738 {__version__} (hatch_build.py) from the grammar files when\n"
        "# the wheel was built. Do not edit: rfc1738.runtime.store reads it.\n"
        '"""The compiled tables of the shipped grammar (see rfc1738.runtime.tables)."""\n\n'
        + module_text(compile_directory(grammar), "TABLES")
    )


def captured(url_class: Any) -> frozenset[str]:
    """The productions a scheme's expression captures: those its class and the host checks read."""
    productions: frozenset[str] = url_class.PRODUCTIONS | CHECKED_PRODUCTIONS
    return productions


class CompiledFile:
    """One grammar file as the compiler holds it: definitions in, expressions out.

    It holds the file's definitions (imports resolved, as
    :mod:`rfc1738.bnf.tree` definitions) and compiles a start rule to a regular
    expression, or a production to its character set, on request.

    >>> from rfc1738.bnf.files import shipped_grammar_dir
    >>> http = CompiledFile(shipped_grammar_dir() / "http.lark")
    >>> source, groups = http.compile("httpurl", capture={"host", "port"})
    >>> sorted(groups)
    ['host', 'port']
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tree = load(path)
        #: Rule name → its definition (imported ones included).
        self.rules = self.tree.rules
        #: Terminal name → its definition.
        self.terminals = self.tree.terminals

    def lowered(self, start: str, capture: Collection[str] = (), *, named: bool = False) -> Node:
        """The IR of ``start`` (see :class:`~rfc1738.compile.lower.Lowering`), not simplified.

        Raises :class:`NotRegularError` if ``start`` reaches a rule that refers
        back to itself.
        """
        if start not in self.rules:
            raise GrammarError(f"no rule {start}", file=str(self.path))
        return Lowering(self.tree, self.path, frozenset(capture), named=named).rule(start)

    def compile(
        self, start: str, capture: Collection[str] = (), dialect: Dialect = PYTHON
    ) -> Expression:
        """The regular expression for ``start`` and its capture groups.

        ``capture`` names the productions whose spans are wanted (matched
        without their namespace, see :func:`~rfc1738.bnf.names.base_name`);
        ``dialect``, one of :data:`~rfc1738.compile.emit.PYTHON_FORMS` (the
        fast parser's own by default). Raises :class:`NotRegularError` if
        ``start`` reaches a rule that refers back to itself.
        """
        return write_simplified(self.ir(start, capture), dialect)

    def layout(self, start: str, fields: Collection[str]) -> Layout:
        """How ``start`` lays out the productions ``fields`` (see :mod:`rfc1738.runtime.layout`)."""
        return to_layout(self.lowered(start, fields), frozenset(fields))

    def ir(self, start: str, capture: Collection[str] = ()) -> Node:
        """The simplified tree of ``start`` that :meth:`compile` writes (for other dialects)."""
        return simplify(self.lowered(start, capture))

    def compile_prefixes(self, start: str, dialect: Dialect = PYTHON) -> str:
        """An expression matching every prefix of every match of ``start`` (``dialect``: above)."""
        return write_regex(prefixes(self.ir(start)), dialect).source

    def named(self, start: str) -> Node:
        """The tree of ``start`` with every rule and token kept by name, for the error automaton.

        Rules become :class:`~rfc1738.compile.ir.Production` nodes and each
        terminal or literal a rule uses a :class:`~rfc1738.compile.ir.Term`,
        named as the reference parser names it in errors (``UCHAR``, ``"/"``,
        ``"http://"i``). Raises :class:`NotRegularError` like :meth:`compile`.
        """
        return self.lowered(start, named=True)

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
        """:func:`compile_scheme` of this file."""
        return compile_scheme(self, start, capture, layout_fields)

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
        return _SINGLE_CHARS.visit(Lowering(self.tree, self.path, top=name).terminal(name))

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
        return _REPEATED_CHARS.visit(self.lowered(name))


def compiled_file(path: str | os.PathLike[str]) -> CompiledFile:
    """Grammar file ``path`` loaded for the compiler: the run time's way in (an edited grammar)."""
    return CompiledFile(Path(path))


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
        refuse_long_literals(directory)
    loaded: dict[str, CompiledFile] = {}
    for scheme, entry in sorted(files.items()):
        try:
            compiled = CompiledFile(entry.path)
            if entry.start in compiled.rules:
                compiled.lowered(entry.start)
        except GrammarLimitError:
            raise
        except GrammarError:
            continue
        loaded[scheme] = compiled
    return loaded


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


class _SingleChars(NodeVisitor[frozenset[str]]):
    """The single characters a node matches: a class, or options of classes."""

    def visit_chars(self, node: Chars) -> frozenset[str]:
        return node.chars

    def visit_alt(self, node: Alt) -> frozenset[str]:
        return frozenset().union(*(self.visit(option) for option in node.options))

    def generic_visit(self, node: Node, *context: object) -> frozenset[str]:
        return frozenset()


class _RepeatedChars(Fold[frozenset[str]]):
    """The single characters a node's repetitions repeat (see :meth:`CompiledFile.rule_chars`)."""

    def visit_rep(self, node: Rep) -> frozenset[str]:
        return _SINGLE_CHARS.visit(node.item) | self.visit(node.item)

    def combine(self, results: list[frozenset[str]]) -> frozenset[str]:
        return frozenset().union(*results)


_SINGLE_CHARS, _REPEATED_CHARS = _SingleChars(), _RepeatedChars()


def to_layout(node: Node, fields: frozenset[str]) -> Layout:
    """The layout (:mod:`rfc1738.runtime.layout`) of a start rule's IR with groups ``fields``.

    A field inside another that also stands on its own (nntp's article number
    is digits, and so is the port inside its group) is written where it
    stands on its own: the outer group keeps no inner layout.
    """
    return _ToLayout(fields, _Fields(fields, deep=False).visit(node)).visit(node)


class _Fields(Fold[frozenset[str]]):
    """The groups of ``fields`` in a node: only the outermost, unless ``deep``."""

    def __init__(self, fields: frozenset[str], *, deep: bool) -> None:
        self.fields = fields
        self.deep = deep

    def visit_group(self, node: Group) -> frozenset[str]:
        if node.name not in self.fields:
            return self.visit(node.item)
        return frozenset({node.name}) | (self.visit(node.item) if self.deep else frozenset())

    def combine(self, results: list[frozenset[str]]) -> frozenset[str]:
        return frozenset().union(*results)


class _ToLayout(NodeVisitor[Layout]):
    """IR → layout; the optional parts numbered in the order they begin."""

    def __init__(self, fields: frozenset[str], outside: frozenset[str]) -> None:
        self.fields = fields
        self.outside = outside
        self.numbered = 0

    def visit_lit(self, node: Lit) -> Layout:
        return ("lit", node.text, node.ignore_case)

    def visit_chars(self, node: Chars) -> Layout:
        return ("chars", "".join(sorted(node.chars)))

    def visit_group(self, node: Group) -> Layout:
        inner = self.visit(node.item)
        if node.name not in self.fields:
            return inner
        inside = _Fields(self.fields, deep=True).visit(node.item)
        return ("group", node.name, inner if inside and not inside & self.outside else None)

    def visit_seq(self, node: Seq) -> Layout:
        return ("seq", tuple(self.visit(item) for item in node.items))

    def visit_alt(self, node: Alt) -> Layout:
        return ("alt", tuple(self.visit(option) for option in node.options))

    def visit_rep(self, node: Rep) -> Layout:
        if (node.low, node.high) == (0, 1):
            self.numbered += 1
            number = self.numbered
            return ("opt", number, self.visit(node.item))
        return ("rep", self.visit(node.item), node.low, -1 if node.high is None else node.high)
