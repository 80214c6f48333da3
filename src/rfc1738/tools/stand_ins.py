"""The stand-ins a standalone module runs in place of Lark and the grammar files.

A module written by :func:`rfc1738.generate` holds the compiled tables of its
grammar and of the shipped grammar (:mod:`rfc1738.runtime.tables`), and runs the
library's own modules with these in place of what reads grammar files or
runs Lark (see :mod:`rfc1738.tools.standalone`):

- ``bnf.files.scheme_files`` and ``shipped_grammar_dir`` →
  :func:`scheme_files` and :func:`shipped_grammar_dir` here: the schemes of
  the tables, not of a directory;
- ``parse.store.shipped_tables`` → :func:`shipped_tables`: the shipped
  grammar's tables the module holds (the URL classes escape with its sets);
- ``parse.compiler`` → :class:`CompiledFile`, which compiles nothing: every
  expression the module runs is in its tables;
- ``parse.reference.ReferenceParser`` → :class:`ReferenceParser`: there is no
  Earley parser, so every input is beyond its reach, as an input longer than
  :data:`~rfc1738.MAX_REFERENCE_LENGTH` is in the library; errors come from
  the prefix expression.

It imports nothing above :mod:`rfc1738.bnf.files` and
:mod:`rfc1738.runtime.tables`, since ``bnf.files`` imports it back in a
standalone package. In the library itself nothing uses it.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple, NoReturn

from ..bnf.files import SchemeFile
from ..errors import GrammarError, InputTooLongError
from ..runtime.tables import Tables

__all__ = [
    "CompiledFile",
    "NotRegularError",
    "ReferenceParser",
    "install_tables",
    "scheme_files",
    "shipped_grammar_dir",
    "shipped_tables",
]


class _State(NamedTuple):
    tables: Tables
    shipped: Tables
    directory: Path


_state: _State | None = None


def install_tables(tables: Tables, shipped: Tables, directory: Path) -> None:
    """Make ``tables`` (and ``shipped``'s sets) what the stand-ins answer from.

    ``directory`` stands for the grammar's directory.
    """
    global _state
    _state = _State(tables, shipped, directory)


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
    """Stands for the grammar shipped with rfc1738 (no files: its sets are in the tables)."""
    return _installed().directory / "<shipped>"


# ---- parse.store ----


def shipped_tables() -> Tables:
    """The shipped grammar's tables, as the module was generated with them."""
    return _installed().shipped


# ---- parse.compiler ----


class NotRegularError(GrammarError):
    """A scheme whose grammar refers back to itself: it has no expression."""


class CompiledFile:
    """No compiler: what is not in the tables cannot be compiled here."""

    def __init__(self, path: Path) -> None:
        raise GrammarError(
            "a standalone module compiles nothing: this was not compiled when it was "
            "generated (generate the module again)",
            file=str(path),
        )


# ---- parse.reference ----


class ReferenceParser:
    """No Earley parser: every input is beyond it, as over-long input is in the library."""

    def __init__(self, path: Path, max_length: int = 0) -> None:
        self.path = path
        #: Whatever bound the grammar gives, no input is within reach.
        self.max_length = 0

    def parse(self, text: str, start: str) -> NoReturn:
        """Raise: :class:`InputTooLongError` for a scheme with an expression, else ``GrammarError``.

        ``ParserSet._fast_error`` then finds the error with the prefix
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
