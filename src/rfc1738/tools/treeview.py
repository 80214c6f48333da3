"""Print a parse tree as its productions and the text each one matched.

Lark's ``Tree.pretty()`` shows every character as its own token, which for a
character-level grammar buries the structure; this view shows one line per
production instead.
"""

from __future__ import annotations

from ..bnf.adapter import ParseTree, is_parse_tree

__all__ = ["format_tree"]


def format_tree(tree: ParseTree, text: str, *, hide: frozenset[str] = frozenset()) -> str:
    """One line per production: indented name, then the text it matched.

    Productions named in ``hide`` are left out with everything below them
    (``alphadigit``, say, for a shorter picture).

    >>> import rfc1738
    >>> print(format_tree(rfc1738.parse_tree("news:*"), "news:*"))
    newsurl      news:*
      grouppart  *
    """
    lines: list[tuple[str, str]] = []
    _walk(tree, text, 0, hide, lines)
    width = max(len(name) for name, _ in lines) + 2
    return "\n".join(f"{name:<{width}}{matched}" for name, matched in lines)


def _walk(
    tree: ParseTree, text: str, depth: int, hide: frozenset[str], lines: list[tuple[str, str]]
) -> None:
    name = str(tree.data)
    if name in hide:
        return
    matched = "" if tree.meta.empty else text[tree.meta.start_pos : tree.meta.end_pos]
    lines.append(("  " * depth + name, matched))
    for child in tree.children:
        if is_parse_tree(child):
            _walk(child, text, depth + 1, hide, lines)
