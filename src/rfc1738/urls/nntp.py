"""``NntpURL``: RFC 1738 section 3.7."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Self

from ..parse.hosts import read_hostport
from ..parse.parsers import ParserSet
from ..parse.spans import Spans
from ._fields import Number, Verbatim
from .base import URL, Parts, PortMixin, hostport, number

__all__ = ["NntpURL"]


@dataclass(frozen=True, slots=True, repr=False)
class NntpURL(PortMixin, URL):
    """An ``nntp`` URL (RFC 1738 section 3.7).

    BNF: ``nntpurl = "nntp://" hostport "/" group [ "/" digits ]``::

        nntp://news.example.org:1119/comp.lang.python/4711
        \\__/   \\______________/ \\__/ \\______________/ \\__/
       scheme        host       port      group     article_number

    The group is a newsgroup name (never escaped); the article number is
    decimal. ``raw_article_number`` keeps the digits as written.

    >>> import rfc1738
    >>> url = rfc1738.parse("nntp://news.example.org/comp.lang.python/4711")
    >>> url.group, url.article_number, url.effective_port
    ('comp.lang.python', 4711, 119)
    """

    #: The host as written.
    host: str
    #: The port digits as written; ``None`` when absent.
    raw_port: str | None
    #: The newsgroup name.
    group: str
    #: The article number's digits as written; ``None`` when absent.
    raw_article_number: str | None

    PRODUCTIONS: ClassVar[frozenset[str]] = frozenset({"host", "hostnumber", "port", "group"})
    SCHEME: ClassVar[str] = "nntp"
    FIELDS = MappingProxyType(
        {
            "host": Verbatim("host", optional=False),
            "port": Number("raw_port"),
            "group": Verbatim("group", optional=False),
            "article_number": Number("raw_article_number"),
        }
    )

    @classmethod
    def from_spans(
        cls, text: str, spans: Spans, *, host_checks: bool = True, grammar: ParserSet | None = None
    ) -> Self:
        host, port = read_hostport(text, spans, host_checks)
        assert host is not None
        start, end = spans["group"]
        # What follows the group is "/" digits, or nothing: the BNF names no
        # production for the article number but digits, which the port uses too.
        article_number = text[end + 1 :] if end < len(text) else None
        return cls(
            text,
            text[: text.index(":")],
            host,
            port,
            text[start:end],
            article_number,
            host_checks=host_checks,
            grammar=grammar,
        )

    @property
    def article_number(self) -> int | None:
        """The article number; ``None`` when the URL names a group only."""
        return number(self.raw_article_number)

    def _write(self, parts: Parts) -> str:
        text = f"{parts['raw_scheme']}://{hostport(parts)}/{parts['group']}"
        article = parts["raw_article_number"]
        return text if article is None else f"{text}/{article}"
