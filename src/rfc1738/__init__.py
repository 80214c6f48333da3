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
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING

from .errors import (
    MAX_REFERENCE_LENGTH,
    GrammarError,
    InputTooLongError,
    RFC1738Error,
    URLSyntaxError,
)
from .fragments import parse_reference
from .grammar_set import Grammar, ParserName
from .text import Found, find_urls
from .urls import (
    CLASSES,
    URL,
    FileURL,
    FtpURL,
    GenericURL,
    GopherURL,
    HttpURL,
    MailtoURL,
    NewsURL,
    NntpURL,
    ProsperoURL,
    TelnetURL,
    WaisURL,
)

if TYPE_CHECKING:
    from pathlib import Path

    from lark import Token, Tree

__all__ = [
    "CLASSES",
    "MAX_REFERENCE_LENGTH",
    "URL",
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
    "find_urls",
    "generate",
    "is_valid",
    "load",
    "parse",
    "parse_reference",
    "parse_tree",
]


@cache
def _shipped() -> Grammar:
    return Grammar()


def load(
    grammar_dir: str | os.PathLike[str] | None = None,
    classes: Mapping[str, type[URL]] | None = None,
    *,
    max_reference_length: int = MAX_REFERENCE_LENGTH,
) -> Grammar:
    """The grammar set of a directory (the shipped grammar when ``None``).

    A ``<scheme>.lark`` file in the directory makes ``<scheme>:`` URLs parse
    under its start rule ``<scheme>url``; ``classes`` says which
    :class:`URL` subclass they become (:class:`GenericURL` otherwise);
    ``max_reference_length`` bounds what the Earley parser accepts.
    """
    if grammar_dir is None and not classes and max_reference_length == MAX_REFERENCE_LENGTH:
        return _shipped()
    return Grammar(grammar_dir, classes, max_reference_length=max_reference_length)


def parse(text: str, *, parser: ParserName = "fast", host_checks: bool = True) -> URL:
    """The typed object for a URL: :class:`HttpURL`, :class:`FtpURL`, ... or :class:`GenericURL`.

    Raises :class:`URLSyntaxError` (a ``ValueError``) for any string that is
    not a URL of its scheme's production, and ``TypeError`` for a non-``str``.
    """
    return _shipped().parse(text, parser=parser, host_checks=host_checks)


def is_valid(text: str, *, parser: ParserName = "fast", host_checks: bool = True) -> bool:
    """Whether :func:`parse` would return an object for ``text``."""
    return _shipped().is_valid(text, parser=parser, host_checks=host_checks)


def parse_tree(text: str) -> Tree[Token]:
    """The full Earley parse tree of a URL under its scheme's production.

    The scheme (before the first ``:``, any case) picks the production:
    ``httpurl``, ``ftpurl``, ... or ``genericurl`` for other schemes. Raises
    :class:`URLSyntaxError` for a string the production does not match, or
    one longer than :data:`MAX_REFERENCE_LENGTH`.
    """
    return _shipped().parse_tree(text)


def generate(
    grammar_dir: str | os.PathLike[str] | None, output_path: str | os.PathLike[str]
) -> Path:
    """Write a standalone module that parses with ``grammar_dir``'s expressions, without lark.

    See :mod:`rfc1738.generator`; ``None`` is the shipped grammar. Returns the path written.
    """
    from .generator import generate as write

    return write(grammar_dir, output_path)
