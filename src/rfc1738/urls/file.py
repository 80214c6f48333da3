"""``FileURL``: RFC 1738 section 3.10."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Self

from ..parse.hosts import check_spans, span_text
from ..parse.parsers import ParserSet
from ..parse.spans import Spans
from ._fields import Path, Segments, Verbatim
from ._text import decode
from .base import URL, Parts, segments

__all__ = ["FileURL"]


@dataclass(frozen=True, slots=True, repr=False)
class FileURL(URL):
    """A ``file`` URL (RFC 1738 section 3.10).

    BNF: ``fileurl = "file://" [ host | "localhost" ] "/" fpath``::

        file://vms.host.edu/disk$user/my/notes/note12345.txt
        \\__/   \\_________/ \\__________________________________/
       scheme     host                   path

    ``host`` is ``None`` when empty (``file:///etc/motd``); ``localhost`` is
    kept as written. Both mean "this machine". The path is always there
    (``file://h/`` has path ``""``, segments ``("",)``).

    >>> import rfc1738
    >>> url = rfc1738.parse("file:///etc/motd")
    >>> url.host, url.path, url.segments
    (None, 'etc/motd', ('etc', 'motd'))
    """

    #: The host as written; ``None`` when empty.
    host: str | None
    #: The fpath as written, without the ``/`` before it.
    raw_path: str

    PRODUCTIONS: ClassVar[frozenset[str]] = frozenset({"host", "hostnumber", "fpath"})
    SCHEME: ClassVar[str] = "file"
    FIELDS = MappingProxyType(
        {
            "host": Verbatim("host"),
            "path": Path("raw_path", optional=False, file="file", rule="fsegment"),
            "segments": Segments("raw_path", file="file", rule="fsegment"),
        }
    )

    @classmethod
    def from_spans(
        cls, text: str, spans: Spans, *, host_checks: bool = True, grammar: ParserSet | None = None
    ) -> Self:
        if host_checks:
            check_spans(text, spans)
        start, _end = spans["fpath"]
        # "file://" host "/" fpath: the host is what lies between, if anything
        # (the literal "localhost" alternative has no host span).
        host = text[text.index(":") + 3 : start - 1]
        return cls(
            text,
            text[: text.index(":")],
            host or None,
            span_text(text, spans, "fpath") or "",
            host_checks=host_checks,
            grammar=grammar,
        )

    @property
    def path(self) -> str:
        """The fpath, decoded (``""`` for ``file://host/``)."""
        return decode(self.raw_path)

    @property
    def segments(self) -> tuple[str, ...]:
        """The fpath's segments, each decoded."""
        return segments(self.raw_path)

    def _write(self, parts: Parts) -> str:
        path = parts["raw_path"]
        if path is None:
            raise ValueError("a file URL always has a path (section 3.10): segments=('',)")
        return f"{parts['raw_scheme']}://{parts['host'] or ''}/{path}"
