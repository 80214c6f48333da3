"""``TelnetURL``: RFC 1738 section 3.8."""

from __future__ import annotations

from typing import ClassVar

from ._fields import Number, Text, Verbatim
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

    # Section 3.1: within the user and password, ":", "@" and "/" must be encoded;
    # no other character is reserved there.
    user = Text(
        "user",
        escape="user",
        reserved=":@/",
        doc='The user name, decoded: ``None`` when absent, ``""`` when empty (section 3.1).',
    )
    password = Text(
        "password",
        escape="password",
        reserved=":@/",
        doc='The password, decoded: ``None`` when absent, ``""`` when empty (section 3.1).',
    )
    host = Verbatim(
        "host",
        optional=False,
        doc="The host as written (host names and numbers are never escaped).",
    )
    port = Number(
        "port",
        doc="The port as a number; ``None`` when the URL names none (``raw_port``: its digits).",
    )

    #: For type checkers: the raw twins the declarations give (see :mod:`._fields`).
    raw_user: str | None
    raw_password: str | None
    raw_port: str | None

    SCHEME: ClassVar[str] = "telnet"

    def _equivalent(self, parts: Parts) -> frozenset[int] | None:
        # Section 3.8: "The final "/" may be omitted": written.
        return self._written_options()
