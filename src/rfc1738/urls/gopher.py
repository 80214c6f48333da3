"""``GopherURL``: RFC 1738 section 3.4."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Self

from ..parse.hosts import read_hostport
from ..parse.parsers import ParserSet
from ..parse.spans import Spans
from ._fields import Escaped, Number, OneChar, Verbatim
from ._text import decode
from .base import URL, Parts, PortMixin, decoded, hostport

__all__ = ["GopherURL"]

#: What separates selector, search and gopher+ string (section 3.4).
SEPARATOR = "%09"
#: The gopher type when the gopher-path is empty (section 3.4).
DEFAULT_TYPE = "1"


@dataclass(frozen=True, slots=True)
class _NoTab(Escaped):
    """An escaped field that cannot hold the separator's character (a tab)."""

    def write(self, name: str, value: object) -> str:
        if isinstance(value, str) and decode(SEPARATOR) in value:
            raise ValueError(
                f"a gopher {name} cannot hold a tab: section 3.4 splits the gopher path "
                f"at the first and second {SEPARATOR}"
            )
        return Escaped.write(self, name, value)


@dataclass(frozen=True, slots=True, repr=False)
class GopherURL(PortMixin, URL):
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
    Selector, search and gopher+ string are decoded, as they are sent.

    >>> import rfc1738
    >>> url = rfc1738.parse("gopher://gopher.example.org/7find%09rfc%20822")
    >>> url.gtype, url.selector, url.search, url.gopher_plus
    ('7', 'find', 'rfc 822', None)
    >>> rfc1738.parse("gopher://gopher.example.org").gopher_type
    '1'
    """

    #: The host as written.
    host: str
    #: The port digits as written; ``None`` when absent.
    raw_port: str | None
    #: The gtype as written (one character or one escape); ``None`` when absent.
    raw_gtype: str | None
    #: The selector as written: up to the first ``%09``; ``None`` without a gtype.
    raw_selector: str | None
    #: Between the first and second ``%09``; ``None`` without a first ``%09``.
    raw_search: str | None
    #: After the second ``%09``; ``None`` without a second ``%09``.
    raw_gopher_plus: str | None

    PRODUCTIONS: ClassVar[frozenset[str]] = frozenset({"host", "hostnumber", "port", "gtype"})
    SCHEME: ClassVar[str] = "gopher"
    FIELDS = MappingProxyType(
        {
            "host": Verbatim("host", optional=False),
            "port": Number("raw_port"),
            "gtype": OneChar("raw_gtype", file="gopher", terminal="XCHAR"),
            "selector": _NoTab("raw_selector", file="gopher", rule="selector"),
            "search": _NoTab("raw_search", file="gopher", rule="search"),
            "gopher_plus": Escaped("raw_gopher_plus", file="gopher", rule="gopher_plus_string"),
        }
    )

    @classmethod
    def from_spans(
        cls, text: str, spans: Spans, *, host_checks: bool = True, grammar: ParserSet | None = None
    ) -> Self:
        host, port = read_hostport(text, spans, host_checks)
        assert host is not None
        gtype = spans.get("gtype")
        fields: list[str | None] = [None, None, None, None]
        if gtype is not None:
            fields[0] = text[gtype[0] : gtype[1]]
            rest = text[gtype[1] :].split(SEPARATOR, 2)
            fields[1 : 1 + len(rest)] = rest
        return cls(
            text,
            text[: text.index(":")],
            host,
            port,
            *fields,
            host_checks=host_checks,
            grammar=grammar,
        )

    @property
    def gtype(self) -> str | None:
        """The gopher type character, decoded; ``None`` when the gopher-path is empty."""
        return decoded(self.raw_gtype)

    @property
    def gopher_type(self) -> str:
        """The gopher type in effect: :attr:`gtype`, or ``"1"`` (a directory) without one."""
        gtype = self.gtype
        return DEFAULT_TYPE if gtype is None else gtype

    @property
    def selector(self) -> str | None:
        """The selector string, decoded; ``None`` without a gtype."""
        return decoded(self.raw_selector)

    @property
    def search(self) -> str | None:
        """The search string, decoded; ``None`` without a first ``%09``."""
        return decoded(self.raw_search)

    @property
    def gopher_plus(self) -> str | None:
        """The gopher+ string, decoded; ``None`` without a second ``%09``."""
        return decoded(self.raw_gopher_plus)

    def _write(self, parts: Parts) -> str:
        gtype = parts["raw_gtype"]
        selector, search = parts["raw_selector"], parts["raw_search"]
        plus = parts["raw_gopher_plus"]
        text = f"{parts['raw_scheme']}://{hostport(parts)}"
        if gtype is None:
            if (selector, search, plus) != (None, None, None):
                raise ValueError("a gopher selector, search or gopher+ string needs a gtype")
            return text + "/" if self.text.endswith("/") else text
        text += f"/{gtype}{selector or ''}"
        if search is not None:
            text += f"{SEPARATOR}{search}"
        if plus is not None:
            if search is None:
                raise ValueError("a gopher+ string needs a search before it: search=''")
            text += f"{SEPARATOR}{plus}"
        return text
