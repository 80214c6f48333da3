"""``FtpURL``: RFC 1738 section 3.2."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Self

from ..parse.hosts import read_hostport, span_text
from ..parse.parsers import ParserSet
from ..parse.spans import Spans
from ._fields import Escaped, Number, Path, Segments, Verbatim
from .base import URL, LoginMixin, Parts, SegmentedPathMixin, login

__all__ = ["FtpURL"]


@dataclass(frozen=True, slots=True, repr=False)
class FtpURL(SegmentedPathMixin, LoginMixin, URL):
    """An ``ftp`` URL (RFC 1738 section 3.2).

    BNF: ``ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]``::

        ftp://myname:secret@host.dom:2121/%2Fetc/motd;type=a
        \\_/   \\____/ \\____/ \\______/ \\__/ \\________/      |
       scheme  user password  host   port    path     typecode

    Each segment of ``path`` but the last is one ``CWD`` command, the last is
    the file to retrieve; ``segments`` are decoded one by one, so ``%2F`` is a
    ``/`` inside a segment name. ``typecode`` is ``a``, ``i`` or ``d`` in either
    case as written, or ``None``. Section 3.1: ``ftp://@host.com/`` has user
    ``""``, ``ftp://host.com/`` user ``None``.

    >>> import rfc1738
    >>> url = rfc1738.parse("ftp://myname@host.dom/%2Fetc/motd;type=a")
    >>> url.user, url.password, url.host, url.segments, url.typecode
    ('myname', None, 'host.dom', ('/etc', 'motd'), 'a')
    """

    #: The user name as written; ``None`` when absent, ``""`` when empty.
    raw_user: str | None
    #: The password as written; ``None`` when absent, ``""`` when empty.
    raw_password: str | None
    #: The host as written.
    host: str
    #: The port digits as written; ``None`` when absent.
    raw_port: str | None
    #: The fpath as written, without the ``/`` before it; ``None`` when absent.
    raw_path: str | None
    #: The ftptype as written (one of ``aidAID``); ``None`` when absent.
    typecode: str | None

    PRODUCTIONS: ClassVar[frozenset[str]] = frozenset(
        {"user", "password", "host", "hostnumber", "port", "fpath", "ftptype"}
    )
    SCHEME: ClassVar[str] = "ftp"
    FIELDS = MappingProxyType(
        {
            "user": Escaped("raw_user", file="ftp", rule="user"),
            "password": Escaped("raw_password", file="ftp", rule="password"),
            "host": Verbatim("host", optional=False),
            "port": Number("raw_port"),
            "path": Path("raw_path", file="ftp", rule="fsegment"),
            "segments": Segments("raw_path", file="ftp", rule="fsegment"),
            "typecode": Verbatim("typecode"),
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
            span_text(text, spans, "user"),
            span_text(text, spans, "password"),
            host,
            port,
            span_text(text, spans, "fpath"),
            span_text(text, spans, "ftptype"),
            host_checks=host_checks,
            grammar=grammar,
        )

    def _write(self, parts: Parts) -> str:
        path, typecode = parts["raw_path"], parts["typecode"]
        text = f"{parts['raw_scheme']}://{login(parts)}"
        if path is None:
            if typecode is not None:
                raise ValueError("an ftp typecode needs a path before it (section 3.2): path=''")
            return text
        text += f"/{path}"
        return text if typecode is None else f"{text};type={typecode}"
