"""What a standalone module's package exports: its grammar, ``parse`` and ``is_valid``.

A module written by :func:`rfc1738.generate` (see :mod:`rfc1738.tools.generator`)
holds the source of the library's run-time modules
(:data:`~rfc1738.tools.generator.RUNTIME_MODULES`: the URL classes, the
errors, :class:`~rfc1738.Grammar` with its hot path and error explanation),
as installed, and installs them as a private package. The generated module
calls :func:`install` once, before anything parses: it registers its tables
for its grammar's directory and the shipped grammar's, which is all the run
time reads (it has no grammar files, no compiler and no Earley parser to
read them with). :func:`parse` and :func:`is_valid` are what its package
exports. In the library itself nothing uses this module.
"""

from __future__ import annotations

from pathlib import Path

from ..bnf.files import shipped_grammar_dir
from ..errors import GrammarError
from ..runtime.store import register_tables
from ..runtime.tables import read_checked
from ..urls import URL, Grammar

__all__ = ["install", "is_valid", "parse"]

_grammar: Grammar | None = None


def install(tables: object, shipped: object, directory: Path) -> None:
    """Make the tables the grammar of this package; ``directory`` stands for its directory.

    ``tables`` and ``shipped`` are the literals of the grammar's and the
    shipped grammar's tables (:func:`rfc1738.runtime.tables.module_text`).
    ``directory`` must exist (a :class:`~rfc1738.Grammar` checks it); the
    generated module gives its own.
    """
    global _grammar
    own = read_checked(tables)
    register_tables(directory, own)
    # The URL classes ask the shipped grammar's tables for what section 3 says of a scheme.
    register_tables(shipped_grammar_dir(), own if shipped is tables else read_checked(shipped))
    # Its schemes are those of the tables registered for the directory.
    _grammar = Grammar(directory)


def _installed_grammar() -> Grammar:
    if _grammar is None:
        raise GrammarError("no grammar tables are installed: this is not a standalone module")
    return _grammar


def parse(text: str, *, host_checks: bool = True) -> URL:
    """The typed object for a URL, or :class:`~rfc1738.URLSyntaxError`.

    As :func:`rfc1738.parse` with the compiled expressions; ``host_checks``
    turns off the checks beyond the grammar.
    """
    return _installed_grammar().parse(text, host_checks=host_checks)


def is_valid(text: str, *, host_checks: bool = True) -> bool:
    """Whether :func:`parse` would return an object for ``text``."""
    return _installed_grammar().is_valid(text, host_checks=host_checks)
