"""The stand-ins a standalone module runs in place of Lark and the grammar files.

A module written by :func:`rfc1738.generate` replaces three modules of the
library that read grammar files or run Lark with what is here, answering from
the :class:`Tables` computed when the module was generated (see
:mod:`rfc1738.tools.standalone`):

- ``parse.compiler.CompiledFile`` → :class:`CompiledFile`: ``compile`` gives the
  expression compiled at generation time, ``compile_prefixes`` the prefix
  expression, ``rule_chars`` and ``terminal_chars`` the character sets;
- ``parse.reference.ReferenceParser`` → :class:`ReferenceParser`: there is no
  Earley parser, so every input is beyond its reach, as an input longer than
  :data:`~rfc1738.MAX_REFERENCE_LENGTH` is in the library; errors come from
  the prefix expression;
- ``bnf.files.scheme_files`` and ``shipped_grammar_dir`` →
  :func:`scheme_files` and :func:`shipped_grammar_dir` here: the schemes of
  the tables, not of a directory.

It imports nothing above :mod:`rfc1738.bnf.files`, since that module imports
it back in a standalone package. In the library itself nothing uses it.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import NamedTuple, NoReturn

from ..bnf.files import SchemeFile
from ..errors import GrammarError, InputTooLongError

__all__ = [
    "GRAMMAR",
    "SHIPPED",
    "CompiledFile",
    "NotRegularError",
    "ReferenceParser",
    "SchemeTable",
    "Tables",
    "install_tables",
    "scheme_files",
    "shipped_grammar_dir",
]

#: Where a character set was read: the grammar directory the module was
#: generated from (what its URL objects escape with), or the grammar shipped
#: with rfc1738.
GRAMMAR, SHIPPED = "grammar", "shipped"


class SchemeTable(NamedTuple):
    """One scheme's file: its start rule and its compiled expressions."""

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
    #: The fields of the scheme's class, and how the start rule lays them
    #: out (:mod:`rfc1738.parse.layout`): what its objects are written with.
    layout_fields: tuple[str, ...] = ()
    layout: tuple[object, ...] | None = None


class Tables(NamedTuple):
    """Everything a standalone module knows of its grammar."""

    #: Per scheme (grammar file name), its table.
    schemes: dict[str, SchemeTable]
    #: The distinct character sets, each a string of its characters in order.
    sets: tuple[str, ...]
    #: ``(GRAMMAR or SHIPPED, file, "rule" or "terminal", name)`` → index in ``sets``.
    chars: dict[tuple[str, str, str, str], int]


class _State(NamedTuple):
    tables: Tables
    directory: Path


_state: _State | None = None


def install_tables(tables: Tables, directory: Path) -> None:
    """Make ``tables`` what the stand-ins answer from; ``directory`` stands for the grammar's."""
    global _state
    _state = _State(tables, directory)


def _installed() -> _State:
    if _state is None:
        raise GrammarError("no grammar tables are installed: this is not a standalone module")
    return _state


# ---- bnf.files ----


def scheme_files(directory: Path) -> dict[str, SchemeFile]:
    """The schemes of the tables, as ``bnf.files.scheme_files`` finds them in a directory."""
    return {
        scheme: SchemeFile(scheme, directory / f"{scheme}.lark", table.start)
        for scheme, table in _installed().tables.schemes.items()
    }


def shipped_grammar_dir() -> Path:
    """Stands for the grammar shipped with rfc1738: the key of its character sets."""
    return _installed().directory / f"<{SHIPPED}>"


# ---- compiler ----


class NotRegularError(GrammarError):
    """A scheme whose grammar refers back to itself: it has no expression."""


class CompiledFile:
    """One grammar file, as far as the tables know it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = SHIPPED if path.parent == shipped_grammar_dir() else GRAMMAR

    @property
    def rules(self) -> tuple[str, ...]:
        """The names of the rules of a scheme's file (the tables keep no definitions)."""
        return self._table().rules

    def _table(self) -> SchemeTable:
        table = _installed().tables.schemes.get(self.path.stem)
        if self.where != GRAMMAR or table is None:
            raise GrammarError("not a scheme file of the tables", file=str(self.path))
        return table

    def _scheme(self, start: str) -> SchemeTable:
        table = self._table()
        if table.start != start:
            raise GrammarError(f"no expression for {start} in the tables", file=str(self.path))
        if table.problem is not None:
            raise NotRegularError(table.problem, file=str(self.path))
        return table

    def compile(
        self, start: str, capture: Collection[str] = ()
    ) -> tuple[str, dict[str, tuple[str, ...]]]:
        """The expression compiled for ``start`` at generation time, and its groups."""
        table = self._scheme(start)
        if set(capture) != set(table.capture) or table.expression is None:
            raise GrammarError(
                f"{start} was compiled with groups for {', '.join(table.capture)}, "
                f"not {', '.join(sorted(capture))}: generate the module again",
                file=str(self.path),
            )
        return table.expression, table.groups

    def named(self, start: str) -> NoReturn:
        """No error automaton in the tables yet: errors come from the prefix expression."""
        raise NotRegularError(
            "the standalone module carries no error automaton", file=str(self.path)
        )

    def compile_prefixes(self, start: str) -> str:
        """The prefix expression of ``start``."""
        prefixes = self._scheme(start).prefixes
        assert prefixes is not None
        return prefixes

    def layout(self, start: str, fields: Collection[str]) -> tuple[object, ...]:
        """The layout of ``start`` computed at generation time for the class's fields."""
        table = self._scheme(start)
        if table.layout is None or set(fields) != set(table.layout_fields):
            raise GrammarError(
                f"{start} was laid out for {', '.join(table.layout_fields)}, "
                f"not {', '.join(sorted(fields))}: generate the module again",
                file=str(self.path),
            )
        return table.layout

    def rule_chars(self, name: str) -> frozenset[str]:
        """The characters that stand for themselves in rule ``name``."""
        return self._chars("rule", name)

    def terminal_chars(self, name: str) -> frozenset[str]:
        """The single characters terminal ``name`` matches."""
        return self._chars("terminal", name)

    def _chars(self, kind: str, name: str) -> frozenset[str]:
        tables = _installed().tables
        index = tables.chars.get((self.where, self.path.stem, kind, name))
        if index is None:
            raise GrammarError(f"no {kind} {name}", file=str(self.path))
        return frozenset(tables.sets[index])


# ---- reference ----


class ReferenceParser:
    """No Earley parser: every input is beyond it, as over-long input is in the library."""

    def __init__(self, path: Path, max_length: int = 0) -> None:
        self.path = path
        #: Whatever bound the grammar gives, no input is within reach.
        self.max_length = 0

    def parse(self, text: str, start: str) -> NoReturn:
        """Raise: :class:`InputTooLongError` for a scheme with an expression, else ``GrammarError``.

        ``Grammar._fast_error`` then finds the error with the prefix
        expression. A scheme whose grammar is not regular has neither, and
        its URLs cannot be parsed here at all.
        """
        table = _installed().tables.schemes[self.path.stem]
        if table.problem is not None:
            raise GrammarError(
                f"{table.problem}; a standalone module has no Earley parser to serve it",
                file=str(self.path),
            )
        raise InputTooLongError(
            text,
            0,
            rule=start,
            reason="a standalone module has no reference parser: errors come from the prefixes",
        )
