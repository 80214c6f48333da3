"""``WaisURL``: RFC 1738 section 3.9."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Literal, Self

from ..parse.hosts import read_hostport, span_text
from ..parse.parsers import ParserSet
from ..parse.spans import Spans
from ._fields import Escaped, Number, Verbatim
from ._text import decode
from .base import URL, Parts, PortMixin, decoded, hostport

__all__ = ["WaisKind", "WaisURL"]

#: Which of the three forms of section 3.9 a wais URL has.
WaisKind = Literal["database", "index", "doc"]


@dataclass(frozen=True, slots=True, repr=False)
class WaisURL(PortMixin, URL):
    """A ``wais`` URL (RFC 1738 section 3.9), in one of three forms.

    BNF: ``waisurl = waisdatabase | waisindex | waisdoc``::

        wais://wais.example.org:210/rfcs                  kind "database"
        wais://wais.example.org/rfcs?url%20syntax          kind "index"
        wais://wais.example.org/rfcs/TEXT/0x1a2b          kind "doc"
        \\__/   \\_____________/ \\__/ \\__/ \\__/ \\____/
       scheme       host      port database| wtype wpath
                                          search

    ``database`` is always there; ``search`` only in an index URL;
    ``wtype`` and ``wpath`` (the document's type and opaque id) only in a doc
    URL.

    >>> import rfc1738
    >>> url = rfc1738.parse("wais://wais.example.org/rfcs/TEXT/0x1a2b")
    >>> url.kind, url.database, url.wtype, url.wpath, url.search
    ('doc', 'rfcs', 'TEXT', '0x1a2b', None)
    """

    #: The host as written.
    host: str
    #: The port digits as written; ``None`` when absent.
    raw_port: str | None
    #: The database name as written.
    raw_database: str
    #: The search as written (an index URL); ``None`` otherwise.
    raw_search: str | None
    #: The document type as written (a doc URL); ``None`` otherwise.
    raw_wtype: str | None
    #: The document path as written (a doc URL); ``None`` otherwise.
    raw_wpath: str | None

    PRODUCTIONS: ClassVar[frozenset[str]] = frozenset(
        {"host", "hostnumber", "port", "database", "search", "wtype", "wpath"}
        | {"waisdatabase", "waisindex", "waisdoc"}
    )
    SCHEME: ClassVar[str] = "wais"
    FIELDS = MappingProxyType(
        {
            "host": Verbatim("host", optional=False),
            "port": Number("raw_port"),
            "database": Escaped("raw_database", optional=False, file="wais", rule="database"),
            "search": Escaped("raw_search", file="wais", rule="search"),
            "wtype": Escaped("raw_wtype", file="wais", rule="wtype"),
            "wpath": Escaped("raw_wpath", file="wais", rule="wpath"),
        }
    )

    @classmethod
    def from_spans(
        cls, text: str, spans: Spans, *, host_checks: bool = True, grammar: ParserSet | None = None
    ) -> Self:
        host, port = read_hostport(text, spans, host_checks)
        assert host is not None
        index, doc = "waisindex" in spans, "waisdoc" in spans
        return cls(
            text,
            text[: text.index(":")],
            host,
            port,
            span_text(text, spans, "database") or "",
            span_text(text, spans, "search") if index else None,
            span_text(text, spans, "wtype") if doc else None,
            span_text(text, spans, "wpath") if doc else None,
            host_checks=host_checks,
            grammar=grammar,
        )

    @property
    def kind(self) -> WaisKind:
        """``"database"``, ``"index"`` (with a search) or ``"doc"`` (one document)."""
        if self.raw_search is not None:
            return "index"
        return "database" if self.raw_wtype is None else "doc"

    @property
    def database(self) -> str:
        """The database name, decoded."""
        return decode(self.raw_database)

    @property
    def search(self) -> str | None:
        """The search, decoded; ``None`` unless :attr:`kind` is ``"index"``."""
        return decoded(self.raw_search)

    @property
    def wtype(self) -> str | None:
        """The document type, decoded; ``None`` unless :attr:`kind` is ``"doc"``."""
        return decoded(self.raw_wtype)

    @property
    def wpath(self) -> str | None:
        """The document path, decoded; ``None`` unless :attr:`kind` is ``"doc"``."""
        return decoded(self.raw_wpath)

    def _write(self, parts: Parts) -> str:
        search, wtype, wpath = parts["raw_search"], parts["raw_wtype"], parts["raw_wpath"]
        text = f"{parts['raw_scheme']}://{hostport(parts)}/{parts['raw_database']}"
        if (wtype is None) != (wpath is None):
            raise ValueError("a wais document URL has both wtype and wpath (section 3.9)")
        if search is not None:
            if wtype is not None:
                raise ValueError("a wais URL has a search or a document, not both (section 3.9)")
            return f"{text}?{search}"
        return text if wtype is None else f"{text}/{wtype}/{wpath}"
