"""``TelnetURL``: RFC 1738 section 3.8."""

from __future__ import annotations

from typing import ClassVar

from ._login import host_field, password_field, port_field, user_field
from .base import URL, Parts

__all__ = ["TelnetURL"]


class TelnetURL(URL):
    """A ``telnet`` URL (RFC 1738 section 3.8).

    BNF: ``telneturl = "telnet://" login [ "/" ]``::

        telnet://guest:visitor@library.example.edu:2323/
        \\____/   \\___/ \\_____/ \\_________________/ \\__/
        scheme   user  password        host        port

    The user name and password are advisory: the client may have to type
    them. The final ``/`` may be left out (section 3.8): ``str()`` and
    :meth:`replace` keep it as written, :meth:`normalize` writes it.

    >>> import rfc1738
    >>> url = rfc1738.parse("telnet://guest@library.example.edu/")
    >>> url.user, url.password, url.host, url.effective_port
    ('guest', None, 'library.example.edu', 23)
    """

    user = user_field()
    password = password_field()
    host = host_field()
    port = port_field()

    #: For type checkers: the raw twins the declarations give (see :mod:`._fields`).
    raw_user: str | None
    raw_password: str | None
    raw_port: str | None

    SCHEME: ClassVar[str] = "telnet"

    def _equivalent(self, parts: Parts) -> frozenset[int] | None:
        # Section 3.8: "The final "/" may be omitted": written.
        return self._written_options()
