"""``WaisURL``: RFC 1738 section 3.9."""

from __future__ import annotations

from typing import ClassVar, Literal

from ._fields import Computed, Text
from ._login import host_field, port_field
from .base import URL

__all__ = ["WaisKind", "WaisURL"]

#: Which of the three forms of section 3.9 a wais URL has.
WaisKind = Literal["database", "index", "doc"]


def _kind(search: bool, wtype: bool) -> WaisKind:
    if search:
        return "index"
    return "doc" if wtype else "database"


class WaisURL(URL):
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

    host = host_field()
    port = port_field()
    # Section 3.9 reserves nothing of its own: every reserved character may mean
    # something to the server, so an escape of one stays apart from it.
    database = Text(
        "database", escape="database", optional=False, doc="The database name, decoded."
    )
    search = Text(
        "search",
        escape="search",
        doc='The search, decoded; ``None`` unless :attr:`kind` is ``"index"``. Where it '
        "holds an escape of a reserved character that may also stand for itself in it, "
        "reading it raises :class:`~rfc1738.AmbiguousFieldError`: read ``raw_search``.",
    )
    wtype = Text(
        "wtype",
        escape="wtype",
        doc='The document type, decoded; ``None`` unless :attr:`kind` is ``"doc"``.',
    )
    wpath = Text(
        "wpath",
        escape="wpath",
        doc="The document path (an opaque document id), decoded; ``None`` unless "
        ':attr:`kind` is ``"doc"``.',
    )

    #: For type checkers: the raw twins the declarations give (see :mod:`._fields`).
    raw_port: str | None
    raw_database: str
    raw_search: str | None
    raw_wtype: str | None
    raw_wpath: str | None

    SCHEME: ClassVar[str] = "wais"
    kind = Computed(
        _kind,
        present=("raw_search", "raw_wtype"),
        doc='``"database"``, ``"index"`` (with a search) or ``"doc"`` (one document).',
    )
