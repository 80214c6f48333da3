"""``TelnetURL``: RFC 1738 section 3.8."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Self

from ..parse.hosts import read_hostport, span_text
from ..parse.parsers import ParserSet
from ..parse.spans import Spans
from ._fields import Escaped, Number, Verbatim
from .base import URL, LoginMixin, Parts, login

__all__ = ["TelnetURL"]


@dataclass(frozen=True, slots=True, repr=False)
class TelnetURL(LoginMixin, URL):
    """A ``telnet`` URL (RFC 1738 section 3.8).

    BNF: ``telneturl = "telnet://" login [ "/" ]``::

        telnet://guest:visitor@library.example.edu:2323/
        \\____/   \\___/ \\_____/ \\_________________/ \\__/
        scheme   user  password        host        port

    The user name and password are advisory: the client may have to type
    them. The final ``/`` may be left out; ``str()`` keeps it as written and
    :meth:`replace` keeps it too.

    >>> import rfc1738
    >>> url = rfc1738.parse("telnet://guest@library.example.edu/")
    >>> url.user, url.password, url.host, url.effective_port
    ('guest', None, 'library.example.edu', 23)
    """

    #: The user name as written; ``None`` when absent, ``""`` when empty.
    raw_user: str | None
    #: The password as written; ``None`` when absent, ``""`` when empty.
    raw_password: str | None
    #: The host as written.
    host: str
    #: The port digits as written; ``None`` when absent.
    raw_port: str | None

    PRODUCTIONS: ClassVar[frozenset[str]] = frozenset(
        {"user", "password", "host", "hostnumber", "port"}
    )
    SCHEME: ClassVar[str] = "telnet"
    FIELDS = MappingProxyType(
        {
            "user": Escaped("raw_user", file="telnet", rule="user"),
            "password": Escaped("raw_password", file="telnet", rule="password"),
            "host": Verbatim("host", optional=False),
            "port": Number("raw_port"),
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
            host_checks=host_checks,
            grammar=grammar,
        )

    def _write(self, parts: Parts) -> str:
        slash = "/" if self.text.endswith("/") else ""
        return f"{parts['raw_scheme']}://{login(parts)}{slash}"
