"""``HttpURL``: RFC 1738 section 3.3."""

from __future__ import annotations

from typing import ClassVar

from ._fields import Path, Text
from ._login import host_field, port_field
from .base import URL, Parts

__all__ = ["HttpURL"]


class HttpURL(URL):
    """An ``http`` URL (RFC 1738 section 3.3).

    BNF: ``httpurl = "http://" hostport [ "/" hpath [ "?" search ]]``::

        http://www.example.com:8080/docs/a%20b.html?q=rfc
        \\__/   \\_____________/ \\__/ \\____________/ \\___/
        scheme       host      port      path      search

    No user name or password. ``path`` is the hpath without the ``/`` before
    it, ``segments`` its ``/``-separated parts, each decoded (``%2F`` is a
    ``/`` inside a segment); a search needs the ``/`` before it. Section 3.3
    lets ``http://h`` leave out the ``/`` of ``http://h/``: the same URL,
    as :meth:`normalize` says.

    >>> import rfc1738
    >>> url = rfc1738.parse("http://www.example.com:8080/docs/a%20b.html?q=rfc")
    >>> url.host, url.port, url.path, url.segments, url.search
    ('www.example.com', 8080, 'docs/a b.html', ('docs', 'a b.html'), 'q=rfc')
    """

    host = host_field()
    port = port_field()
    # Section 3.3: within the path and the search, "/", ";" and "?" are reserved.
    path = Path(
        "hpath",
        escape="hsegment",
        reserved="/;?",
        doc="The hpath, decoded, without the ``/`` before it (``path='/a'`` writes "
        "``http://h//a``); ``None`` when absent. Where an escape of a reserved ``/`` or ``;`` "
        "would be lost in it, reading it raises :class:`~rfc1738.AmbiguousFieldError`.",
    )
    # The search is a query string that the server reads as written: besides
    # section 3.3's three, every reserved character may mean something there
    # (the "=" and "&" of a form's query), so an escape of one stays apart.
    search = Text(
        "search",
        escape="search",
        doc="The search, decoded, without the ``?``; ``None`` when absent. Where it holds an "
        "escape of a reserved character that may also stand for itself in it (``%26``, "
        "``%3D``), reading it raises :class:`~rfc1738.AmbiguousFieldError`: read "
        "``raw_search``.",
    )

    #: For type checkers: the raw twins the declarations give (see :mod:`._fields`).
    raw_port: str | None
    raw_path: str | None
    raw_search: str | None
    segments: tuple[str, ...]

    SCHEME: ClassVar[str] = "http"

    def _equivalent(self, parts: Parts) -> frozenset[int] | None:
        # Section 3.3: "If neither <path> nor <searchpart> is present, the "/"
        # may also be omitted": written, as an empty path.
        if parts["raw_path"] is None and parts["raw_search"] is None:
            parts["raw_path"] = ""
        return None
