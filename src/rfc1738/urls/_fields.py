"""Field declarations: each field of a URL class, where it comes from and how it is escaped.

A URL class declares each field once, as a class attribute::

    class HttpURL(URL):
        host = Verbatim("host", optional=False)
        port = Number("port")
        path = Path("hpath", escape="hsegment")
        search = Text("search", escape="search")

The first argument is the production of the scheme's start rule the field's
text comes from; ``escape`` names the production whose characters stand for
themselves in it (read from the object's own grammar; every other character
is written ``%XX``). From these declarations :class:`~rfc1738.urls.URL`
derives ``PRODUCTIONS``, ``FIELDS``, ``from_spans``, the order of
``to_dict()``, ``normalize()``, ``replace()`` and the text writer (with the
literals between the fields taken from the start rule, see
:mod:`rfc1738.parse.layout`).

Each declaration is a descriptor giving the decoded value; one that holds
escapes (:class:`Text`, :class:`Path`, :class:`Number`, :class:`Pairs`,
:class:`OneChar`) also gives the text as written under ``raw_<name>``. Values
are read from the URL's text on first access.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, Literal, Self, TypeVar, overload

from ._text import decimal, decode, escape

if TYPE_CHECKING:
    from .base import URL

__all__ = [
    "Field",
    "Number",
    "OneChar",
    "Pairs",
    "Path",
    "Raw",
    "Scheme",
    "Text",
    "Verbatim",
]

T = TypeVar("T")

#: A raw value: the text as written, ``None`` when absent; a tuple for pairs.
RawValue = object


class Field(Generic[T]):
    """A field of a URL class: its production, its escaping, its decoded value.

    ``production`` is the rule of the start rule's grammar the field's text
    comes from; ``escape`` the rule whose characters stand for themselves in
    it (``None``: the field is never escaped); ``optional``: the field may be
    absent (``None``).
    """

    #: Whether the field has a raw twin ``raw_<name>`` (it holds escapes or digits).
    HAS_RAW = True

    def __init__(
        self, production: str, *, escape: str | None = None, optional: bool = True
    ) -> None:
        self.production = production
        self.escape = escape
        self.optional = optional
        self.name = ""
        self.raw_name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        self.raw_name = f"raw_{name}" if self.HAS_RAW else name

    @overload
    def __get__(self, url: None, owner: type) -> Self: ...
    @overload
    def __get__(self, url: URL, owner: type) -> T: ...
    def __get__(self, url: URL | None, owner: type) -> Self | T:
        if url is None:
            return self
        value: T = url._decoded(self)
        return value

    def __set__(self, url: URL, value: object) -> None:
        url._frozen(self.name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.production!r}, escape={self.escape!r})"

    # ---- reading ----

    def decode(self, raw: Any) -> T:
        """The decoded value of the raw text ``raw`` (``None`` stays ``None``).

        A text without escapes is given back as it is, the same object:
        ASCII characters read as UTF-8 octets are those characters again, so
        decoding would only copy it (and :mod:`rfc1738.urls.records` knows by
        the identity that its JSON is the raw text's).
        """
        value: T = raw
        if raw is None or (raw.__class__ is str and raw.isascii() and "%" not in raw):
            return value
        value = decode(raw)  # type: ignore[assignment]
        return value

    @property
    def names(self) -> tuple[str, ...]:
        """The attributes the field gives, as :meth:`URL.to_dict` orders them."""
        return (self.name, self.raw_name) if self.HAS_RAW else (self.name,)

    @property
    def replace_names(self) -> tuple[str, ...]:
        """The names :meth:`URL.replace` takes for this field."""
        return (self.name,)

    def parts(self, raw: RawValue) -> dict[str, object]:
        """The raw text of each production of the layout this field fills."""
        return {self.production: raw}

    # ---- writing ----

    def encode(self, name: str, value: object, chars: Callable[[str], frozenset[str]]) -> object:
        """The raw value for ``value`` given as ``name``; ``chars(rule)``: a rule's characters."""
        if value is None:
            if not self.optional:
                raise ValueError(f"{name} cannot be None")
            return None
        return self.write(name, value, chars)

    def write(self, name: str, value: object, chars: Callable[[str], frozenset[str]]) -> object:
        text = _text(name, value)
        return text if self.escape is None else escape(text, chars(self.escape))


def _text(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    return value


class Raw:
    """The raw twin ``raw_<name>`` of a field: its text as written (installed by the class)."""

    def __init__(self, field: Field[Any]) -> None:
        self.field = field

    def __get__(self, url: URL | None, owner: type) -> Any:
        if url is None:
            return self
        return url._raw()[self.field.raw_name]

    def __set__(self, url: URL, value: object) -> None:
        url._frozen(self.field.raw_name)


class Text(Field[T]):
    """Text that may hold escapes: ``raw_<name>`` as written, ``<name>`` decoded."""

    @overload
    def __init__(
        self: Text[str], production: str, *, escape: str | None = ..., optional: Literal[False]
    ) -> None: ...
    @overload
    def __init__(
        self: Text[str | None],
        production: str,
        *,
        escape: str | None = ...,
        optional: Literal[True] = ...,
    ) -> None: ...
    def __init__(
        self, production: str, *, escape: str | None = None, optional: bool = True
    ) -> None:
        super().__init__(production, escape=escape, optional=optional)


class Verbatim(Text[T]):
    """A field that is never escaped (a host, a news group): one attribute, as written."""

    HAS_RAW = False

    @overload
    def __init__(
        self: Verbatim[str], production: str, *, escape: str | None = ..., optional: Literal[False]
    ) -> None: ...
    @overload
    def __init__(
        self: Verbatim[str | None],
        production: str,
        *,
        escape: str | None = ...,
        optional: Literal[True] = ...,
    ) -> None: ...
    def __init__(
        self, production: str, *, escape: str | None = None, optional: bool = True
    ) -> None:
        Field.__init__(self, production, escape=escape, optional=optional)

    def decode(self, raw: Any) -> T:
        value: T = raw
        return value


class Scheme(Field[str]):
    """The scheme name, as a field (the generic URL's ``scheme`` production).

    ``<name>`` is in lower case (section 2.1), ``raw_scheme`` as written;
    :meth:`URL.replace` sets it as given.
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        self.raw_name = "raw_scheme"

    def decode(self, raw: Any) -> str:
        return str(raw).lower()


class Number(Field[int | None]):
    """A decimal number (a port, an article number).

    ``raw_<name>`` holds the digits as written, ``<name>`` the ``int``.
    """

    def decode(self, raw: Any) -> int | None:
        return None if raw is None else decimal(raw)

    def write(self, name: str, value: object, chars: Callable[[str], frozenset[str]]) -> str:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} must be an int or None, not {type(value).__name__}")
        if value < 0:
            raise ValueError(f"{name} cannot be negative: {value}")
        return str(value)


class Path(Field[T]):
    """A path: ``raw_<name>``, ``<name>`` decoded, and ``segments`` split at ``/`` and decoded.

    ``escape`` is the segment's production (``hsegment``): a ``/`` given in
    ``path`` separates segments, one in a segment is written ``%2F``.
    """

    @overload
    def __init__(
        self: Path[str],
        production: str,
        *,
        escape: str,
        optional: Literal[False],
        segments: bool = ...,
    ) -> None: ...
    @overload
    def __init__(
        self: Path[str | None],
        production: str,
        *,
        escape: str,
        optional: Literal[True] = ...,
        segments: bool = ...,
    ) -> None: ...
    def __init__(
        self, production: str, *, escape: str, optional: bool = True, segments: bool = True
    ) -> None:
        super().__init__(production, escape=escape, optional=optional)
        #: Whether the class gets ``segments`` too (not for an opaque path).
        self.has_segments = segments

    @property
    def names(self) -> tuple[str, ...]:
        if not self.has_segments:
            return super().names
        return (self.name, "segments", self.raw_name)

    @property
    def replace_names(self) -> tuple[str, ...]:
        return (self.name, "segments") if self.has_segments else (self.name,)

    def segments(self, raw: str | None) -> tuple[str, ...]:
        """The ``/``-separated segments of ``raw``, each decoded; ``()`` for none."""
        if raw is None:
            return ()
        if raw.isascii() and "%" not in raw:
            return tuple(raw.split("/"))  # no escapes: each segment decodes to itself
        return tuple(decode(s) for s in raw.split("/"))

    def encode(self, name: str, value: object, chars: Callable[[str], frozenset[str]]) -> object:
        assert self.escape is not None
        if name != "segments":
            if value is None and not self.optional:
                raise ValueError("the path cannot be None: give segments=('',) for an empty one")
            return super().encode(name, value, chars)
        if not isinstance(value, tuple | list) or not all(isinstance(s, str) for s in value):
            raise TypeError(f"{name} must be a tuple of str")
        if not value:
            if not self.optional:
                raise ValueError("this URL always has a path: give segments=('',) for an empty one")
            return None
        safe = chars(self.escape)
        return "/".join(escape(segment, safe) for segment in value)

    def write(self, name: str, value: object, chars: Callable[[str], frozenset[str]]) -> str:
        assert self.escape is not None
        safe = chars(self.escape)
        return "/".join(escape(segment, safe) for segment in _text(name, value).split("/"))


class OneChar(Field[str | None]):
    """One character (gopher's gtype): escaped unless terminal ``terminal`` matches it."""

    def __init__(self, production: str, *, terminal: str) -> None:
        super().__init__(production, escape=None)
        self.terminal = terminal

    def write(self, name: str, value: object, chars: Callable[[str], frozenset[str]]) -> str:
        char = _text(name, value)
        if len(char) != 1:
            raise ValueError(f"{name} must be one character, not {char!r}")
        written = escape(char, chars(self.terminal))
        if len(written) > len("%XX"):
            raise ValueError(f"{name} {char!r} is more than one octet: it cannot be one {name}")
        return written


class Pairs(Field[tuple[tuple[str, str], ...]]):
    """``(name, value)`` pairs (prospero's fieldspecs), each escaped by its own production.

    ``production`` and ``escape`` name the pair's name production; ``values``
    the value's. In the start rule they sit inside a repetition, so the
    raw value is a tuple of pairs, written once each.
    """

    def __init__(self, production: str, *, values: str) -> None:
        super().__init__(production, escape=production, optional=False)
        self.values = values

    def decode(self, raw: Any) -> tuple[tuple[str, str], ...]:
        return tuple([(decode(name), decode(value)) for name, value in raw])

    def parts(self, raw: RawValue) -> dict[str, object]:
        pairs = raw if isinstance(raw, tuple) else ()
        return {
            self.production: tuple(name for name, _ in pairs),
            self.values: tuple(value for _, value in pairs),
        }

    def encode(
        self, name: str, value: object, chars: Callable[[str], frozenset[str]]
    ) -> tuple[tuple[str, str], ...]:
        if not isinstance(value, tuple | list):
            raise TypeError(f"{name} must be a tuple of (name, value) pairs")
        pairs: list[tuple[str, str]] = []
        for pair in value:
            if not isinstance(pair, tuple | list) or len(pair) != 2:
                raise TypeError(f"{name} must be a tuple of (name, value) pairs")
            key, item = pair
            pairs.append(
                (
                    escape(_text(name, key), chars(self.production)),
                    escape(_text(name, item), chars(self.values)),
                )
            )
        return tuple(pairs)
