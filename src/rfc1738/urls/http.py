"""``HttpURL``: RFC 1738 section 3.3."""

from __future__ import annotations

from typing import ClassVar

from ._fields import Number, Path, Text, Verbatim
from .base import URL

__all__ = ["HttpURL"]


class HttpURL(URL):
    """An ``http`` URL (RFC 1738 section 3.3).

    BNF: ``httpurl = "http://" hostport [ "/" hpath [ "?" search ]]``::

        http://www.example.com:8080/docs/a%20b.html?q=rfc
        \\__/   \\_____________/ \\__/ \\____________/ \\___/
        scheme       host      port      path      search

    No user name or password. ``path`` is the hpath without the ``/`` before
    it, ``segments`` its ``/``-separated parts, each decoded (``%2F`` is a
    ``/`` inside a segment); a search needs the ``/`` before it.

    >>> import rfc1738
    >>> url = rfc1738.parse("http://www.example.com:8080/docs/a%20b.html?q=rfc")
    >>> url.host, url.port, url.path, url.segments, url.search
    ('www.example.com', 8080, 'docs/a b.html', ('docs', 'a b.html'), 'q=rfc')
    """

    #: The host as written (host names and numbers are never escaped).
    host = Verbatim("host", optional=False)
    #: The port as a number (``raw_port``: its digits as written); ``None`` when absent.
    port = Number("port")
    #: The hpath, decoded, without the ``/`` before it; ``segments`` split at ``/``.
    path = Path("hpath", escape="hsegment")
    #: The search, decoded, without the ``?``; ``None`` when absent.
    search = Text("search", escape="search")

    #: For type checkers: the raw twins the declarations give (see :mod:`._fields`).
    raw_port: str | None
    raw_path: str | None
    raw_search: str | None
    segments: tuple[str, ...]

    SCHEME: ClassVar[str] = "http"
