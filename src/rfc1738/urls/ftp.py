"""``FtpURL``: RFC 1738 section 3.2."""

from __future__ import annotations

from typing import ClassVar

from ._fields import Path, Verbatim
from ._login import host_field, password_field, port_field, user_field
from .base import URL

__all__ = ["FtpURL"]


class FtpURL(URL):
    """An ``ftp`` URL (RFC 1738 section 3.2).

    BNF: ``ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]``::

        ftp://myname:secret@host.dom:2121/%2Fetc/motd;type=a
        \\_/   \\____/ \\____/ \\______/ \\__/ \\________/      |
       scheme  user password  host   port    path     typecode

    Each segment but the last is one ``CWD`` command, the last is the file to
    retrieve; ``segments`` are decoded one by one, so ``%2F`` is a ``/``
    inside a segment name. The decoded ``path`` cannot say that, so it is not
    given for such a URL (:class:`~rfc1738.AmbiguousFieldError`): ``segments``
    and ``raw_path`` say all. ``typecode`` is ``a``, ``i`` or ``d`` in either
    case as written, or ``None``. Section 3.1: ``ftp://@host.com/`` has user
    ``""``, ``ftp://host.com/`` user ``None``.

    >>> import rfc1738
    >>> url = rfc1738.parse("ftp://myname@host.dom/%2Fetc/motd;type=a")
    >>> url.user, url.password, url.host, url.segments, url.typecode
    ('myname', None, 'host.dom', ('/etc', 'motd'), 'a')
    >>> url.raw_path
    '%2Fetc/motd'
    """

    user = user_field()
    password = password_field()
    host = host_field()
    port = port_field()
    # Section 3.2.2: within a name or CWD component, "/" and ";" are reserved;
    # the components are decoded before they are used.
    path = Path(
        "fpath",
        escape="fsegment",
        reserved="/;",
        doc="The fpath, decoded, without the ``/`` before it; ``None`` when absent. A "
        "``%2F`` is a ``/`` inside one segment name (section 3.2.2), which the decoded path "
        "cannot tell from a separator: reading it then raises "
        ":class:`~rfc1738.AmbiguousFieldError`, and ``segments`` is the way.",
    )
    typecode = Verbatim(
        "ftptype", doc="The ftptype as written (one of ``aidAID``); ``None`` when absent."
    )

    #: For type checkers: the raw twins the declarations give (see :mod:`._fields`).
    raw_user: str | None
    raw_password: str | None
    raw_port: str | None
    raw_path: str | None
    segments: tuple[str, ...]

    SCHEME: ClassVar[str] = "ftp"
