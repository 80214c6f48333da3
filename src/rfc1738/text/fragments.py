"""A URL and its fragment identifier: the 1994 W3 grammar's ``fragmentaddress``.

RFC 1738 leaves the fragment out of the URL (appendix: "a fragment identifier
... is not part of the URL"); the 1994 W3 grammar names the pair::

    fragmentaddress         uri [ # fragmentid ]
    fragmentid              xalphas

:func:`parse_reference` reads the URL with the RFC 1738 grammar and the
fragment with ``fragmentid`` of ``grammars/fragment/fragment.lark`` (the W3
grammar's rule and characters, compiled like any other rule).

>>> url, fragment = parse_reference("http://ds.internic.net/instructions/overview.html#WARNING")
>>> url.host, fragment
('ds.internic.net', 'WARNING')
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..bnf.files import package_data
from ..errors import URLSyntaxError
from ..runtime.explain import at_escape_start, longest_viable_prefix
from ..runtime.possessive import compile_expression
from ..urls import shipped

if TYPE_CHECKING:
    from ..runtime.dispatch import ParserName
    from ..urls import URL, Grammar

__all__ = ["FRAGMENT_RULE", "check_fragment", "fragment_grammar_file", "parse_reference"]

#: The rule a fragment identifier must match.
FRAGMENT_RULE = "fragmentid"

#: What separates a URL from its fragment identifier (``fragmentaddress``).
_HASH = "#"


def fragment_grammar_file() -> Path:
    """The grammar file of ``fragmentid`` (package data)."""
    return package_data("grammars", "fragment", "fragment.lark")


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], frozenset[str]]:
    """The expression of ``fragmentid``, the one of its prefixes, and the hex digits."""
    from ..compile.pipeline import CompiledFile  # Lark: compiled on first use

    grammar = CompiledFile(fragment_grammar_file())
    whole, _groups = grammar.compile(FRAGMENT_RULE)
    prefixes = grammar.compile_prefixes(FRAGMENT_RULE)
    return compile_expression(whole), compile_expression(prefixes), grammar.terminal_chars("HEX")


def check_fragment(fragment: str) -> URLSyntaxError | None:
    """``None`` if ``fragment`` is a ``fragmentid``, else the error (positions in ``fragment``).

    >>> check_fragment("WARNING") is None
    True
    >>> check_fragment("a#b").position
    1
    """
    whole, prefixes, hexes = _patterns()
    if whole.fullmatch(fragment):
        return None
    viable = longest_viable_prefix(prefixes, fragment)
    # An escape cut short is wrong at its "%": an escape is one token.
    position = at_escape_start(URLSyntaxError(fragment, viable), hexes).position
    expected = {"XALPHA"}
    if position and whole.fullmatch(fragment, 0, position):
        expected.add("$END")
    return URLSyntaxError(fragment, position, frozenset(expected), "xalphas")


def parse_reference(
    text: str,
    *,
    grammar: Grammar | None = None,
    parser: ParserName = "fast",
    host_checks: bool = True,
) -> tuple[URL, str | None]:
    """A URL and its fragment identifier (``None`` when ``text`` has no ``#``).

    The URL is what comes before the first ``#``, parsed as
    :func:`rfc1738.parse` does (with ``grammar``, the shipped one by default);
    the fragment, after it, must match the W3 grammar's ``fragmentid``
    (one or more ``xalpha``: letters, digits, ``$-_@.&!*"'():;,``, space,
    escapes). Errors are :class:`URLSyntaxError` with ``text`` the whole
    reference and positions in it.

    >>> parse_reference("news:comp.lang.python")
    (NewsURL('news:comp.lang.python'), None)
    >>> try:
    ...     parse_reference("http://h/#a/b")
    ... except URLSyntaxError as error:
    ...     print(error.position, error.rule)
    11 xalphas
    """
    if not isinstance(text, str):
        raise TypeError(f"a URL reference must be a str, not {type(text).__name__}")
    if grammar is None:
        grammar = shipped()
    hash_at = text.find(_HASH)
    if hash_at < 0:
        return grammar.parse(text, parser=parser, host_checks=host_checks), None
    try:
        url = grammar.parse(text[:hash_at], parser=parser, host_checks=host_checks)
    except URLSyntaxError as error:
        raise _in_reference(error, text) from None
    fragment = text[hash_at + 1 :]
    problem = check_fragment(fragment)
    if problem is not None:
        raise _shifted(problem, text, hash_at + 1) from None
    return url, fragment


def _in_reference(error: URLSyntaxError, text: str) -> URLSyntaxError:
    """``error`` of the URL at the start of ``text``, for the whole of ``text`` (still deferred)."""

    def explain() -> URLSyntaxError:
        return _shifted(error, text, 0)

    return type(error).deferred(text, explain)


def _shifted(error: URLSyntaxError, text: str, offset: int) -> URLSyntaxError:
    """``error`` of ``text[offset:...]`` as an error of ``text``."""
    return type(error)(text, error.position + offset, error.expected, error.rule, error.reason)
