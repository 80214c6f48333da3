"""``ProsperoURL``: RFC 1738 section 3.11."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from ..parse.derived import HookExport, SplitAfter
from ..parse.layout import Layout, literal_before
from ..parse.spans import Spans
from ._fields import Number, Pairs, Path, Verbatim
from .base import URL, Parts

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

    #: The host as written (host names and numbers are never escaped).
    host = Verbatim("host", optional=False)
    #: The port as a number (``raw_port``: its digits as written); ``None`` when absent.
    port = Number("port")
    #: The hsoname: opaque, a ``/`` in it separates nothing.
    path = Path("ppath", escape="psegment", optional=False, segments=False)
    #: The ``(fieldname, fieldvalue)`` pairs, decoded, in order.
    fieldspecs = Pairs("fieldname", values="fieldvalue")

    #: For type checkers: the raw twins the declarations give (see :mod:`._fields`).
    raw_port: str | None
    raw_path: str
    raw_fieldspecs: tuple[tuple[str, str], ...]

    SCHEME: ClassVar[str] = "prospero"
    # *[ fieldspec ] is a repetition: a regular expression cannot capture each
    # one, so a hook takes them apart, at the literals the start rule puts
    # before fieldname (";") and fieldvalue ("="). Neither can occur
    # unescaped inside a fieldname, nor the first inside a fieldvalue.
    READ_BY_HOOK: ClassVar[frozenset[str]] = frozenset({"fieldspecs"})
    # For rfc1738.export and rfc1738.spark: the text after ppath in one group,
    # cut into pairs as _cut cuts it.
    HOOK_EXPORTS: ClassVar[tuple[HookExport, ...]] = (
        SplitAfter("ppath", "fieldname", ("fieldspecs",), pairs="fieldvalue", section="3.11"),
    )

    HOOK_SPANS: ClassVar[frozenset[str]] = frozenset({"ppath"})

    @classmethod
    def _cut(cls, raw: Parts, text: str, spans: Spans, layout: Callable[[], Layout]) -> None:
        start = layout()
        between, within = literal_before(start, "fieldname"), literal_before(start, "fieldvalue")
        end = spans["ppath"][1]
        specs = text[end + len(between) :].split(between) if end < len(text) else []
        raw["raw_fieldspecs"] = tuple(
            [(name, value) for name, _, value in [spec.partition(within) for spec in specs]]
        )
