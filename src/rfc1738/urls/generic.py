"""``GenericURL``: any other scheme (RFC 1738 sections 2.1, 3.1 and 5)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Self

from ..errors import URLSyntaxError
from ..parse.hosts import read_hostport, span_text
from ..parse.parsers import ParserSet
from ..parse.spans import Spans
from ._fields import Escaped, Number, Verbatim
from ._text import decode, upper_hex
from .base import URL, LoginMixin, Parts, decoded, login

__all__ = ["GenericURL"]

#: The fields of the ``//login/urlpath`` form (section 3.1).
_LOGIN_FIELDS = frozenset({"user", "password", "host", "port", "urlpath"})


@dataclass(frozen=True, slots=True, repr=False)
class GenericURL(LoginMixin, URL):
    """A URL of a scheme without a production of its own (RFC 1738 section 2.1).

    BNF: ``genericurl = scheme ":" schemepart``,
    ``schemepart = *xchar | ip-schemepart``,
    ``ip-schemepart = "//" login [ "/" urlpath ]``::

        x-cvs://anon:pw@cvs.example.org:2401/src/tree     urn:isbn:0451450523
        \\___/   \\__/ \\/ \\_____________/ \\__/ \\______/     \\_/ \\____________/
        scheme  user password  host     port  urlpath   scheme  schemepart
              \\____________________________________/
                            schemepart

    Where the schemepart has the ``//login[/urlpath]`` shape (section 3.1),
    the grammar reads it that way, and ``user``, ``password``, ``host``,
    ``port`` and ``urlpath`` are set; otherwise they are all ``None`` and the
    schemepart is opaque.

    >>> import rfc1738
    >>> url = rfc1738.parse("x-cvs://anon@cvs.example.org/src/tree")
    >>> url.scheme, url.user, url.host, url.urlpath
    ('x-cvs', 'anon', 'cvs.example.org', 'src/tree')
    >>> rfc1738.parse("urn:isbn:0451450523").schemepart
    'isbn:0451450523'
    """

    #: The schemepart as written (everything after the first ``:``).
    raw_schemepart: str
    #: The user name as written (``//login`` form only); ``None`` when absent.
    raw_user: str | None
    #: The password as written (``//login`` form only); ``None`` when absent.
    raw_password: str | None
    #: The host as written; ``None`` unless the schemepart is ``//login...``.
    host: str | None
    #: The port digits as written; ``None`` when absent.
    raw_port: str | None
    #: The urlpath as written, without the ``/`` before it; ``None`` when absent.
    raw_urlpath: str | None

    PRODUCTIONS: ClassVar[frozenset[str]] = frozenset(
        {"scheme", "schemepart", "ip_schemepart", "user", "password"}
        | {"host", "hostnumber", "port", "urlpath"}
    )
    SCHEME: ClassVar[str] = "generic"
    FIELDS = MappingProxyType(
        {
            "scheme": Verbatim("raw_scheme", optional=False),
            "schemepart": Escaped(
                "raw_schemepart", optional=False, file="generic", rule="schemepart"
            ),
            "user": Escaped("raw_user", file="generic", rule="user"),
            "password": Escaped("raw_password", file="generic", rule="password"),
            "host": Verbatim("host"),
            "port": Number("raw_port"),
            "urlpath": Escaped("raw_urlpath", file="generic", rule="urlpath"),
        }
    )

    @classmethod
    def from_spans(
        cls, text: str, spans: Spans, *, host_checks: bool = True, grammar: ParserSet | None = None
    ) -> Self:
        start, end = spans["schemepart"]
        scheme = text[: start - 1]
        if "ip_schemepart" not in spans:
            return cls(
                text,
                scheme,
                text[start:end],
                None,
                None,
                None,
                None,
                None,
                host_checks=host_checks,
                grammar=grammar,
            )
        host, port = read_hostport(text, spans, host_checks)
        return cls(
            text,
            scheme,
            text[start:end],
            span_text(text, spans, "user"),
            span_text(text, spans, "password"),
            host,
            port,
            span_text(text, spans, "urlpath"),
            host_checks=host_checks,
            grammar=grammar,
        )

    @property
    def schemepart(self) -> str:
        """The schemepart, decoded."""
        return decode(self.raw_schemepart)

    @property
    def urlpath(self) -> str | None:
        """The urlpath, decoded; ``None`` when absent or not the ``//login`` form."""
        return decoded(self.raw_urlpath)

    def normalize(self) -> Self:
        """The canonical form (see :meth:`URL.normalize`).

        An opaque schemepart stays opaque: where decoding the escapes of
        unreserved characters would make it read as ``//login...``
        (``foo://h%2Ecom``), its escapes are all kept, their hex in upper case.
        """
        if self.host is not None:
            return URL.normalize(self)
        try:
            normal: Self | None = URL.normalize(self)
        except URLSyntaxError:  # the //login reading, with a host that fails the checks
            normal = None
        if normal is None or normal.host is not None:
            parts = self._parts()
            parts["raw_scheme"] = self.scheme
            parts["raw_schemepart"] = upper_hex(self.raw_schemepart)
            return self._reparse(self._write(parts))
        return normal

    def _parts(self) -> Parts:
        parts = URL._parts(self)
        if self.host is not None:
            # The //login form is written from its fields (normalize lowers the host).
            parts["raw_schemepart"] = None
        return parts

    def _apply(self, parts: Parts, changes: Mapping[str, object]) -> None:
        login_changes = _LOGIN_FIELDS & changes.keys()
        if "schemepart" in changes:
            if login_changes:
                raise ValueError(f"give schemepart or {', '.join(sorted(login_changes))}, not both")
            # An opaque schemepart: the //login fields are read from it anew.
            for name in _LOGIN_FIELDS:
                parts[self.FIELDS[name].raw] = None
        URL._apply(self, parts, changes)
        if login_changes:
            parts["raw_schemepart"] = None

    def _write(self, parts: Parts) -> str:
        scheme, schemepart = parts["raw_scheme"], parts["raw_schemepart"]
        if schemepart is not None:
            return f"{scheme}:{schemepart}"
        if parts["host"] is None:
            raise ValueError("the //login form of a schemepart needs a host (section 3.1)")
        urlpath = parts["raw_urlpath"]
        text = f"{scheme}://{login(parts)}"
        return text if urlpath is None else f"{text}/{urlpath}"
