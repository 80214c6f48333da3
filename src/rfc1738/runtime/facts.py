"""What RFC 1738 section 3 says about each scheme, in one table.

The grammar says what a URL of each scheme looks like; this table holds the
facts it does not: the section of RFC 1738 that defines the scheme, the port
its protocol uses when the URL names none, and what the scheme is for. Two
more facts of a scheme are the grammar's, and read from it: the production a
URL of the scheme is parsed with (``start``), and whether that production
has room for a user name and password (``login``, section 3.1).

>>> SCHEME_FACTS["http"].default_port, SCHEME_FACTS["http"].section
(80, '3.3')
>>> SCHEME_FACTS["http"].login, SCHEME_FACTS["ftp"].login
(False, True)
>>> facts_for("x-new").start
'genericurl'
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import cache
from types import MappingProxyType
from typing import Any

from .._records import Record
from ..bnf.files import GENERIC, scheme_key, shipped_grammar_dir, start_rule
from ..bnf.names import base_name
from .store import shipped_tables

__all__ = ["OTHER_SCHEMES", "SCHEME_FACTS", "SchemeFacts", "facts_for"]


class SchemeFacts(Record):
    """The facts about one scheme: three not in its production, two that are."""

    _fields = ("name", "start", "section", "default_port", "login", "title")
    #: The fields kept; ``start`` and ``login`` are read from the grammar.
    _KEPT = ("name", "section", "default_port", "title")
    __slots__ = _KEPT
    #: The scheme name in lower case, and the name of its grammar file.
    name: str
    #: The section of RFC 1738 that defines the scheme (``"3.3"``).
    section: str
    #: The port of the protocol when the URL names none (section 3), or None.
    default_port: int | None
    #: What the scheme is for, in the RFC's words.
    title: str

    def __init__(self, name: str, section: str, default_port: int | None, title: str) -> None:
        for field, value in zip(self._KEPT, (name, section, default_port, title), strict=True):
            object.__setattr__(self, field, value)

    @property
    def start(self) -> str:
        """The production a URL of this scheme is parsed with (``httpurl``, ...)."""
        return start_rule(self.name)

    @property
    def login(self) -> bool:
        """Whether the production allows ``user[:password]@`` before the host (``login``).

        Read from the shipped grammar: whether the scheme's file has the rule.
        """
        return _has_login(self.name)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), tuple([getattr(self, field) for field in self._KEPT]))


@cache
def _has_login(scheme: str) -> bool:
    """Whether the shipped grammar's ``<scheme>.lark`` defines or imports ``login``."""
    tables = shipped_tables()
    table = None if tables is None else tables.schemes.get(scheme)
    if table is not None:
        names: Collection[str] = table.rules
    else:
        # Lark: only where the wheel's tables are not those of the installed files.
        from ..bnf.load_errors import load_tree

        names = load_tree(shipped_grammar_dir() / f"{scheme}.lark").rules
    return "login" in map(base_name, names)


_TABLE = (
    SchemeFacts("ftp", "3.2", 21, "File Transfer Protocol"),
    SchemeFacts("http", "3.3", 80, "Hypertext Transfer Protocol"),
    SchemeFacts("gopher", "3.4", 70, "The Gopher Protocol"),
    SchemeFacts("mailto", "3.5", None, "Electronic mail address"),
    SchemeFacts("news", "3.6", None, "USENET news"),
    SchemeFacts("nntp", "3.7", 119, "USENET news using NNTP access"),
    SchemeFacts("telnet", "3.8", 23, "Reference to interactive sessions"),
    SchemeFacts("wais", "3.9", 210, "Wide Area Information Servers"),
    SchemeFacts("file", "3.10", None, "Host-specific file names"),
    SchemeFacts("prospero", "3.11", 1525, "Prospero Directory Service"),
)

#: The ten schemes RFC 1738 defines, by lower-case name.
SCHEME_FACTS: Mapping[str, SchemeFacts] = MappingProxyType({f.name: f for f in _TABLE})

#: Every other scheme: ``scheme ":" schemepart`` (sections 2.1 and 5), read
#: with the generic file; where the schemepart is an ``ip-schemepart``
#: (section 3.1) it may hold a login.
OTHER_SCHEMES = SchemeFacts(GENERIC, "2.1", None, "Any other scheme")


def facts_for(scheme: str) -> SchemeFacts:
    """The facts for ``scheme`` (any case); :data:`OTHER_SCHEMES` for other schemes."""
    key = scheme_key(scheme)
    return OTHER_SCHEMES if key is None else SCHEME_FACTS.get(key, OTHER_SCHEMES)
