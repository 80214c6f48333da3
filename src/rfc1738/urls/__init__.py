"""The URL objects: one immutable class per RFC 1738 scheme, and :class:`GenericURL`.

:func:`rfc1738.parse` picks the class by scheme through
:data:`~rfc1738.urls.grammar.CLASSES` (keyed by grammar file name) and builds the object with
:meth:`URL.from_spans`. Each class declares its fields once, with the
declarations exported here (:class:`Text`, :class:`Verbatim`, :class:`Number`,
:class:`Path`, :class:`Pairs`, :class:`OneChar`, :class:`Scheme`, and
:class:`Computed` for a property computed from others; see
:mod:`rfc1738.urls._fields`). What section 3 says about each scheme (section,
default port, whether it has a login) is in :mod:`rfc1738.runtime.facts`.
"""

from __future__ import annotations

from ._fields import Computed, Field, Number, OneChar, Pairs, Path, Scheme, Text, Verbatim
from .base import URL
from .file import FileURL
from .ftp import FtpURL
from .generic import GenericURL
from .gopher import GopherURL
from .grammar import CLASSES, Grammar, load, shipped
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
    "Computed",
    "Field",
    "FileURL",
    "FtpURL",
    "GenericURL",
    "GopherURL",
    "Grammar",
    "HttpURL",
    "MailtoURL",
    "NewsURL",
    "NntpURL",
    "Number",
    "OneChar",
    "Pairs",
    "Path",
    "ProsperoURL",
    "Scheme",
    "TelnetURL",
    "Text",
    "Verbatim",
    "WaisURL",
    "load",
    "shipped",
]
