"""Parse URLs strictly by the grammar of RFC 1738, into typed objects.

The grammar files (``grammar/*.lark``, shipped with the package) are the single
source of truth; both parsers here are generated from them.

>>> import rfc1738
>>> url = rfc1738.parse("ftp://myname@host.dom/%2Fetc/motd")
>>> url.user, url.segments
('myname', ('/etc', 'motd'))
>>> rfc1738.is_valid("http://user@host/")
False
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, TypeVar, overload

from .errors import (
    MAX_REFERENCE_LENGTH,
    AmbiguousFieldError,
    FrozenURLError,
    GrammarError,
    InputTooLongError,
    RFC1738Error,
    URLSyntaxError,
)
from .runtime import bulk as _bulk
from .runtime.bulk import LineMatch, LineResult
from .runtime.dispatch import ParserName
from .runtime.exported import Export
from .text.find import Found, find_urls
from .text.fragments import parse_reference
from .urls import (
    CLASSES,
    URL,
    FileURL,
    FtpURL,
    GenericURL,
    GopherURL,
    Grammar,
    HttpURL,
    MailtoURL,
    NewsURL,
    NntpURL,
    ProsperoURL,
    TelnetURL,
    WaisURL,
    load,
    shipped,
)
from .version import __version__

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from pathlib import Path
    from typing import IO

    from .bnf.adapter import ParseTree

__all__ = [
    "CLASSES",
    "MAX_REFERENCE_LENGTH",
    "URL",
    "AmbiguousFieldError",
    "Export",
    "FileURL",
    "Found",
    "FrozenURLError",
    "FtpURL",
    "GenericURL",
    "GopherURL",
    "Grammar",
    "GrammarError",
    "HttpURL",
    "InputTooLongError",
    "LineMatch",
    "LineResult",
    "MailtoURL",
    "NewsURL",
    "NntpURL",
    "ProsperoURL",
    "RFC1738Error",
    "TelnetURL",
    "URLSyntaxError",
    "WaisURL",
    "__version__",
    "check_lines",
    "export",
    "find_urls",
    "generate",
    "is_valid",
    "line_error",
    "load",
    "match_blocks",
    "match_lines",
    "parse",
    "parse_reference",
    "parse_tree",
]


#: A URL class, for :func:`parse`'s ``expect``.
U = TypeVar("U", bound=URL)


@overload
def parse(text: str, *, parser: ParserName = ..., host_checks: bool = ...) -> URL: ...
@overload
def parse(
    text: str, expect: type[U], *, parser: ParserName = ..., host_checks: bool = ...
) -> U: ...
def parse(
    text: str,
    expect: type[URL] | None = None,
    *,
    parser: ParserName = "fast",
    host_checks: bool = True,
) -> URL:
    """The typed object for a URL: :class:`HttpURL`, :class:`FtpURL`, ... or :class:`GenericURL`.

    Raises :class:`URLSyntaxError` (a ``ValueError``) for any string that is
    not a URL of its scheme's production, and ``TypeError`` for a non-``str``.
    With ``expect`` (a URL class) the URL must be of that class, as
    ``expect.parse(text)`` checks, and a type checker knows the result's
    class: ``parse(text, HttpURL).path`` is a ``str | None``.
    """
    if expect is not None:
        return expect.parse(text, parser=parser, host_checks=host_checks)
    if parser == "fast" and host_checks:
        return shipped().parse(text)  # the common call, without passing the defaults on
    return shipped().parse(text, parser=parser, host_checks=host_checks)


def is_valid(text: str, *, parser: ParserName = "fast", host_checks: bool = True) -> bool:
    """Whether :func:`parse` would return an object for ``text``."""
    if parser == "fast" and host_checks:
        return shipped().is_valid(text)  # the common call, without passing the defaults on
    return shipped().is_valid(text, parser=parser, host_checks=host_checks)


def check_lines(
    source: Iterable[str] | Iterable[bytes] | IO[str] | IO[bytes],
    *,
    grammar: Grammar | None = None,
    host_checks: bool = True,
) -> Iterator[LineResult]:
    """Validate many URLs, one a line: a file (binary or text), or any iterable of lines.

    Yields one :class:`LineResult` a line (``number``, ``text``, ``scheme``,
    ``valid``), in order and as the lines are read, keeping nothing: a file
    of any size is checked in constant memory. Only the line ending (``\\n``
    or ``\\r\\n``) is stripped; bytes are read as UTF-8. The verdict is
    :func:`is_valid`'s (``grammar``: another grammar's, see :func:`load`);
    :func:`parse` a line to get its error.

    >>> [(r.number, r.scheme, r.valid) for r in check_lines(["http://h/", "ftp://h/ x"])]
    [(1, 'http', True), (2, 'ftp', False)]
    """
    return _bulk.check_lines(grammar or shipped(), source, host_checks=host_checks)


def match_lines(
    source: Iterable[str] | Iterable[bytes] | IO[str] | IO[bytes],
    *,
    grammar: Grammar | None = None,
    host_checks: bool = True,
) -> Iterator[LineMatch]:
    """:func:`check_lines` with each valid line's match: one :class:`LineMatch` a line.

    ``match`` is the ``re.Match`` of the scheme's compiled expression for a
    valid line (host checks done), from which the line's fields are read
    without matching again (``grammar.engine(scheme).fields`` says which
    groups hold each production); ``None`` for an invalid line, and for a
    scheme no expression serves. See :func:`rfc1738.runtime.bulk.match_lines`.

    >>> [(m.number, m.valid, m.match["host"]) for m in match_lines(["http://h:81/a"])]
    [(1, True, 'h')]
    """
    return _bulk.match_lines(grammar or shipped(), source, host_checks=host_checks)


def match_blocks(
    source: Iterable[str] | Iterable[bytes] | IO[str] | IO[bytes],
    *,
    grammar: Grammar | None = None,
    host_checks: bool = True,
    size: int = _bulk.BLOCK_LINES,
) -> Iterator[list[LineMatch]]:
    """:func:`match_lines`, at most ``size`` lines at a time, each block's lines grouped by scheme.

    See :func:`rfc1738.runtime.bulk.match_blocks` for the order within a block.
    """
    return _bulk.match_blocks(grammar or shipped(), source, host_checks=host_checks, size=size)


def line_error(
    text: str,
    *,
    grammar: Grammar | None = None,
    host_checks: bool = True,
    scheme: str | None = None,
) -> URLSyntaxError:
    """The error :func:`parse` raises for ``text``, returned, not raised.

    For a line :func:`check_lines` or :func:`match_lines` found invalid: its
    details worked out; ``scheme`` is the line's (``LineMatch.scheme``),
    which spares working out its grammar file again. ``ValueError`` if
    ``text`` is valid.

    >>> line_error("ftp://h/a b").position
    9
    """
    return _bulk.line_error(grammar or shipped(), text, host_checks=host_checks, scheme=scheme)


def parse_tree(text: str) -> ParseTree:
    """The full Earley parse tree of a URL under its scheme's production.

    The scheme (before the first ``:``, any case) picks the production:
    ``httpurl``, ``ftpurl``, ... or ``genericurl`` for other schemes. Raises
    :class:`URLSyntaxError` for a string the production does not match, or
    one longer than :data:`MAX_REFERENCE_LENGTH`.
    """
    return shipped().parse_tree(text)


def export(dialect: str, grammar_dir: str | os.PathLike[str] | None = None) -> Export:
    """The grammar of ``grammar_dir`` (the shipped one when ``None``) in a regex dialect.

    ``dialect`` is ``"python"``, ``"re2"``, ``"java"`` or ``"ecmascript"``.
    Each scheme gets a full-match pattern with a named group per production
    its class reads, and groups for the fields its class reads with a hook:
    nntp's ``article_number``, and the texts that gopher's selector, search
    and gopher+ string and prospero's fieldspecs are cut from (each
    scheme's ``.derived`` says how). ``.any`` matches a URL of any scheme,
    dispatching on the scheme without case. The host checks are left out (``.omits`` says
    which); ``.as_json()`` is what ``rfc1738 grammar export`` prints. See
    :mod:`rfc1738.compile.dialects`.

    >>> import re
    >>> http = export("python").schemes["http"]
    >>> re.search(http.pattern, "http://example.com:8080/").group("port")
    '8080'
    """
    if not isinstance(dialect, str):
        raise TypeError(f"dialect must be a str, not {type(dialect).__name__}")
    # Lark: the patterns are written from the compiler's IR, read with Lark.
    from .compile.export import export_grammar

    return export_grammar(load(grammar_dir), dialect)


def generate(
    grammar_dir: str | os.PathLike[str] | None, output_path: str | os.PathLike[str]
) -> Path:
    """Write a standalone module that parses with ``grammar_dir``'s expressions, without lark.

    See :mod:`rfc1738.tools.generator`; ``None`` is the shipped grammar. Returns the path written.
    """
    # Lark: the module holds every character set of the grammar, compiled.
    from .tools.generator import generate as write_standalone

    return write_standalone(grammar_dir, output_path)
