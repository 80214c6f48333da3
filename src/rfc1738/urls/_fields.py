"""Field declarations: each field of a URL class, where it comes from and how it is escaped.

A URL class declares each field once, as a class attribute::

    class HttpURL(URL):
        host = Verbatim("host", optional=False, doc="The host as written.")
        port = Number("port", doc="The port as a number.")
        path = Path("hpath", escape="hsegment", reserved="/;?", doc="The hpath, decoded.")
        search = Text("search", escape="search", doc="The search, decoded.")

The first argument is the production of the scheme's start rule the field's
text comes from; ``escape`` names the production whose characters stand for
themselves in it (read from the object's own grammar; every other character
is written ``%XX``); ``reserved`` the characters that section 3 reserves in
the field (``None``: all seven reserved characters of section 2.2, which a
scheme may give a meaning of its own); ``doc`` the attribute's docstring
(``help()`` shows it; the raw twin's is derived from it). From these
declarations :class:`~rfc1738.urls.URL` derives ``PRODUCTIONS``, ``FIELDS``,
``from_spans``, the order of ``to_dict()``, ``normalize()``, ``replace()`` and
the text writer (with the literals between the fields taken from the start
rule, see :mod:`rfc1738.runtime.layout`).

Escapes and what they mean. An escape ``%XX`` of a character that stands for
itself in the field and that the field does not reserve means that character
(section 2.2): ``normalize()`` writes it as the character. An escape of a
reserved character that may also stand for itself there (``%3B`` in an http
path, ``%2F`` in any path that ``/`` separates into segments) means something
else than the character written as itself, and the decoded value cannot tell
the two apart: reading it raises :class:`~rfc1738.AmbiguousFieldError`, and the
raw twin (or ``segments``) is the way to read the field.

Each declaration is a descriptor giving the decoded value; one that holds
escapes (:class:`Text`, :class:`Path`, :class:`Number`, :class:`Pairs`,
:class:`OneChar`) also gives the text as written under ``raw_<name>``. Values
are read from the URL's text on first access.

A value computed from others (``effective_port`` from ``port`` and
``default_port``, gopher's ``gopher_type`` from ``gtype``) is a
:class:`Computed` property, which names what it reads; the writers of many
records (:mod:`rfc1738.output.plan`) work such a value out once per what it
reads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, Literal, Self, TypeVar, overload

from ._text import decimal, decode, escape, escape_of, normalize_escapes

if TYPE_CHECKING:
    from .base import URL

__all__ = [
    "Computed",
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

#: ``chars(rule)``: the characters that stand for themselves in a rule (UPPERCASE:
#: a terminal) of the URL's own grammar file.
Chars = Callable[[str], frozenset[str]]

#: What :meth:`Field.escape_sets` works out once per grammar, class and view:
#: the character sets its :meth:`~Field.normalized` and :meth:`~Field.lost` read.
EscapeSets = tuple[frozenset[str], ...]


class Field(Generic[T]):
    """A field of a URL class: its production, its escaping, its decoded value.

    ``production`` is the rule of the start rule's grammar the field's text
    comes from; ``escape`` the rule whose characters stand for themselves in
    it (``None``: the field is never escaped); ``optional``: the field may be
    absent (``None``); ``reserved``: the characters section 3 reserves in it
    (``None``: the grammar's ``RESERVED``, every one a scheme may reserve);
    ``doc``: the attribute's docstring.
    """

    #: Whether the field has a raw twin ``raw_<name>`` (it holds escapes or digits).
    HAS_RAW = True

    def __init__(
        self,
        production: str,
        *,
        escape: str | None = None,
        optional: bool = True,
        reserved: str | None = None,
        doc: str = "",
    ) -> None:
        self.production = production
        self.escape = escape
        self.optional = optional
        self.reserved = reserved
        self.name = ""
        self.raw_name = ""
        self.__doc__ = doc

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
        decoding would only copy it (and :mod:`rfc1738.output.jsonl` knows by
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

    # ---- what an escape means ----

    def held(self, reserved: frozenset[str]) -> frozenset[str]:
        """The characters reserved in the field; ``reserved``: the grammar's ``RESERVED``."""
        return reserved if self.reserved is None else frozenset(self.reserved)

    def standing(self, chars: Chars) -> frozenset[str]:
        """The characters that may stand for themselves in the field's text."""
        return frozenset() if self.escape is None else chars(self.escape)

    def told_apart(self, view: str, chars: Chars, reserved: frozenset[str]) -> frozenset[str]:
        """The characters that mean something else escaped than written as themselves here.

        Reserved in the field, yet the grammar lets them stand for themselves
        in it: the decoded value ``view`` (the field's name, or ``segments``)
        cannot tell an escape of one of them from the character.
        """
        return self.standing(chars) & self.held(reserved)

    def escape_sets(self, view: str, chars: Chars, reserved: frozenset[str]) -> EscapeSets:
        """What :meth:`normalized` and :meth:`lost` read for ``view`` in a grammar:
        ``(same_escaped, held, told_apart)``; ``same_escaped``: the characters whose escape
        means the character itself here (section 2.2), those that stand for themselves in
        the field and are not reserved in it."""
        held = self.held(reserved)
        return self.standing(chars) - held, held, self.told_apart(view, chars, reserved)

    def normalized(self, raw: RawValue, sets: EscapeSets) -> RawValue:
        """``raw`` as the canonical form writes it: escapes of ``same_escaped``
        characters decoded, the rest in upper case (``sets``: :meth:`escape_sets`).

        A character written as itself that may not stand for itself in the
        field, and is not reserved in it, is escaped, as :meth:`encode` would
        write it (only a field a hook cuts out of the text holds one: a ``/``
        in gopher's search, which the grammar reads as part of the selector).
        """
        if not isinstance(raw, str):
            return raw
        same, held = sets[0], sets[1]
        if "%" not in raw and all(c in same or c in held for c in raw):
            return raw
        return normalize_escapes(raw, same, held)

    def lost(self, raw: RawValue, sets: EscapeSets) -> str | None:
        """The first escape in ``raw`` that the decoded view of ``sets`` would lose, as
        written; ``None`` when the decoded value says all that ``raw`` says."""
        if not isinstance(raw, str) or "%" not in raw:
            return None
        return escape_of(raw, sets[-1])

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
        if isinstance(field, Number):
            what = f"The digits of ``{field.name}`` as written (leading zeros kept)"
        elif isinstance(field, Pairs):
            what = f"``{field.name}`` as written: each pair's name and value, escapes kept"
        else:
            what = f"``{field.name}`` as written, escapes kept"
        self.__doc__ = (
            f"{what}; ``None`` where it is absent. Never refused: it says all the text says."
        )

    def __get__(self, url: URL | None, owner: type) -> Any:
        if url is None:
            return self
        return url._raw()[self.field.raw_name]

    def __set__(self, url: URL, value: object) -> None:
        url._frozen(self.field.raw_name)


class Computed(property, Generic[T]):
    """A property computed from named parts of the URL alone: ``compute`` gets exactly them.

    ``compute`` is called with the value of each attribute ``reads`` names (a
    field, a raw twin, another :class:`Computed`, a class constant such as
    ``SCHEME``), then, for each raw field ``present`` names (``raw_search``),
    whether the URL has it (not ``None``, after the class's hook), then, for
    each production ``matched`` names, whether it matched (its span, before
    any hook). The declaration is all a writer of many records
    (:mod:`rfc1738.output.plan`) needs to work the value out once per what it
    reads, and it cannot drift from the code: ``compute`` sees nothing else.
    ``doc`` is the property's docstring. A :class:`property`, as ``help()`` and
    ``isinstance`` see it.
    """

    def __init__(
        self,
        compute: Callable[..., T],
        *,
        reads: tuple[str, ...] = (),
        present: tuple[str, ...] = (),
        matched: tuple[str, ...] = (),
        doc: str = "",
    ) -> None:
        super().__init__(_getter(compute, reads, present, matched))
        # In the instance's own dictionary: the class's docstring would shadow
        # property's slot for it (help() reads it from here).
        self.__doc__ = doc
        self.compute = compute
        self.reads = reads
        self.present = present
        self.matched = matched

    if TYPE_CHECKING:  # for type checkers only: property's own __get__ runs

        @overload
        def __get__(self, url: None, owner: type | None = None, /) -> Self: ...
        @overload
        def __get__(self, url: URL, owner: type | None = None, /) -> T: ...
        def __get__(self, url: URL | None, owner: type | None = None, /) -> Self | T: ...


def _getter(
    compute: Callable[..., T],
    reads: tuple[str, ...],
    present: tuple[str, ...],
    matched: tuple[str, ...],
) -> Callable[[URL], T]:
    """The property's getter: ``compute`` of what the declaration names, read from the URL."""
    if present or matched:

        def get(url: URL) -> T:
            raw, spans = url._raw(), url._spans if matched else {}
            return compute(
                *[getattr(url, name) for name in reads],
                *[raw[name] is not None for name in present],
                *[name in spans for name in matched],
            )

        return get
    if not reads:
        return lambda url: compute()
    if len(reads) == 1:
        (read,) = reads
        return lambda url: compute(getattr(url, read))
    return lambda url: compute(*[getattr(url, name) for name in reads])


class Text(Field[T]):
    """Text that may hold escapes: ``raw_<name>`` as written, ``<name>`` decoded."""

    @overload
    def __init__(
        self: Text[str],
        production: str,
        *,
        escape: str | None = ...,
        optional: Literal[False],
        reserved: str | None = ...,
        doc: str = ...,
    ) -> None: ...
    @overload
    def __init__(
        self: Text[str | None],
        production: str,
        *,
        escape: str | None = ...,
        optional: Literal[True] = ...,
        reserved: str | None = ...,
        doc: str = ...,
    ) -> None: ...
    def __init__(
        self,
        production: str,
        *,
        escape: str | None = None,
        optional: bool = True,
        reserved: str | None = None,
        doc: str = "",
    ) -> None:
        super().__init__(production, escape=escape, optional=optional, reserved=reserved, doc=doc)


class Verbatim(Text[T]):
    """A field that is never escaped (a host, a news group): one attribute, as written."""

    HAS_RAW = False

    @overload
    def __init__(
        self: Verbatim[str], production: str, *, optional: Literal[False], doc: str = ...
    ) -> None: ...
    @overload
    def __init__(
        self: Verbatim[str | None],
        production: str,
        *,
        optional: Literal[True] = ...,
        doc: str = ...,
    ) -> None: ...
    def __init__(self, production: str, *, optional: bool = True, doc: str = "") -> None:
        Field.__init__(self, production, optional=optional, doc=doc)

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

    def normalized(self, raw: RawValue, sets: EscapeSets) -> RawValue:
        return raw  # never escaped; its case is the URL's to fold (section 2.1)


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
    ``path`` separates segments, one in a segment is written ``%2F``. With
    ``segments`` (a hierarchical path), ``/`` is reserved in the path
    whatever ``reserved`` says: the decoded ``path`` of a URL with a ``%2F``
    in a segment cannot be given (``segments`` can). Without (an opaque
    path, prospero's), a ``/`` is a character like another.
    """

    @overload
    def __init__(
        self: Path[str],
        production: str,
        *,
        escape: str,
        optional: Literal[False],
        segments: bool = ...,
        reserved: str | None = ...,
        doc: str = ...,
    ) -> None: ...
    @overload
    def __init__(
        self: Path[str | None],
        production: str,
        *,
        escape: str,
        optional: Literal[True] = ...,
        segments: bool = ...,
        reserved: str | None = ...,
        doc: str = ...,
    ) -> None: ...
    def __init__(
        self,
        production: str,
        *,
        escape: str,
        optional: bool = True,
        segments: bool = True,
        reserved: str | None = None,
        doc: str = "",
    ) -> None:
        super().__init__(production, escape=escape, optional=optional, reserved=reserved, doc=doc)
        #: Whether the class gets ``segments`` too (not for an opaque path).
        self.has_segments = segments

    def held(self, reserved: frozenset[str]) -> frozenset[str]:
        held = super().held(reserved)
        return held | {"/"} if self.has_segments else held

    def standing(self, chars: Chars) -> frozenset[str]:
        return super().standing(chars) | {"/"}  # between the segments

    def told_apart(self, view: str, chars: Chars, reserved: frozenset[str]) -> frozenset[str]:
        if view == "segments":
            # Within one segment: only what the segment's production lets stand for itself.
            return super().standing(chars) & self.held(reserved)
        return super().told_apart(view, chars, reserved)

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

    def __init__(
        self, production: str, *, terminal: str, reserved: str | None = None, doc: str = ""
    ) -> None:
        super().__init__(production, escape=None, reserved=reserved, doc=doc)
        self.terminal = terminal

    def standing(self, chars: Chars) -> frozenset[str]:
        return chars(self.terminal)

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

    def __init__(
        self, production: str, *, values: str, reserved: str | None = None, doc: str = ""
    ) -> None:
        super().__init__(production, escape=production, optional=False, reserved=reserved, doc=doc)
        self.values = values

    def standing(self, chars: Chars) -> frozenset[str]:
        return chars(self.production) | chars(self.values)

    def escape_sets(self, view: str, chars: Chars, reserved: frozenset[str]) -> EscapeSets:
        """``(same_escaped in names, in values, held, told_apart)``."""
        held = self.held(reserved)
        names, values = chars(self.production) - held, chars(self.values) - held
        return names, values, held, self.told_apart(view, chars, reserved)

    def normalized(self, raw: RawValue, sets: EscapeSets) -> RawValue:
        if not isinstance(raw, tuple):
            return raw
        names, values = sets[0], sets[1]
        return tuple(
            (
                normalize_escapes(name, names) if "%" in name else name,
                normalize_escapes(value, values) if "%" in value else value,
            )
            for name, value in raw
        )

    def lost(self, raw: RawValue, sets: EscapeSets) -> str | None:
        if not isinstance(raw, tuple):
            return None
        for pair in raw:
            for text in pair:
                found = escape_of(text, sets[-1]) if "%" in text else None
                if found is not None:
                    return found
        return None

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
