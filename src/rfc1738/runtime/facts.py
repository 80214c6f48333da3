"""What RFC 1738 section 3 says about each scheme, in one table.

The grammar says what a URL of each scheme looks like; this table holds the
facts it does not: the section of RFC 1738 that defines the scheme, the port
its protocol uses when the URL names none, and whether the scheme's production
has room for a user name and password (``login``, section 3.1).

>>> SCHEME_FACTS["http"].default_port, SCHEME_FACTS["http"].section
(80, '3.3')
>>> SCHEME_FACTS["http"].login, SCHEME_FACTS["ftp"].login
(False, True)
>>> facts_for("x-new").start
'genericurl'
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .._records import Record

__all__ = ["OTHER_SCHEMES", "SCHEME_FACTS", "SchemeFacts", "facts_for"]


class SchemeFacts(Record):
    """The facts about one scheme that are not in its production."""

    _fields = ("name", "start", "section", "default_port", "login", "title")
    __slots__ = _fields
    #: The scheme name in lower case, and the name of its grammar file.
    name: str
    #: The production a URL of this scheme is parsed with (``httpurl``, ...).
    start: str
    #: The section of RFC 1738 that defines the scheme (``"3.3"``).
    section: str
    #: The port of the protocol when the URL names none (section 3), or None.
    default_port: int | None
    #: Whether the production allows ``user[:password]@`` before the host (``login``).
    login: bool
    #: What the scheme is for, in the RFC's words.
    title: str

    def __init__(
        self,
        name: str,
        start: str,
        section: str,
        default_port: int | None,
        login: bool,
        title: str,
    ) -> None:
        self._fill(name, start, section, default_port, login, title)


_TABLE = (
    SchemeFacts("ftp", "ftpurl", "3.2", 21, True, "File Transfer Protocol"),
    SchemeFacts("http", "httpurl", "3.3", 80, False, "Hypertext Transfer Protocol"),
    SchemeFacts("gopher", "gopherurl", "3.4", 70, False, "The Gopher Protocol"),
    SchemeFacts("mailto", "mailtourl", "3.5", None, False, "Electronic mail address"),
    SchemeFacts("news", "newsurl", "3.6", None, False, "USENET news"),
    SchemeFacts("nntp", "nntpurl", "3.7", 119, False, "USENET news using NNTP access"),
    SchemeFacts("telnet", "telneturl", "3.8", 23, True, "Reference to interactive sessions"),
    SchemeFacts("wais", "waisurl", "3.9", 210, False, "Wide Area Information Servers"),
    SchemeFacts("file", "fileurl", "3.10", None, False, "Host-specific file names"),
    SchemeFacts("prospero", "prosperourl", "3.11", 1525, False, "Prospero Directory Service"),
)

#: The ten schemes RFC 1738 defines, by lower-case name.
SCHEME_FACTS: Mapping[str, SchemeFacts] = MappingProxyType({f.name: f for f in _TABLE})

#: Every other scheme: ``scheme ":" schemepart`` (sections 2.1 and 5); where the
#: schemepart is an ``ip-schemepart`` (section 3.1) it may hold a login.
OTHER_SCHEMES = SchemeFacts("generic", "genericurl", "2.1", None, True, "Any other scheme")


def facts_for(scheme: str) -> SchemeFacts:
    """The facts for ``scheme`` (any case); :data:`OTHER_SCHEMES` for other schemes."""
    return SCHEME_FACTS.get(scheme.lower(), OTHER_SCHEMES) if scheme.isascii() else OTHER_SCHEMES
