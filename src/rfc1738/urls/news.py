"""``NewsURL``: RFC 1738 section 3.6."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Self

from ..parse.hosts import check_spans, span_text
from ..parse.parsers import ParserSet
from ..parse.spans import Spans
from ._fields import Field, Verbatim
from ._text import escape, normalize_escapes, rule_chars
from .base import URL, Parts, decoded

__all__ = ["NewsURL"]

#: The grouppart that means every group (section 3.6).
ALL_GROUPS = "*"


@dataclass(frozen=True, slots=True)
class _Article(Field):
    """A message id ``unique@host``: the unique part escaped, the host as given."""

    def write(self, name: str, value: object) -> str:
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a str, not {type(value).__name__}")
        unique, at, host = value.rpartition("@")
        if not at:
            raise ValueError(f"a news article is unique@host, not {value!r}")
        return f"{escape(unique, rule_chars('news', 'article'))}@{host}"


@dataclass(frozen=True, slots=True, repr=False)
class NewsURL(URL):
    """A ``news`` URL (RFC 1738 section 3.6).

    BNF: ``newsurl = "news:" grouppart``, ``grouppart = "*" | group | article``::

        news:comp.infosystems.www       news:1234%20x@news.example.org
        \\__/ \\___________________/     \\__/ \\_____________________/
       scheme        group              scheme        article

    Exactly one of ``group`` and ``article`` is set: ``group`` is a newsgroup
    name or ``"*"`` (all groups), ``article`` a message id without its angle
    brackets (an ``@`` tells it from a group). No host names a server; the
    ``host`` of an article is the one in its message id.

    >>> import rfc1738
    >>> rfc1738.parse("news:comp.infosystems.www").group
    'comp.infosystems.www'
    >>> url = rfc1738.parse("news:1234%20x@news.example.org")
    >>> url.article, url.host, url.group
    ('1234 x@news.example.org', 'news.example.org', None)
    """

    #: The newsgroup name, or ``"*"``; ``None`` for an article. Never escaped.
    group: str | None
    #: The message id as written; ``None`` for a group.
    raw_article: str | None

    PRODUCTIONS: ClassVar[frozenset[str]] = frozenset(
        {"grouppart", "group", "article", "host", "hostnumber"}
    )
    SCHEME: ClassVar[str] = "news"
    FIELDS = MappingProxyType({"group": Verbatim("group"), "article": _Article("raw_article")})

    @classmethod
    def from_spans(
        cls, text: str, spans: Spans, *, host_checks: bool = True, grammar: ParserSet | None = None
    ) -> Self:
        article = span_text(text, spans, "article")
        if host_checks:
            check_spans(text, spans)
        group = span_text(text, spans, "group")
        if article is None and group is None:
            group = span_text(text, spans, "grouppart")
        return cls(
            text, text[: text.index(":")], group, article, host_checks=host_checks, grammar=grammar
        )

    @property
    def article(self) -> str | None:
        """The message id ``unique@host``, decoded; ``None`` for a group."""
        return decoded(self.raw_article)

    @property
    def host(self) -> str | None:
        """The host of the message id (as written); ``None`` for a group."""
        return None if self.raw_article is None else self.raw_article.rpartition("@")[2]

    @property
    def all_groups(self) -> bool:
        """Whether the URL is ``news:*``, all groups."""
        return self.group == ALL_GROUPS

    def _apply(self, parts: Parts, changes: Mapping[str, object]) -> None:
        # One of group and article: setting one clears the other.
        if "group" in changes and "article" not in changes:
            parts["raw_article"] = None
        if "article" in changes and "group" not in changes:
            parts["group"] = None
        URL._apply(self, parts, changes)

    def _normalized(self, name: str, value: object) -> object:
        if name == "raw_article" and isinstance(value, str):
            unique, _at, host = value.rpartition("@")
            return f"{normalize_escapes(unique)}@{host.lower()}"
        return URL._normalized(self, name, value)

    def _write(self, parts: Parts) -> str:
        group, article = parts["group"], parts["raw_article"]
        if (group is None) == (article is None):
            raise ValueError("a news URL has exactly one of group and article")
        return f"{parts['raw_scheme']}:{group if article is None else article}"
