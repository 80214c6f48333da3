"""``FtpURL``: RFC 1738 section 3.2."""

from __future__ import annotations

from typing import ClassVar

from ._fields import Number, Path, Text, Verbatim
from .base import URL

__all__ = ["FtpURL"]


class FtpURL(URL):
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

    #: The user name, decoded: ``None`` when absent, ``""`` when empty (section 3.1).
    user = Text("user", escape="user")
    #: The password, decoded: ``None`` when absent, ``""`` when empty.
    password = Text("password", escape="password")
    #: The host as written (host names and numbers are never escaped).
    host = Verbatim("host", optional=False)
    #: The port as a number (``raw_port``: its digits as written); ``None`` when absent.
    port = Number("port")
    #: The fpath, decoded, without the ``/`` before it; ``segments`` split at ``/``.
    path = Path("fpath", escape="fsegment")
    #: The ftptype as written (one of ``aidAID``); ``None`` when absent.
    typecode = Verbatim("ftptype")

    #: For type checkers: the raw twins the declarations give (see :mod:`._fields`).
    raw_user: str | None
    raw_password: str | None
    raw_port: str | None
    raw_path: str | None
    segments: tuple[str, ...]

    SCHEME: ClassVar[str] = "ftp"
