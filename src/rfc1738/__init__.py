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
from typing import TYPE_CHECKING

from .errors import (
    MAX_REFERENCE_LENGTH,
    GrammarError,
    InputTooLongError,
    RFC1738Error,
    URLSyntaxError,
)
from .parse.dialects import Export, export_grammar
from .parse.parsers import ParserName
from .text.find import Found, find_urls
from .text.fragments import parse_reference
from .tools.generator import generate as write_standalone
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
    from pathlib import Path

    from lark import Token, Tree

__all__ = [
    "CLASSES",
    "MAX_REFERENCE_LENGTH",
    "URL",
    "Export",
    "FileURL",
    "Found",
    "FtpURL",
    "GenericURL",
    "GopherURL",
    "Grammar",
    "GrammarError",
    "HttpURL",
    "InputTooLongError",
    "MailtoURL",
    "NewsURL",
    "NntpURL",
    "ProsperoURL",
    "RFC1738Error",
    "TelnetURL",
    "URLSyntaxError",
    "WaisURL",
    "__version__",
    "export",
    "find_urls",
    "generate",
    "is_valid",
    "load",
    "parse",
    "parse_reference",
    "parse_tree",
]


def parse(text: str, *, parser: ParserName = "fast", host_checks: bool = True) -> URL:
    """The typed object for a URL: :class:`HttpURL`, :class:`FtpURL`, ... or :class:`GenericURL`.

    Raises :class:`URLSyntaxError` (a ``ValueError``) for any string that is
    not a URL of its scheme's production, and ``TypeError`` for a non-``str``.
    """
    return shipped().parse(text, parser=parser, host_checks=host_checks)


def is_valid(text: str, *, parser: ParserName = "fast", host_checks: bool = True) -> bool:
    """Whether :func:`parse` would return an object for ``text``."""
    return shipped().is_valid(text, parser=parser, host_checks=host_checks)


def parse_tree(text: str) -> Tree[Token]:
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
    its class reads; ``.any`` matches a URL of any scheme, dispatching on the
    scheme without case. The host checks are left out (``.omits`` says
    which); ``.as_json()`` is what ``rfc1738 grammar export`` prints. See
    :mod:`rfc1738.parse.dialects`.

    >>> import re
    >>> http = export("python").schemes["http"]
    >>> re.search(http.pattern, "http://example.com:8080/").group("port")
    '8080'
    """
    return export_grammar(load(grammar_dir), dialect)


def generate(
    grammar_dir: str | os.PathLike[str] | None, output_path: str | os.PathLike[str]
) -> Path:
    """Write a standalone module that parses with ``grammar_dir``'s expressions, without lark.

    See :mod:`rfc1738.tools.generator`; ``None`` is the shipped grammar. Returns the path written.
    """
    return write_standalone(grammar_dir, output_path)
