"""The character sets the objects escape and normalize with, read from the grammar.

Which characters stand for themselves in a field (``hsegment``, ``search``,
``user``, ...) is a fact of the grammar files; this module asks the grammar
compiler for it, once per set and process. It is the only way the objects
reach the compiler. The sets of the shipped grammar are built into the wheel
(:func:`rfc1738.parse.store.shipped_tables`), so no Lark is imported for them;
the compiler is asked only where those tables are missing (a checkout).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from ..bnf.files import shipped_grammar_dir
from .store import shipped_tables

if TYPE_CHECKING:
    from .compiler import GrammarFile

__all__ = ["rule_chars", "terminal_chars"]


@cache
def rule_chars(file: str, rule: str) -> frozenset[str]:
    """The characters that stand for themselves in ``rule`` of ``<file>.lark``.

    >>> "/" in rule_chars("http", "hsegment"), "=" in rule_chars("http", "hsegment")
    (False, True)
    """
    built = shipped_tables()
    found = None if built is None else built.char_set(file, "rule", rule)
    return _grammar_file(file).rule_chars(rule) if found is None else found


@cache
def terminal_chars(file: str, terminal: str) -> frozenset[str]:
    """The single characters terminal ``terminal`` of ``<file>.lark`` matches.

    >>> sorted(terminal_chars("common", "SAFE"))
    ['$', '+', '-', '.', '_']
    """
    built = shipped_tables()
    found = None if built is None else built.char_set(file, "terminal", terminal)
    return _grammar_file(file).terminal_chars(terminal) if found is None else found


@cache
def _grammar_file(name: str) -> GrammarFile:
    # The compiler reads grammar files with Lark: imported on first use.
    from .compiler import GrammarFile

    return GrammarFile(shipped_grammar_dir() / f"{name}.lark")
