"""``MailtoURL``: RFC 1738 section 3.5."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Self

from ..parse.parsers import ParserSet
from ..parse.spans import Spans
from ._fields import Escaped
from ._text import decode
from .base import URL, Parts

__all__ = ["MailtoURL"]


@dataclass(frozen=True, slots=True, repr=False)
class MailtoURL(URL):
    """A ``mailto`` URL (RFC 1738 section 3.5).

    BNF: ``mailtourl = "mailto:" encoded822addr``::

        mailto:joe%25work@example.com
        \\____/ \\____________________/
        scheme       address

    The address is an RFC 822 addr-spec, escaped; no character is reserved in
    it, so everything after ``mailto:`` is the address (a ``%`` in it is
    written ``%25``).

    >>> import rfc1738
    >>> rfc1738.parse("mailto:joe%25work@example.com").address
    'joe%work@example.com'
    """

    #: The encoded822addr as written.
    raw_address: str

    PRODUCTIONS: ClassVar[frozenset[str]] = frozenset({"encoded822addr"})
    SCHEME: ClassVar[str] = "mailto"
    FIELDS = MappingProxyType(
        {"address": Escaped("raw_address", optional=False, file="mailto", rule="encoded822addr")}
    )

    @classmethod
    def from_spans(
        cls, text: str, spans: Spans, *, host_checks: bool = True, grammar: ParserSet | None = None
    ) -> Self:
        start, end = spans["encoded822addr"]
        return cls(
            text, text[: text.index(":")], text[start:end], host_checks=host_checks, grammar=grammar
        )

    @property
    def address(self) -> str:
        """The address, decoded."""
        return decode(self.raw_address)

    def _write(self, parts: Parts) -> str:
        return f"{parts['raw_scheme']}:{parts['raw_address']}"
