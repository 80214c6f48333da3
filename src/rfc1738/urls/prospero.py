"""``ProsperoURL``: RFC 1738 section 3.11."""

from __future__ import annotations

from typing import ClassVar

from ..runtime.hooks import HookExport, SplitAfter
from ._fields import Pairs, Path
from ._login import host_field, port_field
from .base import URL

__all__ = ["ProsperoURL"]


class ProsperoURL(URL):
    """A ``prospero`` URL (RFC 1738 section 3.11).

    BNF: ``prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]``::

        prospero://pros.example.org:1525/pros/name;version=2;type=x
        \\______/   \\______________/ \\__/ \\_______/\\__________________/
         scheme         host        port   path       fieldspecs

    ``path`` is the hsoname, opaque to the client: a ``/`` in it means
    nothing special (``prospero://host.dom//pros/name`` has path
    ``/pros/name``). Each fieldspec is ``;name=value``; ``fieldspecs`` holds
    the decoded pairs in order, ``raw_fieldspecs`` the pairs as written.

    >>> import rfc1738
    >>> url = rfc1738.parse("prospero://pros.example.org/pros/name;version=2")
    >>> url.path, url.fieldspecs
    ('pros/name', (('version', '2'),))
    """

    host = host_field()
    port = port_field()
    # Section 3.11: ";" is reserved in the hsoname; "a slash "/" may appear in
    # the <hsoname> without quoting and no significance may be assumed".
    path = Path(
        "ppath",
        escape="psegment",
        optional=False,
        segments=False,
        reserved=";",
        doc="The hsoname, decoded: opaque, a ``/`` in it separates nothing "
        "(``%2F`` and ``/`` are the same character in it).",
    )
    # Section 3.11: fields are separated by ";", a name from its value by "=".
    fieldspecs = Pairs(
        "fieldname",
        values="fieldvalue",
        reserved=";=",
        doc="The ``(fieldname, fieldvalue)`` pairs, decoded, in order.",
    )

    #: For type checkers: the raw twins the declarations give (see :mod:`._fields`).
    raw_port: str | None
    raw_path: str
    raw_fieldspecs: tuple[tuple[str, str], ...]

    SCHEME: ClassVar[str] = "prospero"
    # *[ fieldspec ] is a repetition: a regular expression cannot capture each
    # one, so a hook takes the text after ppath apart, at the literals the
    # start rule puts before fieldname (";") and fieldvalue ("="). Neither can
    # occur unescaped inside a fieldname, nor the first inside a fieldvalue.
    # (The one declaration the class reads with, and rfc1738.export and
    # rfc1738.spark give.)
    HOOK_EXPORTS: ClassVar[tuple[HookExport, ...]] = (
        SplitAfter("ppath", "fieldname", ("fieldspecs",), pairs="fieldvalue", section="3.11"),
    )
