"""``GenericURL``: any other scheme (RFC 1738 sections 2.1, 3.1 and 5)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Self

from ..bnf.files import GENERIC
from ..errors import URLSyntaxError
from ._fields import Number, Scheme, Text, Verbatim
from ._text import upper_hex
from .base import URL, Parts

__all__ = ["GenericURL"]

#: The fields of the ``//login/urlpath`` form (section 3.1).
_LOGIN_FIELDS = frozenset({"user", "password", "host", "port", "urlpath"})


class GenericURL(URL):
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

    #: The scheme in lower case; ``replace(scheme=...)`` sets it as given.
    scheme = Scheme("scheme")
    #: The schemepart, decoded (everything after the first ``:``).
    schemepart = Text("schemepart", escape="schemepart", optional=False)
    #: The user name, decoded: ``None`` when absent, ``""`` when empty (section 3.1).
    user = Text("user", escape="user")
    #: The password, decoded: ``None`` when absent, ``""`` when empty.
    password = Text("password", escape="password")
    #: The host (``//login`` form only); ``None`` otherwise.
    host = Verbatim("host")
    #: The port as a number (``raw_port``: its digits as written); ``None`` when absent.
    port = Number("port")
    #: The urlpath, decoded; ``None`` when absent or not the ``//login`` form.
    urlpath = Text("urlpath", escape="urlpath")

    #: For type checkers: the raw twins the declarations give (see :mod:`._fields`).
    raw_schemepart: str
    raw_user: str | None
    raw_password: str | None
    raw_port: str | None
    raw_urlpath: str | None

    SCHEME: ClassVar[str] = "generic"
    # Whether the //login reading applied: the error diagnosis asks it of the
    # generic production (rfc1738.parse.diagnosis.explain_scheme).
    EXTRA_PRODUCTIONS: ClassVar[frozenset[str]] = frozenset({"ip_schemepart"})

    def _source(self) -> tuple[str, str]:
        # genericurl's fields, whichever file parsed the URL (a new scheme's
        # file without a class of its own gives GenericURLs too).
        entry = self._grammar().files[GENERIC]
        return entry.scheme, entry.start

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
            parts = self._raw_parts()
            parts["raw_scheme"] = self.scheme
            parts["raw_schemepart"] = upper_hex(self.raw_schemepart)
            return self._reparse(self._write(parts))
        return normal

    def _raw_parts(self) -> Parts:
        parts = dict(self._raw())
        if parts["host"] is not None:
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
                parts[self.FIELDS[name].raw_name] = None
        URL._apply(self, parts, changes)
        if login_changes:
            parts["raw_schemepart"] = None
