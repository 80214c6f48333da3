"""Lark's reading of a grammar file: rule and terminal definitions, imports resolved.

The compiler, the diagrams and the inspection read grammar files the way
Lark's own loader does, so they see exactly what the reference parser sees.
"""

from __future__ import annotations

from pathlib import Path

from lark import Token, Tree
from lark.exceptions import LarkError
from lark.lexer import Pattern

# Lark's own reading of a literal ("..."i, /.../), so that every reader agrees
# with the reference parser on escapes and flags. It is internal to Lark,
# hence the pinned major version.
from lark.load_grammar import _literal_to_pattern, load_grammar

from ..errors import GrammarError
from .lark_errors import grammar_error_from_lark

__all__ = ["LoadedFile", "lark_literal"]


class LoadedFile:
    """The rule and terminal definitions of one grammar file (imports resolved).

    >>> from rfc1738.bnf.files import shipped_grammar_dir
    >>> http = LoadedFile(shipped_grammar_dir() / "http.lark")
    >>> "httpurl" in http.rules, "hostport" in http.rules
    (True, True)
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            grammar, _ = load_grammar(  # type: ignore[no-untyped-call]
                path.read_text(encoding="utf-8"), str(path), [str(path.parent)], False
            )
        except (LarkError, OSError) as exc:
            raise grammar_error_from_lark(exc, path) from exc
        #: Rule name → (its Lark definition tree, its priority).
        self.rules: dict[str, tuple[Tree[Token], int]] = {}
        for name, params, tree, options in grammar.rule_defs:
            if params:
                raise GrammarError(f"rule {name} has template parameters", file=str(path))
            self.rules[str(name)] = (tree, options.priority or 0)
        #: Terminal name → its Lark definition tree.
        self.terminals: dict[str, Tree[Token]] = {
            str(name): tree for name, (tree, _priority) in grammar.term_defs
        }


def lark_literal(token: object) -> Pattern:
    """Lark's reading of a ``"..."``/``/.../`` literal, flags included."""
    pattern: Pattern = _literal_to_pattern(token)  # type: ignore[no-untyped-call]
    return pattern
