"""The compiled form of a grammar directory, as plain data: what runs without Lark.

A :class:`Tables` holds, per scheme file, what the compiler wrote for its
start rule (the expression with its named groups, the prefix expression
errors are located with, the names of the rules the file defines) and the
character sets that are read at run time. It is computed from the grammar
files with Lark (:meth:`~rfc1738.compile.pipeline.CompiledFile.scheme_table`,
:meth:`~rfc1738.compile.pipeline.CompiledFile.char_sets`). :func:`tables_data`
gives it as plain data (dicts, tuples, strings, numbers, ``None``), which
:func:`write_tables`, the one writer of this form, writes as one Python
literal:

- the wheel's ``rfc1738/runtime/_tables.py`` (``hatch_build.py`` runs it when
  the wheel is built from ``grammar/``),
- a standalone module (:mod:`rfc1738.tools.generator`);

the disk cache of an edited grammar (:mod:`rfc1738.runtime.cache`) keeps the
same data with :mod:`marshal`. :func:`read_tables` reads such data back,
checking its shape: a cache file is data, never code, and a file that does
not have the shape is refused.
"""

from __future__ import annotations

from collections.abc import Collection
from itertools import repeat
from pathlib import Path
from typing import Any

from .._records import Record
from ..bnf.files import lark_files, read_grammar_file
from ..errors import GrammarError
from ..version import __version__
from .checked import holds_together

try:  # hashlib loads OpenSSL, milliseconds of `import rfc1738`: first the lean module, as
    # the standard library's random does (CPython 3.11: _sha256, 3.12 and later: _sha2).
    from _sha256 import sha256  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - other Pythons
    try:
        from _sha2 import sha256  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        from hashlib import sha256

__all__ = [
    "FORMAT",
    "SchemeTable",
    "TableFile",
    "Tables",
    "content_key",
    "digest",
    "read_tables",
    "tables_data",
    "write_tables",
]

#: The version of the shape written by :func:`write_tables`; part of every key,
#: so that tables written before are never read. 3: the error automata's data
#: version 3 (rows and state info as strings; each state's literals name their
#: production), and the disk cache in marshal's format. 4: each scheme's route
#: (``matcher``: the linear matcher's data where the expression may backtrack).
FORMAT = 4

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


class TableFile:
    """One scheme's table, answering as :class:`~rfc1738.compile.pipeline.CompiledFile` does.

    What :class:`~rfc1738.runtime.fast.FastParser` reads an expression from,
    without Lark.
    """

    def __init__(self, table: SchemeTable) -> None:
        self.table = table

    def compile(
        self, start: str, capture: Collection[str] = ()
    ) -> tuple[str, dict[str, tuple[str, ...]]]:
        """The expression compiled for ``start`` with groups for ``capture``."""
        table = self.table
        if start != table.start or set(capture) != set(table.capture):
            raise GrammarError(f"{start} was not compiled with groups for {sorted(capture)}")
        if table.expression is None:
            raise GrammarError(table.problem or f"{start} has no expression")
        return table.expression, table.groups


# ---- the one writer, and its reader ----


def tables_data(tables: Tables) -> dict[str, Any]:
    """``tables`` as plain data (dicts, tuples, strings, numbers, ``None``), in a set order.

    What :func:`write_tables` writes and :func:`read_tables` reads back.
    """
    return {
        "format": FORMAT,
        "key": tables.key,
        "schemes": {
            scheme: {
                **{field: getattr(table, field) for field in SchemeTable._fields},
                "groups": dict(sorted(table.groups.items())),
            }
            for scheme, table in sorted(tables.schemes.items())
        },
        "chars": dict(sorted(tables.chars.items())),
    }


def write_tables(tables: Tables) -> str:
    """``tables`` as one Python literal (dicts, tuples, strings, ``None``), one item a line.

    Deterministic: the same tables give the same text.
    """
    data = tables_data(tables)
    out = ["{\n", f"    'format': {data['format']!r},\n", f"    'key': {data['key']!r},\n"]
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


def read_tables(data: object, *, check: bool = True) -> Tables:
    """The :class:`Tables` of what :func:`tables_data` gave (or :func:`write_tables` wrote).

    Anything else raises ``ValueError``, and so does a scheme table whose
    fields are not of their types or do not agree
    (:func:`~rfc1738.runtime.checked.holds_together`). ``check=False``
    leaves each table unchecked: for the tables a wheel was built with
    (``rfc1738/runtime/_tables.py``), code of the package that its own writer
    wrote, once their key (which holds the version and :data:`FORMAT`) is
    that of the grammar files (a third of a millisecond of the first parse).
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError("not a table of this format")
    key, schemes, chars = data.get("key"), data.get("schemes"), data.get("chars")
    if not isinstance(key, str) or not isinstance(schemes, dict) or not isinstance(chars, dict):
        raise ValueError("a table without key, schemes or chars")
    if not check:
        return Tables(key, {s: SchemeTable(**fields) for s, fields in schemes.items()}, chars)
    read: dict[str, SchemeTable] = {}
    for scheme, fields in schemes.items():
        if not isinstance(scheme, str) or not isinstance(fields, dict):
            raise ValueError(f"scheme {scheme!r} is not a table")
        read[scheme] = _scheme_table(fields)
    for name, value in chars.items():
        if not (_strings(name, 3) and isinstance(value, str)):
            raise ValueError(f"character set {name!r} is not a string")
    return Tables(key, read, dict(chars))


def _scheme_table(fields: dict[Any, Any]) -> SchemeTable:
    if set(fields) != set(SchemeTable._fields):
        raise ValueError(f"a scheme table with fields {sorted(map(str, fields))}")
    table = SchemeTable(**fields)
    if not holds_together(table):
        raise ValueError(f"a malformed table for {table.start!r}")
    return table


def _strings(value: object, length: int | None = None) -> bool:
    return (
        isinstance(value, tuple)
        and (length is None or len(value) == length)
        and all(map(isinstance, value, repeat(str)))
    )
