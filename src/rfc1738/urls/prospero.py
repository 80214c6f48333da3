"""``ProsperoURL``: RFC 1738 section 3.11."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Self

from ..parse.hosts import read_hostport
from ..parse.parsers import ParserSet
from ..parse.spans import Spans
from ._fields import Number, Pairs, Path, Verbatim
from ._text import decode
from .base import URL, Parts, PortMixin, hostport

__all__ = ["ProsperoURL"]

#: Between fieldspecs, and between a field's name and value (section 3.11).
FIELD_SEPARATOR = ";"
VALUE_SEPARATOR = "="


@dataclass(frozen=True, slots=True, repr=False)
class ProsperoURL(PortMixin, URL):
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

    #: The host as written.
    host: str
    #: The port digits as written; ``None`` when absent.
    raw_port: str | None
    #: The hsoname (ppath) as written, without the ``/`` before it.
    raw_path: str
    #: The ``(fieldname, fieldvalue)`` pairs as written, in order.
    raw_fieldspecs: tuple[tuple[str, str], ...]

    PRODUCTIONS: ClassVar[frozenset[str]] = frozenset({"host", "hostnumber", "port", "ppath"})
    SCHEME: ClassVar[str] = "prospero"
    FIELDS = MappingProxyType(
        {
            "host": Verbatim("host", optional=False),
            "port": Number("raw_port"),
            "path": Path("raw_path", optional=False, file="prospero", rule="psegment"),
            "fieldspecs": Pairs(
                "raw_fieldspecs",
                optional=False,
                file="prospero",
                names="fieldname",
                values="fieldvalue",
            ),
        }
    )

    @classmethod
    def from_spans(
        cls, text: str, spans: Spans, *, host_checks: bool = True, grammar: ParserSet | None = None
    ) -> Self:
        host, port = read_hostport(text, spans, host_checks)
        assert host is not None
        start, end = spans["ppath"]
        # *[ fieldspec ] is a repetition: a regular expression cannot capture
        # each one, so they are taken apart here. Neither ";" nor "=" can occur
        # unescaped inside a fieldname, and ";" not inside a fieldvalue.
        specs = text[end + 1 :].split(FIELD_SEPARATOR) if end < len(text) else []
        pairs = tuple(_pair(spec) for spec in specs)
        return cls(
            text,
            text[: text.index(":")],
            host,
            port,
            text[start:end],
            pairs,
            host_checks=host_checks,
            grammar=grammar,
        )

    @property
    def path(self) -> str:
        """The hsoname, decoded."""
        return decode(self.raw_path)

    @property
    def fieldspecs(self) -> tuple[tuple[str, str], ...]:
        """The ``(fieldname, fieldvalue)`` pairs, decoded, in order."""
        return tuple((decode(name), decode(value)) for name, value in self.raw_fieldspecs)

    def _write(self, parts: Parts) -> str:
        specs = parts["raw_fieldspecs"]
        assert isinstance(specs, tuple)
        text = f"{parts['raw_scheme']}://{hostport(parts)}/{parts['raw_path']}"
        return text + "".join(
            f"{FIELD_SEPARATOR}{name}{VALUE_SEPARATOR}{value}" for name, value in specs
        )


def _pair(spec: str) -> tuple[str, str]:
    name, _separator, value = spec.partition(VALUE_SEPARATOR)
    return name, value
