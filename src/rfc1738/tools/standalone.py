"""What a standalone module's package exports: its grammar, ``parse`` and ``is_valid``.

A module written by :func:`rfc1738.generate` (see :mod:`rfc1738.tools.generator`)
holds the source of the library's own Lark-free modules (the URL classes,
the errors, :class:`~rfc1738.Grammar` with its hot path and error
diagnosis) and installs them as a private package, with the modules that read
grammar files or run Lark replaced by :mod:`rfc1738.tools.stand_ins`. The
generated module calls :func:`install` once, before anything parses;
:func:`parse` and :func:`is_valid` are what its package exports. In the
library itself nothing uses this module.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import GrammarError
from ..runtime.store import register_tables
from ..runtime.tables import read_checked as read_tables
from ..urls import URL, Grammar
from .stand_ins import install_tables

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
    own = read_tables(tables)
    install_tables(own, own if shipped is tables else read_tables(shipped), directory)
    register_tables(directory, own)
    # Reads the scheme files through the stand-ins' scheme_files().
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
