"""A URL and its fragment identifier: the 1994 W3 grammar's ``fragmentaddress``.

RFC 1738 leaves the fragment out of the URL (appendix: "a fragment identifier
... is not part of the URL"); the 1994 W3 grammar names the pair::

    fragmentaddress         uri [ # fragmentid ]
    fragmentid              xalphas

:func:`parse_reference` reads the URL with the RFC 1738 grammar and the
fragment with ``fragmentid`` of ``grammars/fragment/fragment.lark`` (the W3
grammar's rule and characters), compiled like a scheme's start rule
(:func:`fragment_tables`): its error automaton says whether a fragment is
one and, if not, where it stops being one, what was expected there and in
which production, as it does for a URL.

>>> url, fragment = parse_reference("http://ds.internic.net/instructions/overview.html#WARNING")
>>> url.host, fragment
('ds.internic.net', 'WARNING')
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..bnf.files import package_data
from ..errors import GrammarError, URLSyntaxError
from ..runtime.automaton import ErrorAutomaton
from ..runtime.store import GrammarTables
from ..runtime.tables import Tables, content_key, read_unchecked
from ..urls import shipped

try:  # written into the wheel by hatch_build.py, beside the shipped grammar's; not in a checkout
    from ..runtime._tables import FRAGMENT as _BUILT  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - the tests run the built wheel
    _BUILT = None  # type: ignore[assignment, unused-ignore]

if TYPE_CHECKING:
    from ..runtime.dispatch import ParserName
    from ..urls import URL, Grammar

__all__ = [
    "FRAGMENT_RULE",
    "check_fragment",
    "fragment_grammar_file",
    "fragment_tables",
    "parse_reference",
]

#: The rule a fragment identifier must match.
FRAGMENT_RULE = "fragmentid"

#: What separates a URL from its fragment identifier (``fragmentaddress``).
_HASH = "#"


def fragment_grammar_file() -> Path:
    """The grammar file of ``fragmentid`` (package data)."""
    return package_data("grammars", "fragment", "fragment.lark")


def fragment_tables(directory: Path | None = None) -> Tables:
    """The compiled tables of ``fragmentid``'s directory (the installed one by default).

    The wheel's, while their key is that of the directory's file;
    otherwise (``hatch_build.py`` building the wheel from a checkout's
    ``grammars/fragment``) compiled through the tables' store, the one way
    from run time to the compiler, and cached on disk as an edited grammar's are.
    """
    found = fragment_grammar_file().parent if directory is None else directory
    if _BUILT is not None and _BUILT.get("key") == content_key(found):
        # This version's build wrote them (the key holds the version and the format).
        return read_unchecked(_BUILT)
    compiled = GrammarTables(found, {})
    compiled.table(fragment_grammar_file().stem, FRAGMENT_RULE, ())
    return compiled.tables


@cache
def _automaton() -> ErrorAutomaton:
    """The error automaton of ``fragmentid``, from its tables."""
    data = fragment_tables().schemes[fragment_grammar_file().stem].automaton
    if data is None:  # not for the file the package ships: the tests compile it
        raise GrammarError(f"{FRAGMENT_RULE} has no error automaton", str(fragment_grammar_file()))
    return ErrorAutomaton.from_data(data)


def check_fragment(fragment: str) -> URLSyntaxError | None:
    """``None`` if ``fragment`` is a ``fragmentid``, else the error (positions in ``fragment``).

    >>> check_fragment("WARNING") is None
    True
    >>> check_fragment("a#b").position
    1
    """
    found = _automaton().error(fragment)
    return None if found is None else URLSyntaxError(fragment, *found)


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
