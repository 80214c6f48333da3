"""``NewsURL``: RFC 1738 section 3.6."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from ..runtime.layout import Layout
from ..runtime.spans import Spans
from ._fields import Computed, Field, Text, Verbatim
from ._text import escape
from .base import URL, Parts

__all__ = ["NewsURL"]


class _Article(Text[str | None]):
    """A message id ``unique@host``: the unique part escaped, the host as given."""

    def write(self, name: str, value: object, chars: Callable[[str], frozenset[str]]) -> str:
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a str, not {type(value).__name__}")
        unique, at, host = value.rpartition("@")
        if not at:
            raise ValueError(f"a news article is unique@host, not {value!r}")
        assert self.escape is not None
        return f"{escape(unique, chars(self.escape))}@{host}"


def _message_host(article: str | None) -> str | None:
    return None if article is None else article.rpartition("@")[2]


def _all_groups(article: bool, group: bool) -> bool:
    # grouppart's "*" alternative: no article, and a group that is not the group
    # production (the hook reads it from grouppart's span).
    return not article and not group


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

    group = Verbatim(
        "group", doc='The newsgroup name, or ``"*"``; ``None`` for an article. Never escaped.'
    )
    # Section 3.6: "No additional characters are reserved within the components
    # of a news URL" (the "@" of a message id is the one).
    article = _Article(
        "article",
        escape="article",
        reserved="@",
        doc="The message id ``unique@host``, decoded; ``None`` for a group.",
    )

    #: For type checkers: the raw twin the declaration gives (see :mod:`._fields`).
    raw_article: str | None

    SCHEME: ClassVar[str] = "news"
    # grouppart = "*" | group | article: "*" is neither production; a hook
    # reads it from grouppart's span as the group. The article's host is
    # checked as every host is.
    EXTRA_PRODUCTIONS: ClassVar[frozenset[str]] = frozenset({"grouppart", "host"})

    @classmethod
    def _cut(cls, raw: Parts, text: str, spans: Spans, layout: Callable[[], Layout]) -> None:
        if raw["raw_article"] is None and raw["group"] is None:
            start, end = spans["grouppart"]
            raw["group"] = text[start:end]

    host = Computed(
        _message_host,
        reads=("raw_article",),
        doc="The host of the message id (as written); ``None`` for a group.",
    )
    all_groups = Computed(
        _all_groups,
        present=("raw_article",),
        matched=("group",),
        doc="Whether the URL is ``news:*``, all groups.",
    )

    def _apply(self, parts: Parts, changes: Mapping[str, object]) -> None:
        # One of group and article: setting one clears the other (None clears nothing).
        given = {self._field_named(name): value for name, value in changes.items()}
        group, article = NewsURL.group, NewsURL.article
        if given.get(group) is not None and article not in given:
            parts["raw_article"] = None
        if given.get(article) is not None and group not in given:
            parts["group"] = None
        URL._apply(self, parts, changes)

    def _normalized(self, field: Field[Any], value: object) -> object:
        if field is NewsURL.article and isinstance(value, str):
            # The host of a message id ignores case, as every host does.
            unique, _at, host = value.rpartition("@")
            normal = field.normalized(unique, self._escape_sets(field, field.name))
            return f"{normal}@{host.lower()}"
        return URL._normalized(self, field, value)

    def _write(self, parts: Parts, kept: frozenset[int] | None = None) -> str:
        if (parts["group"] is None) == (parts["raw_article"] is None):
            raise ValueError("a news URL has exactly one of group and article")
        return URL._write(self, parts, kept)
