"""The common base of the URL classes: raw and decoded fields, normalize, replace."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import ClassVar, Self

from ..parse.facts import SchemeFacts, facts_for
from ..parse.parsers import ParserSet, default_parsers
from ..parse.spans import Spans
from ._fields import Field
from ._text import decimal, decode, digits, normalize_escapes

__all__ = [
    "URL",
    "LoginMixin",
    "Parts",
    "PortMixin",
    "decoded",
    "hostport",
    "login",
    "number",
    "segments",
]

#: Parts of a URL as written, by the name of the raw field that holds them.
Parts = dict[str, object]


def decoded(raw: str | None) -> str | None:
    """``raw`` with its escapes decoded; ``None`` stays ``None``."""
    return None if raw is None else decode(raw)


def segments(raw_path: str | None) -> tuple[str, ...]:
    """The ``/``-separated segments of a path as written, each decoded; ``()`` for none."""
    return () if raw_path is None else tuple(decode(s) for s in raw_path.split("/"))


def number(raw: str | None) -> int | None:
    """The decimal number ``raw`` as an ``int``; ``None`` stays ``None``."""
    return None if raw is None else decimal(raw)


@dataclass(frozen=True, slots=True, repr=False)
class URL:
    """A URL of the RFC 1738 grammar; the base of the classes of each scheme.

    Every object holds the text it was read from (``str(url)`` gives it back
    exactly) and its parts as written (``raw_...`` fields, still
    percent-encoded). Each ``raw_F`` has a decoded twin ``F`` (escapes
    decoded as UTF-8, see :mod:`rfc1738.urls._text`): ``None`` when the part
    is absent, ``""`` when it is present but empty. Objects are immutable,
    compare and hash by value; :meth:`normalize` and :meth:`replace` return
    new objects, always re-read by :func:`rfc1738.parse`.

    ``host_checks`` records whether the checks beyond the grammar (label,
    host name and port limits) were applied; it is not part of the value.

    Objects come from :func:`rfc1738.parse` (through :meth:`from_spans`);
    the constructor itself checks nothing.
    """

    #: The URL exactly as it was given.
    text: str
    #: The scheme as written (``HTTP`` stays ``HTTP``; see :attr:`scheme`).
    raw_scheme: str
    #: Whether host and port limits were checked (see :mod:`rfc1738.parse.hosts`).
    host_checks: bool = field(default=True, kw_only=True, compare=False)
    #: The grammar that parsed the URL; ``None`` stands for the shipped one.
    #: :meth:`normalize` and :meth:`replace` re-read by it. Not part of the value.
    grammar: ParserSet | None = field(default=None, kw_only=True, compare=False, repr=False)

    #: The productions whose spans :meth:`from_spans` reads.
    PRODUCTIONS: ClassVar[frozenset[str]] = frozenset()
    #: The grammar file (and :data:`~rfc1738.parse.facts.SCHEME_FACTS` key) of the class.
    SCHEME: ClassVar[str] = "generic"
    #: Decoded field name → how :meth:`replace` writes it.
    FIELDS: ClassVar[Mapping[str, Field]] = MappingProxyType({})

    @classmethod
    def from_spans(
        cls, text: str, spans: Spans, *, host_checks: bool = True, grammar: ParserSet | None = None
    ) -> Self:
        """The object for ``text``, given where each of :attr:`PRODUCTIONS` matched.

        ``spans`` maps a production to the ``(start, end)`` of its first
        match; a production that did not match is absent. Raises
        :class:`~rfc1738.URLSyntaxError` if ``host_checks`` is true and a host
        or port breaks a limit beyond the grammar.
        """
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text!r})"

    # ---- the scheme and its port ----

    @property
    def scheme(self) -> str:
        """The scheme in lower case (section 2.1: scheme names ignore case)."""
        return self.raw_scheme.lower()

    @property
    def facts(self) -> SchemeFacts:
        """What RFC 1738 section 3 says about the scheme (section, default port)."""
        return facts_for(self.SCHEME)

    @property
    def default_port(self) -> int | None:
        """The port of the scheme's protocol (section 3), ``None`` if it has none."""
        return self.facts.default_port

    @property
    def port(self) -> int | None:
        """The port the URL names; ``None`` when it names none."""
        return None

    @property
    def effective_port(self) -> int | None:
        """:attr:`port` if the URL names one, else :attr:`default_port`."""
        port = self.port
        return self.default_port if port is None else port

    def uses_default_port(self) -> bool:
        """Whether the URL leaves its scheme's protocol on its own port (section 6).

        True when the URL names no port, or names the scheme's
        :attr:`default_port` (``http://h:80/``, ``http://h:080/``). For a
        scheme without a default port (``file``, ``mailto``, ``news``, and
        every generic URL such as ``https``), only a URL that names no port
        is on the default: any port it names is one the library cannot
        vouch for, so a caller refusing other ports refuses it too.

        >>> import rfc1738
        >>> rfc1738.parse("http://h:80/").uses_default_port()
        True
        >>> rfc1738.parse("gopher://h:25/").uses_default_port()
        False
        >>> rfc1738.parse("https://h:443/").uses_default_port()
        False
        """
        port = self.port
        return port is None or port == self.default_port

    # ---- serialization ----

    def to_dict(self) -> dict[str, object]:
        """Every field of the URL, raw and decoded, as JSON-ready values.

        ``class`` (the class name), ``text``, ``scheme``, ``raw_scheme``, then
        each part: its decoded value(s) before the one as written (``path``,
        ``segments``, ``raw_path``), then the other properties (``port``,
        ``default_port``, ``effective_port``, ...). Tuples become lists;
        ``None`` stays ``None``; a number of more than about 4,200 digits
        (a port with the host checks off, an nntp article number) is given as
        its digits in a string. A decoded value may hold lone surrogates
        (see :mod:`rfc1738.urls._text`): ``json.dumps`` with its default
        ``ensure_ascii=True`` writes them as ``\\udcXX`` escapes.

        >>> import rfc1738
        >>> rfc1738.parse("news:comp.lang.python").to_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'class': 'NewsURL', 'text': 'news:comp.lang.python', 'scheme': 'news',
         'raw_scheme': 'news', 'group': 'comp.lang.python', 'article': None,
         'raw_article': None, 'all_groups': False, 'default_port': None,
         'effective_port': None, 'host': None, 'port': None}
        """
        return {"class": type(self).__name__} | {
            name: _plain(getattr(self, name)) for name in _exported(type(self))
        }

    # ---- new objects ----

    def normalize(self) -> Self:
        """The canonical form of this URL.

        Scheme and host in lower case, the default port left out (other ports
        written without leading zeros), escapes of unreserved characters
        decoded (``%7E`` stays, ``%41`` becomes ``A``), the hex digits of the
        remaining escapes in upper case. Everything else is kept as written.
        """
        parts = self._parts()
        for name, value in parts.items():
            parts[name] = self._normalized(name, value)
        return self._reparse(self._write(parts))

    def replace(self, **changes: object) -> Self:
        """A new URL with the given fields changed, in their decoded form.

        Fields are named as the decoded attributes (``path``, ``segments``,
        ``search``, ``port`` as an ``int`` or ``None``, ...); each value is
        escaped where its production requires. The new text is read by
        :func:`rfc1738.parse`, so the result is always a valid URL, or
        :class:`~rfc1738.URLSyntaxError` (a ``ValueError``) is raised. A value
        the URL cannot express raises ``ValueError``; an unknown field,
        ``TypeError``.
        """
        parts = self._parts()
        self._apply(parts, changes)
        return self._reparse(self._write(parts))

    # ---- for the subclasses ----

    def _parts(self) -> Parts:
        """The raw fields by name (``raw_scheme`` included, ``text`` not)."""
        skip = {"text", "host_checks"}
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in skip}

    def _write(self, parts: Parts) -> str:
        """The text of a URL with these raw fields; ``ValueError`` if none has them."""
        raise NotImplementedError

    def _apply(self, parts: Parts, changes: Mapping[str, object]) -> None:
        set_by: dict[str, str] = {}
        for name, value in changes.items():
            spec = self.FIELDS.get(name)
            if spec is None:
                known = ", ".join(sorted(self.FIELDS))
                raise TypeError(f"{type(self).__name__} has no field {name!r} (fields: {known})")
            if spec.raw in set_by:
                raise ValueError(f"{set_by[spec.raw]} and {name} set the same part: give one")
            set_by[spec.raw] = name
            parts[spec.raw] = spec.encode(name, value)

    def _normalized(self, name: str, value: object) -> object:
        if value is None:
            return None
        if name in ("raw_scheme", "host") and isinstance(value, str):
            return value.lower()
        if name == "raw_port" and isinstance(value, str):
            port = decimal(value)
            return None if port == self.default_port else str(port)
        if name.startswith("raw_") and isinstance(value, str):
            return normalize_escapes(value)
        if name.startswith("raw_") and isinstance(value, tuple):
            return tuple(self._normalized(name, item) for item in value)
        return value

    def _reparse(self, text: str) -> Self:
        grammar = self.grammar if self.grammar is not None else default_parsers()
        url = grammar.parse(text, host_checks=self.host_checks)
        if not isinstance(url, type(self)):
            raise ValueError(f"{text!r} is a {type(url).__name__}, not a {type(self).__name__}")
        return url


#: Public attributes that are not parts of the URL: the scheme's facts, the grammar that read it.
_NOT_PARTS = frozenset({"facts", "grammar", "host_checks"})


#: Per class, the attributes :meth:`URL.to_dict` writes, found once.
_EXPORTED: dict[type[URL], tuple[str, ...]] = {}


def _exported(cls: type[URL]) -> tuple[str, ...]:
    """The attributes :meth:`URL.to_dict` writes for ``cls``, in order."""
    found = _EXPORTED.get(cls)
    if found is None:
        found = _EXPORTED[cls] = _find_exported(cls)
    return found


def _find_exported(cls: type[URL]) -> tuple[str, ...]:
    names = ["text", "scheme", "raw_scheme"]
    for raw in fields(cls):
        twins = [name for name, spec in cls.FIELDS.items() if spec.raw == raw.name]
        names.extend(name for name in (*twins, raw.name) if name not in names)
    properties = {
        name
        for klass in cls.__mro__
        for name, value in vars(klass).items()
        if isinstance(value, property) and not name.startswith("_")
    }
    names.extend(sorted(properties - set(names)))
    return tuple(name for name in names if name not in _NOT_PARTS)


def _plain(value: object) -> object:
    """``value`` with tuples, nested too, as lists (JSON arrays), and huge numbers as text."""
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > _LONGEST:
        # Python refuses to write an int of more than 4300 digits (json.dumps
        # included): the digits come back as a string instead.
        return digits(value)
    return value


#: Bits of the largest number ``str()`` writes without refusing (4300 digits, less a margin).
_LONGEST = 14_000


class PortMixin:
    """Mixin: ``port`` from ``raw_port``."""

    __slots__ = ()
    raw_port: str | None

    @property
    def port(self) -> int | None:
        """The port as a number; ``None`` when the URL names none."""
        return number(self.raw_port)


class LoginMixin(PortMixin):
    """Mixin: ``user`` and ``password`` (section 3.1) decoded."""

    __slots__ = ()
    raw_user: str | None
    raw_password: str | None

    @property
    def user(self) -> str | None:
        """The user name, decoded: ``None`` when absent, ``""`` when empty."""
        return decoded(self.raw_user)

    @property
    def password(self) -> str | None:
        """The password, decoded: ``None`` when absent, ``""`` when empty."""
        return decoded(self.raw_password)


class SegmentedPathMixin:
    """Mixin: ``path`` and ``segments`` from ``raw_path`` (ftp's fpath, http's hpath).

    The path is the part after the ``/`` that follows the host, which
    RFC 1738 does not count as part of it (section 3.1).
    """

    __slots__ = ()
    raw_path: str | None

    @property
    def path(self) -> str | None:
        """The path, decoded; ``None`` when the URL has none."""
        return decoded(self.raw_path)

    @property
    def segments(self) -> tuple[str, ...]:
        """The path's ``/``-separated segments, each decoded; ``()`` when there is no path."""
        return segments(self.raw_path)


def hostport(parts: Parts) -> str:
    """``host[:port]`` from the raw fields."""
    host, port = parts["host"], parts["raw_port"]
    return f"{host}" if port is None else f"{host}:{port}"


def login(parts: Parts) -> str:
    """``[user[:password]@]host[:port]`` (section 3.1) from the raw fields."""
    user, password = parts["raw_user"], parts["raw_password"]
    if user is None:
        if password is not None:
            raise ValueError("a password needs a user name before it (section 3.1): give user=''")
        return hostport(parts)
    credentials = f"{user}@" if password is None else f"{user}:{password}@"
    return credentials + hostport(parts)
