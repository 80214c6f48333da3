"""``FileURL``: RFC 1738 section 3.10."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, ClassVar, Self

from ..runtime.layout import Layout, literal_before, literal_options
from ..runtime.spans import Spans
from ._fields import Path, Verbatim
from .base import URL, Parts

if TYPE_CHECKING:
    from .grammar import Grammar

__all__ = ["FileURL"]


class FileURL(URL):
    """A ``file`` URL (RFC 1738 section 3.10).

    BNF: ``fileurl = "file://" [ host | "localhost" ] "/" fpath``::

        file://vms.host.edu/disk$user/my/notes/note12345.txt
        \\__/   \\_________/ \\__________________________________/
       scheme     host                   path

    ``host`` is ``None`` when empty (``file:///etc/motd``); ``localhost`` is
    kept as written. Both mean "this machine" (section 3.10), so
    :meth:`normalize` writes ``localhost`` as the empty host. The path is
    always there (``file://h/`` has path ``""``, segments ``("",)``).

    >>> import rfc1738
    >>> url = rfc1738.parse("file:///etc/motd")
    >>> url.host, url.path, url.segments
    (None, 'etc/motd', ('etc', 'motd'))
    >>> url.to_path()
    PurePosixPath('/etc/motd')
    >>> FileURL.from_path("/tmp/my notes.txt")
    FileURL('file:///tmp/my%20notes.txt')
    """

    host = Verbatim(
        "host", doc="The host as written (``localhost`` included); ``None`` when empty."
    )
    # The fpath of ftp (section 5), read as section 3.2.2 reads it: "/"
    # separates segments, and no other character it lets stand for itself is
    # reserved.
    path = Path(
        "fpath",
        escape="fsegment",
        optional=False,
        reserved="/;",
        doc='The fpath, decoded, without the ``/`` before it (``""`` for ``file://host/``). '
        "A ``%2F`` is a ``/`` inside one segment name, which the decoded path cannot tell from "
        "a separator: reading it then raises :class:`~rfc1738.AmbiguousFieldError`, and "
        "``segments`` is the way.",
    )

    #: For type checkers: the raw twins the declarations give (see :mod:`._fields`).
    raw_path: str
    segments: tuple[str, ...]

    SCHEME: ClassVar[str] = "file"

    def to_path(self) -> PurePosixPath:
        """The path as an absolute POSIX path, each segment decoded.

        The path on the machine :attr:`host` names (``None`` and
        ``localhost`` both mean this one). A ``%2F`` decodes to a ``/`` inside
        one segment name, which no POSIX path can hold: that is a
        ``ValueError``, never a separator. So is a ``%00`` (a NUL).

        >>> import rfc1738
        >>> rfc1738.parse("file://localhost/a%20b/c").to_path()
        PurePosixPath('/a b/c')
        >>> rfc1738.parse("file:///etc%2Fpasswd").to_path()
        Traceback (most recent call last):
          ...
        ValueError: segment 'etc/passwd' holds a '/' (written %2F): a path segment cannot
        """
        segments = self.segments
        for segment in segments:
            for char in ("/", "\0"):
                if char in segment:
                    written = "%" + format(ord(char), "02X")
                    raise ValueError(
                        f"segment {segment!r} holds a {char!r} (written {written}): "
                        "a path segment cannot"
                    )
        return PurePosixPath("/", *segments)

    @classmethod
    def from_path(
        cls,
        path: str | os.PathLike[str],
        host: str | None = None,
        *,
        grammar: Grammar | None = None,
    ) -> Self:
        """The file URL of an absolute POSIX path, its segments escaped (section 2.2).

        Every character that does not stand for itself in an ``fsegment`` of
        the grammar is written ``%XX`` (UTF-8; a lone surrogate from
        ``os.fsdecode`` goes back to its octet). ``host`` is written as given
        (``None``: empty, this machine). ``ValueError`` for a relative path.

        >>> FileURL.from_path("/srv/caf\u00e9/a;b", host="files.example.org")
        FileURL('file://files.example.org/srv/caf%C3%A9/a%3Bb')
        """
        pure = PurePosixPath(os.fspath(path))
        if not pure.is_absolute():
            raise ValueError(f"a file URL names an absolute path, not {str(pure)!r}")
        segments = pure.parts[1:] or ("",)
        return cls.from_fields(host=host, segments=segments, grammar=grammar)

    def _equivalent(self, parts: Parts) -> frozenset[int] | None:
        # Section 3.10: "localhost" and the empty host both name this machine
        # (the literal the start rule offers beside host).
        if parts["host"] in literal_options(self._layout(), "host"):
            parts["host"] = None
        return frozenset()  # [ host | "localhost" ]: written only with a host

    @classmethod
    def _cut(cls, raw: Parts, text: str, spans: Spans, layout: Callable[[], Layout]) -> None:
        if raw["host"] is None:
            # The start rule's [ host | "localhost" ]: a parser that took the
            # literal alternative gives no host span; the host is then what lies
            # between the literals before host ("file://") and before fpath ("/").
            start = layout()
            after, before = literal_before(start, "host"), literal_before(start, "fpath")
            raw["host"] = text[len(after) : spans["fpath"][0] - len(before)] or None
