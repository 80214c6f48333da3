"""``FileURL``: RFC 1738 section 3.10."""

from __future__ import annotations

from typing import ClassVar

from ..parse.layout import Layout
from ..parse.spans import Spans
from ._fields import Path, Verbatim
from .base import URL, Parts

__all__ = ["FileURL"]


class FileURL(URL):
    """A ``file`` URL (RFC 1738 section 3.10).

    BNF: ``fileurl = "file://" [ host | "localhost" ] "/" fpath``::

        file://vms.host.edu/disk$user/my/notes/note12345.txt
        \\__/   \\_________/ \\__________________________________/
       scheme     host                   path

    ``host`` is ``None`` when empty (``file:///etc/motd``); ``localhost`` is
    kept as written. Both mean "this machine". The path is always there
    (``file://h/`` has path ``""``, segments ``("",)``).

    >>> import rfc1738
    >>> url = rfc1738.parse("file:///etc/motd")
    >>> url.host, url.path, url.segments
    (None, 'etc/motd', ('etc', 'motd'))
    """

    #: The host as written; ``None`` when empty.
    host = Verbatim("host")
    path = Path("fpath", escape="fsegment", optional=False)

    #: For type checkers: the raw twins the declarations give (see :mod:`._fields`).
    raw_path: str
    segments: tuple[str, ...]

    SCHEME: ClassVar[str] = "file"

    def _read(self, text: str, spans: Spans) -> Parts:
        raw = URL._read(self, text, spans)
        if raw["host"] is None:
            # The start rule's [ host | "localhost" ]: a parser that took the
            # literal alternative gives no host span; the host is then what lies
            # between the start rule's first literal ("file://") and fpath's "/".
            first = _first_literal(self._layout())
            raw["host"] = text[len(first) : spans["fpath"][0] - 1] or None
        return raw


def _first_literal(layout: Layout) -> str:
    while layout[0] == "seq":
        layout = layout[1][0]
    return str(layout[1]) if layout[0] == "lit" else ""
