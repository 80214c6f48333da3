"""``TelnetURL``: RFC 1738 section 3.8."""

from __future__ import annotations

from typing import ClassVar

from ._fields import Number, Text, Verbatim
from .base import URL

__all__ = ["TelnetURL"]


class TelnetURL(URL):
    """A ``telnet`` URL (RFC 1738 section 3.8).

    BNF: ``telneturl = "telnet://" login [ "/" ]``::

        telnet://guest:visitor@library.example.edu:2323/
        \\____/   \\___/ \\_____/ \\_________________/ \\__/
        scheme   user  password        host        port

    The user name and password are advisory: the client may have to type
    them. The final ``/`` may be left out; ``str()``, :meth:`normalize` and
    :meth:`replace` keep it as written.

    >>> import rfc1738
    >>> url = rfc1738.parse("telnet://guest@library.example.edu/")
    >>> url.user, url.password, url.host, url.effective_port
    ('guest', None, 'library.example.edu', 23)
    """

    #: The user name, decoded: ``None`` when absent, ``""`` when empty (section 3.1).
    user = Text("user", escape="user")
    #: The password, decoded: ``None`` when absent, ``""`` when empty.
    password = Text("password", escape="password")
    #: The host as written (host names and numbers are never escaped).
    host = Verbatim("host", optional=False)
    #: The port as a number (``raw_port``: its digits as written); ``None`` when absent.
    port = Number("port")

    #: For type checkers: the raw twins the declarations give (see :mod:`._fields`).
    raw_user: str | None
    raw_password: str | None
    raw_port: str | None

    SCHEME: ClassVar[str] = "telnet"
