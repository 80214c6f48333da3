"""The URL objects: one immutable class per RFC 1738 scheme, and :class:`GenericURL`.

:func:`rfc1738.parse` picks the class by scheme through :data:`CLASSES`
(keyed by grammar file name) and builds the object with
:meth:`URL.from_spans`. What section 3 says about each scheme (section,
default port, whether it has a login) is in :mod:`rfc1738.urls.facts`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .base import URL
from .file import FileURL
from .ftp import FtpURL
from .generic import GenericURL
from .gopher import GopherURL
from .http import HttpURL
from .mailto import MailtoURL
from .news import NewsURL
from .nntp import NntpURL
from .prospero import ProsperoURL
from .telnet import TelnetURL
from .wais import WaisURL

__all__ = [
    "CLASSES",
    "URL",
    "FileURL",
    "FtpURL",
    "GenericURL",
    "GopherURL",
    "HttpURL",
    "MailtoURL",
    "NewsURL",
    "NntpURL",
    "ProsperoURL",
    "TelnetURL",
    "WaisURL",
]

#: The class of each grammar file's URLs, by file name (``"generic"`` for the rest).
CLASSES: Mapping[str, type[URL]] = MappingProxyType(
    {
        cls.SCHEME: cls
        for cls in (
            HttpURL,
            FtpURL,
            FileURL,
            GopherURL,
            MailtoURL,
            NewsURL,
            NntpURL,
            TelnetURL,
            WaisURL,
            ProsperoURL,
            GenericURL,
        )
    }
)
