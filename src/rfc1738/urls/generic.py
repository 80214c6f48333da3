"""``GenericURL``: any other scheme (RFC 1738 sections 2.1, 3.1 and 5)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Self

from ..bnf.files import GENERIC
from ..errors import URLSyntaxError
from ..runtime.explain import GENERIC_READS
from ._fields import Scheme, Text, Verbatim
from ._login import password_field, port_field, user_field
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

    scheme = Scheme(
        "scheme",
        doc="The scheme in lower case (section 2.1); ``replace(scheme=...)`` sets it as given.",
    )
    # A scheme RFC 1738 does not define may give any reserved character a
    # meaning (section 2.2): an escape of one stays apart from it.
    schemepart = Text(
        "schemepart",
        escape="schemepart",
        optional=False,
        doc="The schemepart, decoded (everything after the first ``:``). Where it holds an "
        "escape of a reserved character (``%2F``, ``%3A``, ...), reading it raises "
        ":class:`~rfc1738.AmbiguousFieldError`: read ``raw_schemepart``.",
    )
    user = user_field()
    password = password_field()
    host = Verbatim("host", doc="The host (``//login`` form only); ``None`` otherwise.")
    port = port_field()
    urlpath = Text(
        "urlpath",
        escape="urlpath",
        doc="The urlpath, decoded; ``None`` when absent or not the ``//login`` form. Where "
        "it holds an escape of a reserved character, reading it raises "
        ":class:`~rfc1738.AmbiguousFieldError`: read ``raw_urlpath``.",
    )

    #: For type checkers: the raw twins the declarations give (see :mod:`._fields`).
    raw_schemepart: str
    raw_user: str | None
    raw_password: str | None
    raw_port: str | None
    raw_urlpath: str | None

    SCHEME: ClassVar[str] = "generic"
    # What the error diagnosis reads of a generic URL besides the fields: whether
    # the //login reading applied (rfc1738.runtime.explain).
    EXTRA_PRODUCTIONS: ClassVar[frozenset[str]] = GENERIC_READS

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
        named = {name: self._field_named(name) for name in changes}
        login_changes = {name for name, field in named.items() if _is_login(field)}
        whole = [name for name, field in named.items() if field is GenericURL.schemepart]
        if whole:
            if login_changes:
                raise ValueError(f"give {whole[0]} or {', '.join(sorted(login_changes))}, not both")
            # An opaque schemepart: the //login fields are read from it anew.
            for name in _LOGIN_FIELDS:
                parts[self.FIELDS[name].raw_name] = None
        URL._apply(self, parts, changes)
        if login_changes and (
            self.host is not None or any(changes[name] is not None for name in login_changes)
        ):
            # The //login form, written from its fields (setting them to None
            # on an opaque schemepart changes nothing).
            parts["raw_schemepart"] = None


def _is_login(field: object) -> bool:
    """Whether ``field`` is one of the //login fields of :class:`GenericURL`."""
    return any(field is GenericURL.__dict__[name] for name in _LOGIN_FIELDS)
