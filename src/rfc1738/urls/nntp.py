"""``NntpURL``: RFC 1738 section 3.7."""

from __future__ import annotations

from typing import ClassVar

from ..runtime.hooks import HookExport, OwnGroup
from ._fields import Number, Verbatim
from ._login import host_field, port_field
from .base import URL

__all__ = ["NntpURL"]


class NntpURL(URL):
    """An ``nntp`` URL (RFC 1738 section 3.7).

    BNF: ``nntpurl = "nntp://" hostport "/" group [ "/" digits ]``::

        nntp://news.example.org:1119/comp.lang.python/4711
        \\__/   \\______________/ \\__/ \\______________/ \\__/
       scheme        host       port      group     article_number

    The group is a newsgroup name (never escaped); the article number is
    decimal. ``raw_article_number`` keeps the digits as written; ``/00123``
    and ``/123`` are the same number, as :meth:`normalize` says.

    >>> import rfc1738
    >>> url = rfc1738.parse("nntp://news.example.org/comp.lang.python/4711")
    >>> url.group, url.article_number, url.effective_port
    ('comp.lang.python', 4711, 119)
    """

    host = host_field()
    port = port_field()
    group = Verbatim("group", optional=False, doc="The newsgroup name (never escaped).")
    article_number = Number(
        "digits",
        doc='The article number (``"/" digits`` after the group); ``None`` when absent '
        "(``raw_article_number``: its digits as written).",
    )

    #: For type checkers: the raw twins the declarations give (see :mod:`._fields`).
    raw_port: str | None
    raw_article_number: str | None

    SCHEME: ClassVar[str] = "nntp"
    # The BNF names no production for the article number but digits, which
    # the port uses too: its span would be the port's. It is what follows the
    # group, after the "/" the start rule puts there; an exported pattern
    # (no hook to run) gives it a group of its own. (The one declaration the
    # class reads with, and rfc1738.export and rfc1738.spark give.)
    HOOK_EXPORTS: ClassVar[tuple[HookExport, ...]] = (
        OwnGroup("digits", "article_number", section="3.7"),
    )
