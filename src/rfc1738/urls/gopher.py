"""``GopherURL``: RFC 1738 section 3.4."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ..runtime.hooks import HookExport, SplitAfter
from ._fields import Computed, OneChar, Text
from ._hooks import split_cuts
from ._login import host_field, port_field
from ._text import decode
from .base import URL, Parts

__all__ = ["GopherURL"]

#: The gopher type when the gopher-path is empty (section 3.4).
DEFAULT_TYPE = "1"


#: Section 3.4's cut of the text after gtype (the class's ``HOOK_EXPORTS``).
_HOOK = SplitAfter("gtype", "search", ("selector", "search", "gopher_plus"), section="3.4")


def _gopher_type(gtype: str | None) -> str:
    return DEFAULT_TYPE if gtype is None else gtype


class GopherURL(URL):
    """A ``gopher`` URL (RFC 1738 section 3.4).

    BNF: ``gopherurl = "gopher://" hostport [ / [ gtype [ selector
    [ "%09" search [ "%09" gopher+_string ] ] ] ] ]``::

        gopher://gopher.example.org:7070/7find%09rfc%20822%09+
        \\____/   \\_______________/ \\__/ |\\__/   \\_______/   |
        scheme        host         port | selector  search  gopher_plus
                                      gtype

    The fields split at the first and second ``%09`` (section 3.4), not where
    the grammar alone might put them: a selector never holds a tab, the
    gopher+ string may. ``gtype`` is ``None`` when the gopher-path is empty
    and ``gopher_type`` is then ``"1"``; when ``gtype`` is set, ``selector``
    is ``""`` or more (the text cannot tell an empty selector from none).
    Selector, search and gopher+ string are decoded, as they are sent; no
    character is reserved in them, so an escape means the character itself.
    ``gopher://h``, ``gopher://h/`` and ``gopher://h/1`` are the same URL
    (section 3.4), as :meth:`normalize` says.

    >>> import rfc1738
    >>> url = rfc1738.parse("gopher://gopher.example.org/7find%09rfc%20822")
    >>> url.gtype, url.selector, url.search, url.gopher_plus
    ('7', 'find', 'rfc 822', None)
    >>> rfc1738.parse("gopher://gopher.example.org").gopher_type
    '1'
    """

    host = host_field()
    port = port_field()
    # Section 3.4: "Within the <gopher-path>, no characters are reserved."
    gtype = OneChar(
        "gtype",
        terminal="XCHAR",
        reserved="",
        doc="The gopher type character, decoded; ``None`` when the gopher-path is empty.",
    )
    selector = Text(
        "selector",
        escape="selector",
        reserved="",
        doc="The selector, decoded: up to the first ``%09``; ``None`` without a gtype.",
    )
    search = Text(
        "search",
        escape="search",
        reserved="",
        doc="The search, decoded: between the first and second ``%09``; ``None`` without a "
        "first ``%09``.",
    )
    gopher_plus = Text(
        "gopher_plus_string",
        escape="gopher_plus_string",
        reserved="",
        doc="The gopher+ string, decoded: after the second ``%09``; ``None`` without one.",
    )

    #: For type checkers: the raw twins the declarations give (see :mod:`._fields`).
    raw_port: str | None
    raw_gtype: str | None
    raw_selector: str | None
    raw_search: str | None
    raw_gopher_plus: str | None

    SCHEME: ClassVar[str] = "gopher"
    # Section 3.4 splits the gopher path at the first and second "%09", which
    # the grammar alone (ambiguous there) does not: the text after gtype, cut
    # at the literal the start rule puts before search (the one declaration
    # the class reads with, and rfc1738.export and rfc1738.spark give).
    HOOK_EXPORTS: ClassVar[tuple[HookExport, ...]] = (_HOOK,)

    gopher_type = Computed(
        _gopher_type,
        reads=("gtype",),
        doc='The gopher type in effect: :attr:`gtype`, or ``"1"`` (a directory) without one.',
    )

    def _separator(self) -> str:
        """The literal between selector and search in the start rule (``%09``)."""
        return split_cuts(_HOOK, self._layout())["search"].separator

    def _apply(self, parts: Parts, changes: Mapping[str, object]) -> None:
        separator = self._separator()
        for name in ("selector", "search"):
            value = changes.get(name)
            if isinstance(value, str) and decode(separator) in value:
                raise ValueError(
                    f"a gopher {name} cannot hold a tab: section 3.4 splits the gopher path "
                    f"at the first and second {separator}"
                )
        URL._apply(self, parts, changes)

    def _equivalent(self, parts: Parts) -> frozenset[int] | None:
        # Section 3.4: an empty gopher-path may leave out its "/" (written), and
        # means type "1" with the empty selector (left out, as a default port is).
        if (
            parts["raw_gtype"] == DEFAULT_TYPE
            and parts["raw_selector"] == ""
            and parts["raw_search"] is None
            and parts["raw_gopher_plus"] is None
        ):
            parts["raw_gtype"] = parts["raw_selector"] = None
        return self._written_options()
