"""The character sets the objects escape and normalize with, read from the grammar.

Which characters stand for themselves in a field (``hsegment``, ``search``,
``user``, ...) is a fact of the grammar files; this module asks the grammar
compiler for it, once per set and process. It is the only way the objects
reach the compiler, so that a generated standalone module (which has no
compiler and no Lark) can replace it with a table of the same sets.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from ..bnf.files import shipped_grammar_dir

if TYPE_CHECKING:
    from .compiler import CompiledFile

__all__ = ["rule_chars", "terminal_chars"]


@cache
def rule_chars(file: str, rule: str) -> frozenset[str]:
    """The characters that stand for themselves in ``rule`` of ``<file>.lark``.

    >>> "/" in rule_chars("http", "hsegment"), "=" in rule_chars("http", "hsegment")
    (False, True)
    """
    return _compiled_file(file).rule_chars(rule)


@cache
def terminal_chars(file: str, terminal: str) -> frozenset[str]:
    """The single characters terminal ``terminal`` of ``<file>.lark`` matches.

    >>> sorted(terminal_chars("common", "SAFE"))
    ['$', '+', '-', '.', '_']
    """
    return _compiled_file(file).terminal_chars(terminal)


@cache
def _compiled_file(name: str) -> CompiledFile:
    # The compiler reads grammar files with Lark: imported on first use.
    from .compiler import CompiledFile

    return CompiledFile(shipped_grammar_dir() / f"{name}.lark")
