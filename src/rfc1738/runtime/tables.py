"""The one format between build and run: a grammar directory's compiled form, as plain data.

A :class:`Tables` holds, per scheme file, what the compiler made of its start
rule (:class:`SchemeTable`: the expression and its named groups, the prefix
expression, the error automaton, the layout, the linear matcher where the
expression may backtrack), and the character sets read at run time. It is
computed from the grammar files with Lark
(:meth:`~rfc1738.compile.pipeline.CompiledFile.scheme_table`,
:meth:`~rfc1738.compile.pipeline.CompiledFile.char_sets`), and used without it.

- **One version**, :data:`FORMAT`, for all of it: the automata's and the
  matchers' data (:meth:`~rfc1738.runtime.automaton.ErrorAutomaton.to_data`,
  :func:`~rfc1738.compile.thompson.matcher_data`) and the layouts
  (:mod:`rfc1738.runtime.layout`) have none of their own. It is part of every
  :func:`content_key`, so that data written before is never read.
- **One writer**, :func:`tables_data`: sorted plain data (dicts, tuples,
  strings, integers, booleans, ``None``), in two encodings: :func:`module_text`,
  a Python literal, for the wheel's ``rfc1738/runtime/_tables.py``
  (``hatch_build.py``) and a standalone module (:mod:`rfc1738.tools.generator`);
  and the disk cache's :mod:`marshal` data behind a digest
  (:func:`rfc1738.runtime.cache.encode`), read without ``ast``.
- **Two loaders.** :func:`read_unchecked` for the wheel's own tables, code of
  the package its build wrote, once their key is that of the installed grammar
  files (:func:`~rfc1738.runtime.store.shipped_tables`). :func:`read_checked`
  for data anyone may have written (a cache file, a standalone module):
  every field of its type, the parts of each table agreeing, the layout, the
  error automaton and the linear matcher of their shape with everything in
  range, so that a table that does not hold together is refused (a miss: the
  grammar is compiled again) rather than a wrong verdict, a hang, or a
  ``KeyError``, ``re.error`` or ``AssertionError`` far from where it was read
  (whoever reads the tables, the parsers or the checks of ``load()``). What
  costs more, compiling each expression (:func:`runs_as_written`), is done
  for a scheme when it is first used: for eleven schemes it would cost an
  edited grammar's first parse several times the rest.

What no check can tell is a table forged to hold together (an expression
with the right groups that takes more than the grammar): only the cache's
owner can write one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import repeat
from pathlib import Path
from typing import Any

from .._records import Record
from ..bnf.files import lark_files, read_grammar_file
from ..version import __version__
from .layout import fields_in
from .linear import LinearMatcher
from .possessive import FORMS, compile_expression
from .sha import sha256

__all__ = [
    "FORMAT",
    "CharsKey",
    "SchemeTable",
    "Tables",
    "content_key",
    "digest",
    "module_text",
    "read_checked",
    "read_unchecked",
    "runs_as_written",
    "tables_data",
]

#: The version of the format, the only one: part of every key, so that data
#: written before is never read. 3: the error automata's rows and state info
#: as strings, each state's literals naming their production; the disk cache
#: in marshal's format. 4: each scheme's route (``matcher``). 5: one version
#: for everything (the automata and matchers have none of their own), and
#: each scheme's ``derived`` fields. 6: each expression in the other forms of
#: a possessive repetition of a group (``expression_forms``, ``prefixes_forms``).
FORMAT = 6

#: A character set's key: (file stem, ``"rule"`` or ``"terminal"``, name).
CharsKey = tuple[str, str, str]


class SchemeTable(Record):
    """One scheme file's start rule, compiled."""

    _fields = (
        "start",
        "rules",
        "capture",
        "expression",
        "groups",
        "prefixes",
        "problem",
        "automaton",
        "layout_fields",
        "layout",
        "matcher",
        "derived",
        "expression_forms",
        "prefixes_forms",
    )
    __slots__ = _fields
    start: str
    #: The names of the rules the file defines or imports (``CompiledFile.rules``).
    rules: tuple[str, ...]
    #: The productions compiled as named groups (the class's and the host checks').
    capture: tuple[str, ...]
    #: The expression of the start rule; ``None`` if the grammar is not regular.
    expression: str | None
    #: Per captured production, its group names in the expression.
    groups: dict[str, tuple[str, ...]]
    #: The expression matching every prefix of a URL of the start rule.
    prefixes: str | None
    #: Why there is no expression (the compiler's message), or ``None``.
    problem: str | None
    #: The error automaton's data (:meth:`~rfc1738.runtime.automaton.ErrorAutomaton.to_data`);
    #: ``None`` where the grammar has none (Earley explains its errors).
    automaton: Any
    #: The productions the scheme's class writes, and how the start rule lays
    #: them out (:mod:`rfc1738.runtime.layout`): what its objects are written with.
    layout_fields: tuple[str, ...]
    layout: Any
    #: The route: ``None`` where the expression serves the scheme (it runs in
    #: linear time), else the data of the linear matcher that serves it
    #: (:mod:`rfc1738.runtime.linear`, :func:`rfc1738.compile.thompson.matcher_data`).
    matcher: Any
    #: Per field a hook cuts out of a group's text, how
    #: (:class:`~rfc1738.runtime.hooks.Derived`'s fields, in order).
    derived: dict[str, tuple[str, str, int, int, str, str]]
    #: The expression, and the prefix expression, in each other of
    #: :data:`~rfc1738.runtime.possessive.FORMS` it is written otherwise in
    #: (a possessive repetition of a group): what a Python that misreads
    #: the possessive form runs (:func:`~rfc1738.runtime.possessive.compile_expression`).
    expression_forms: dict[str, str]
    prefixes_forms: dict[str, str]

    def __init__(
        self,
        start: str,
        rules: tuple[str, ...],
        capture: tuple[str, ...],
        expression: str | None,
        groups: dict[str, tuple[str, ...]],
        prefixes: str | None,
        problem: str | None,
        automaton: Any = None,
        layout_fields: tuple[str, ...] = (),
        layout: Any = None,
        matcher: Any = None,
        derived: dict[str, tuple[str, str, int, int, str, str]] | None = None,
        expression_forms: dict[str, str] | None = None,
        prefixes_forms: dict[str, str] | None = None,
    ) -> None:
        self._fill(
            start,
            rules,
            capture,
            expression,
            groups,
            prefixes,
            problem,
            automaton,
            layout_fields,
            layout,
            matcher,
            {} if derived is None else derived,
            {} if expression_forms is None else expression_forms,
            {} if prefixes_forms is None else prefixes_forms,
        )


class Tables(Record):
    """The compiled form of one grammar directory."""

    _fields = ("key", "schemes", "chars")
    __slots__ = _fields
    #: :func:`content_key` of the directory it was compiled from.
    key: str
    #: Per scheme (grammar file name), its table; schemes not compiled yet are absent.
    schemes: dict[str, SchemeTable]
    #: Character sets by :data:`CharsKey`, each a string of its characters in order.
    chars: dict[CharsKey, str]

    def __init__(
        self, key: str, schemes: dict[str, SchemeTable], chars: dict[CharsKey, str]
    ) -> None:
        self._fill(key, schemes, chars)

    def char_set(self, file: str, kind: str, name: str) -> frozenset[str] | None:
        """The characters of rule or terminal ``name`` of ``<file>.lark``, if compiled."""
        found = self.chars.get((file, kind, name))
        return None if found is None else frozenset(found)


def content_key(directory: Path) -> str:
    """What a directory's tables depend on: every ``.lark`` file's name and bytes, the version.

    A ``.lark`` name that is no grammar file (:func:`~rfc1738.bnf.files.lark_files`)
    raises :class:`~rfc1738.errors.GrammarError`.

    >>> from rfc1738.bnf.files import shipped_grammar_dir
    >>> len(content_key(shipped_grammar_dir()))
    64
    """
    found = sha256(f"rfc1738 {__version__} tables {FORMAT}\0".encode())
    # Each file checked by its reader, on what it opened.
    for path in lark_files(directory, check=False):
        data = read_grammar_file(path)
        found.update(f"{path.name}\0{len(data)}\0".encode())
        found.update(data)
    hexdigest: str = found.hexdigest()
    return hexdigest


def digest(data: bytes) -> str:
    """The SHA-256 of ``data``, in hex (what a cache file's first line holds)."""
    hexdigest: str = sha256(data).hexdigest()
    return hexdigest


# ---- the one writer, in its Python encoding ----


def tables_data(tables: Tables) -> dict[str, Any]:
    """``tables`` as plain data (dicts, tuples, strings, numbers, ``None``), in a set order.

    What :func:`module_text` and the disk cache encode, and the loaders read back.
    """
    return {
        "format": FORMAT,
        "key": tables.key,
        "schemes": {
            scheme: {
                **{field: getattr(table, field) for field in SchemeTable._fields},
                "groups": dict(sorted(table.groups.items())),
                "derived": dict(sorted(table.derived.items())),
                "expression_forms": dict(sorted(table.expression_forms.items())),
                "prefixes_forms": dict(sorted(table.prefixes_forms.items())),
            }
            for scheme, table in sorted(tables.schemes.items())
        },
        "chars": dict(sorted(tables.chars.items())),
    }


def module_text(tables: Tables, name: str) -> str:
    """The statement ``name = <tables>``: :func:`tables_data` as one Python literal, an item a line.

    What a module holds its tables in (the wheel's ``TABLES``, a standalone
    module's ``_TABLES``); deterministic: the same tables give the same text.
    """
    data = tables_data(tables)
    out = [
        f"{name} = {{\n",
        f"    'format': {data['format']!r},\n",
        f"    'key': {data['key']!r},\n",
    ]
    out.append("    'schemes': {\n")
    for scheme, fields in data["schemes"].items():
        out.append(f"        {scheme!r}: {{\n")
        out.extend(f"            {field!r}: {value!r},\n" for field, value in fields.items())
        out.append("        },\n")
    out.append("    },\n")
    out.append("    'chars': {\n")
    out.extend(f"        {key!r}: {chars!r},\n" for key, chars in data["chars"].items())
    out.append("    },\n}\n")
    return "".join(out)


# ---- the two loaders ----

_TOP = frozenset({"format", "key", "schemes", "chars"})


def read_unchecked(data: dict[str, Any]) -> Tables:
    """The :class:`Tables` of :func:`tables_data`'s data, as they are: for the wheel's own.

    The tables a wheel was built with (``rfc1738/runtime/_tables.py``) are
    code of the package that its own writer wrote; they are read this way once
    their key (which holds the version and :data:`FORMAT`) is that of the
    grammar files (a third of a millisecond of the first parse).
    """
    return Tables(
        data["key"],
        {scheme: SchemeTable(**fields) for scheme, fields in data["schemes"].items()},
        data["chars"],
    )


def read_checked(data: object) -> Tables:
    """The :class:`Tables` of :func:`tables_data`'s data, every part of it checked.

    For data the package did not write itself: a cache file's, a standalone
    module's. Anything but that data of this :data:`FORMAT`, holding only
    dicts, tuples, strings, integers, booleans and ``None`` where the writer
    puts them, raises ``ValueError``; so does a scheme table whose fields do
    not agree, or whose layout, error automaton or linear matcher is not of
    its shape with every state, name, node and transition in range. Each
    scheme's expressions are compiled when it is first used (:func:`runs_as_written`).
    """
    if not (isinstance(data, dict) and set(data) == _TOP and data["format"] == FORMAT):
        raise ValueError("not tables of this format")
    key, schemes, chars = data["key"], data["schemes"], data["chars"]
    if not (_integer(data["format"]) and isinstance(key, str)):
        raise ValueError("tables without a key")
    if not (isinstance(schemes, dict) and isinstance(chars, dict)):
        raise ValueError("tables without schemes or character sets")
    read: dict[str, SchemeTable] = {}
    for scheme, fields in schemes.items():
        if not (isinstance(scheme, str) and isinstance(fields, dict)):
            raise ValueError(f"scheme {scheme!r} is not a table")
        if set(fields) != set(SchemeTable._fields):
            raise ValueError(f"a scheme table with fields {sorted(map(str, fields))}")
        table = SchemeTable(**fields)
        if not _holds_together(table):
            raise ValueError(f"a malformed table for {table.start!r}")
        read[scheme] = table
    for name, value in chars.items():
        if not (_strings(name) and len(name) == 3 and isinstance(value, str)):
            raise ValueError(f"character set {name!r} is not a string")
    return Tables(key, read, dict(chars))


def runs_as_written(table: SchemeTable) -> bool:
    """Whether ``table``'s expression compiles with exactly the groups the table lists.

    Of a table :func:`read_checked` read, when its scheme is first used; in
    the form :func:`~rfc1738.runtime.possessive.compile_expression` gives,
    which the fast parser then finds in ``re``'s cache. Where the table has
    no error automaton, its prefix expression (which then locates errors)
    must compile too. A table with no expression (a grammar that is not
    regular) has nothing to run.
    """
    if table.expression is None:
        return True
    try:
        pattern = compile_expression(table.expression, table.expression_forms)
        if table.automaton is None and table.prefixes is not None:
            compile_expression(table.prefixes, table.prefixes_forms)
    except (re.error, RecursionError, OverflowError, MemoryError):
        return False
    listed = [name for names in table.groups.values() for name in names]
    return len(set(listed)) == len(listed) == pattern.groups and set(listed) == set(
        pattern.groupindex
    )


# ---- what the checked loader checks ----


def _holds_together(table: SchemeTable) -> bool:
    """Whether every field of ``table`` has its type and shape, and the fields agree."""
    optional = (table.expression, table.prefixes, table.problem)
    groups = table.groups
    if not (
        isinstance(table.start, str)
        and _strings(table.rules)
        and _strings(table.capture)
        and all(value is None or isinstance(value, str) for value in optional)
        and isinstance(groups, dict)
        and all(isinstance(k, str) and _strings(v) and v for k, v in groups.items())
        and set(groups) <= set(table.capture)
        and (table.expression is None) == (table.problem is not None)
        and (table.expression is None) == (table.prefixes is None)
        and _strings(table.layout_fields)
        and _derived(table.derived)
        and _forms(table.expression_forms)
        and _forms(table.prefixes_forms)
    ):
        return False
    if table.expression is None:
        return (
            not groups
            and not table.expression_forms
            and not table.prefixes_forms
            and table.automaton is None
            and table.layout is None
            and table.matcher is None
        )
    if table.automaton is not None and not _automaton(table.automaton, table.start):
        return False
    if table.matcher is not None and not _matcher(table.matcher):
        return False
    if (table.layout is None) != (not table.layout_fields):
        return False
    if table.layout is None:
        return True
    found: set[str] = set()
    if not _layout(table.layout, found, 0) or not found <= set(table.layout_fields):
        return False
    # A field the objects are written with, and captured, is a group of the expression.
    return fields_in(table.layout) & set(table.capture) <= set(groups)


def _forms(forms: object) -> bool:
    """Whether ``forms`` maps forms other than the possessive one to expressions."""
    return isinstance(forms, dict) and all(
        form in FORMS[1:] and isinstance(text, str) for form, text in forms.items()
    )


def _derived(derived: object) -> bool:
    """Whether ``derived`` maps field names to :class:`~rfc1738.runtime.hooks.Derived` fields."""
    return isinstance(derived, dict) and all(
        isinstance(field, str) and _typed(cut, (str, str, int, int, str, str))
        for field, cut in derived.items()
    )


def _matcher(data: object) -> bool:
    """Whether the linear matcher's data loads (its own loader checks every node)."""
    try:
        LinearMatcher.from_data(data)
    except ValueError:
        return False
    return True


# ---- the layout (rfc1738.runtime.layout: nested tuples) ----

#: How deep a layout may nest: the compiler's follow the grammar's own nesting.
_DEEPEST = 200


def _layout(node: object, fields: set[str], depth: int) -> bool:
    """Whether ``node`` is a layout node of the documented shape; its fields go to ``fields``."""
    if not (isinstance(node, tuple) and node and depth < _DEEPEST):
        return False
    kind, rest, deeper = node[0], node[1:], depth + 1
    if kind == "lit":
        return len(rest) == 2 and isinstance(rest[0], str) and isinstance(rest[1], bool)
    if kind == "chars":
        return len(rest) == 1 and isinstance(rest[0], str)
    if kind == "group":
        if not (len(rest) == 2 and isinstance(rest[0], str)):
            return False
        fields.add(rest[0])
        return rest[1] is None or _layout(rest[1], fields, deeper)
    if kind in ("seq", "alt"):
        return (
            len(rest) == 1
            and isinstance(rest[0], tuple)
            and all(_layout(item, fields, deeper) for item in rest[0])
        )
    if kind == "opt":
        return len(rest) == 2 and _integer(rest[0]) and _layout(rest[1], fields, deeper)
    if kind == "rep":
        return (
            len(rest) == 3
            and _layout(rest[0], fields, deeper)
            and _integer(rest[1])
            and _integer(rest[2])
            and rest[1] >= 0
            and rest[2] >= -1
        )
    return False


# ---- the error automaton (rfc1738.runtime.automaton: ErrorAutomaton.to_data) ----

_AUTOMATON_FIELDS = frozenset(
    {"start", "classes", "rows", "names", "info", "in_literals", "literals"}
)


def _automaton(data: object, start: str) -> bool:
    """Whether ``data`` is what ``ErrorAutomaton.to_data`` writes for ``start``, all of it in range.

    So that loading it and explaining any error with it raise nothing: every
    transition leads to a state, the start state has its info (where no token
    ends further on, an error is there), every name index names a name, and
    at each state every literal of two or more characters expected there
    (one an error can be inside of) has the production such an error names.
    """
    if not (isinstance(data, dict) and set(data) == _AUTOMATON_FIELDS and data["start"] == start):
        return False
    classes, rows, names, info = data["classes"], data["rows"], data["names"], data["info"]
    if not (_strings(classes) and _strings(rows) and _strings(names) and isinstance(info, str)):
        return False
    states = len(rows)
    # Each row: one character a class, the next state plus one ("\x00": none).
    if not rows or set(map(len, rows)) != {len(classes)}:
        return False
    if max("".join(rows), default="\x00") > chr(states):
        return False
    literals = _literals(data, states)
    if literals is None:
        return False
    in_literals, begun = literals
    begun_names = {k for k, name in enumerate(names) if name in begun}
    needs = _info(info, states, len(names), begun_names)
    return needs is not None and all(
        {names[k] for k in wanted} <= in_literals.get(state, set())
        for state, wanted in needs.items()
    )


def _info(info: str, states: int, names: int, begun: set[int]) -> dict[int, set[int]] | None:
    """Per state expecting a literal of ``begun``, those; ``None`` if ``info`` does not decode.

    Each record: the state, 0 or 1 (accepting), two name indexes (the rule
    and the rule by Earley's ordering), a count, as many name indexes. The
    start state must have one.
    """
    if info and (ord(max(info)) >= max(states, names, 2)):
        return None  # a number out of every range: the cheap check first
    encoded = list(map(ord, info))
    needs: dict[int, set[int]] = {}
    seen_start = False
    at, end = 0, len(encoded)
    while at < end:
        if at + 5 > end:
            return None
        state, accepting, rule, as_earley, count = encoded[at : at + 5]
        wanted = encoded[at + 5 : at + 5 + count]
        if not (
            state < states
            and accepting < 2
            and rule < names
            and as_earley < names
            and len(wanted) == count
            and (not wanted or max(wanted) < names)
        ):
            return None
        if not begun.isdisjoint(wanted):
            needs[state] = begun.intersection(wanted)
        seen_start = seen_start or state == 0
        at += 5 + count
    return needs if seen_start else None


def _literals(data: dict[str, Any], states: int) -> tuple[dict[int, set[str]], set[str]] | None:
    """The literals each state names a production for, and those an error can be inside of.

    ``None`` where the tables do not have their shape (per state, its
    ``LiteralRule`` tuples; per literal's name, its text and whether case is ignored).
    """
    in_literals, literals = data["in_literals"], data["literals"]
    rule_types = (str, str, int, bool, str)
    if not (
        isinstance(in_literals, tuple)
        and all(
            _pair(entry)
            and _integer(entry[0])
            and 0 <= entry[0] < states
            and isinstance(entry[1], tuple)
            and all(_typed(rule, rule_types) for rule in entry[1])
            for entry in in_literals
        )
        and isinstance(literals, tuple)
        and all(
            _pair(entry) and isinstance(entry[0], str) and _typed(entry[1], (str, bool))
            for entry in literals
        )
    ):
        return None
    named = {state: {rule[0] for rule in rules} for state, rules in in_literals}
    # As ErrorAutomaton finds the literals a text may begin and not finish.
    begun = {name for name, (text, _fold) in literals if len(text) > 1 and text[0] != "%"}
    return named, begun


# ---- plain data ----


def _strings(value: object) -> bool:
    return isinstance(value, tuple) and all(map(isinstance, value, repeat(str)))


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _pair(value: object) -> bool:
    return isinstance(value, tuple) and len(value) == 2


def _typed(value: object, types: tuple[type, ...]) -> bool:
    is_type: Callable[[object, type], bool] = isinstance
    return (
        isinstance(value, tuple)
        and len(value) == len(types)
        and all(map(is_type, value, types))
        and all(not isinstance(v, bool) for v, t in zip(value, types, strict=True) if t is int)
    )
