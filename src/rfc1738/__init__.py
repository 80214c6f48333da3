"""Parse URLs strictly by the grammar of RFC 1738, into typed objects.

The grammar files (``grammar/*.lark``, shipped with the package) are the single
source of truth; every parser here is generated from them.

>>> import rfc1738
>>> print(rfc1738.parse_tree("telnet://host.dom/").pretty().splitlines()[0])
telneturl
"""

from __future__ import annotations

from functools import cache

from lark import Token, Tree

from .errors import GrammarError, InputTooLongError, RFC1738Error, URLSyntaxError
from .grammar_set import Grammar
from .reference import MAX_REFERENCE_LENGTH

__all__ = [
    "MAX_REFERENCE_LENGTH",
    "Grammar",
    "GrammarError",
    "InputTooLongError",
    "RFC1738Error",
    "URLSyntaxError",
    "parse_tree",
]


@cache
def _shipped() -> Grammar:
    return Grammar()


def parse_tree(text: str) -> Tree[Token]:
    """The full Earley parse tree of a URL under its scheme's production.

    The scheme (before the first ``:``, any case) picks the production:
    ``httpurl``, ``ftpurl``, ... or ``genericurl`` for other schemes. Raises
    :class:`URLSyntaxError` for a string the production does not match, or
    one longer than :data:`MAX_REFERENCE_LENGTH`.
    """
    return _shipped().parse_tree(text)
