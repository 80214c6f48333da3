"""``HttpURL``: RFC 1738 section 3.3."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Self

from ..parse.hosts import read_hostport, span_text
from ..parse.parsers import ParserSet
from ..parse.spans import Spans
from ._fields import Escaped, Number, Path, Segments, Verbatim
from .base import URL, Parts, PortMixin, SegmentedPathMixin, decoded, hostport

__all__ = ["HttpURL"]


@dataclass(frozen=True, slots=True, repr=False)
class HttpURL(SegmentedPathMixin, PortMixin, URL):
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
    host: str
    #: The port digits as written; ``None`` when absent.
    raw_port: str | None
    #: The hpath as written, without the ``/`` before it; ``None`` when absent.
    raw_path: str | None
    #: The search as written, without the ``?``; ``None`` when absent.
    raw_search: str | None

    PRODUCTIONS: ClassVar[frozenset[str]] = frozenset(
        {"host", "hostnumber", "port", "hpath", "search"}
    )
    SCHEME: ClassVar[str] = "http"
    FIELDS = MappingProxyType(
        {
            "host": Verbatim("host", optional=False),
            "port": Number("raw_port"),
            "path": Path("raw_path", file="http", rule="hsegment"),
            "segments": Segments("raw_path", file="http", rule="hsegment"),
            "search": Escaped("raw_search", file="http", rule="search"),
        }
    )

    @classmethod
    def from_spans(
        cls, text: str, spans: Spans, *, host_checks: bool = True, grammar: ParserSet | None = None
    ) -> Self:
        host, port = read_hostport(text, spans, host_checks)
        assert host is not None
        return cls(
            text,
            text[: text.index(":")],
            host,
            port,
            span_text(text, spans, "hpath"),
            span_text(text, spans, "search"),
            host_checks=host_checks,
            grammar=grammar,
        )

    @property
    def search(self) -> str | None:
        """The search part, decoded; ``None`` when absent, ``""`` after a bare ``?``."""
        return decoded(self.raw_search)

    def _write(self, parts: Parts) -> str:
        path, search = parts["raw_path"], parts["raw_search"]
        text = f"{parts['raw_scheme']}://{hostport(parts)}"
        if path is None:
            if search is not None:
                raise ValueError("an http search needs a path before it (section 3.3): path=''")
            return text
        text += f"/{path}"
        return text if search is None else f"{text}?{search}"
