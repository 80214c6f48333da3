"""The common base of the URL classes: fields from declarations, read lazily; normalize, replace."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, Self
from weakref import WeakKeyDictionary

from ..bnf.files import GENERIC
from ..errors import AmbiguousFieldError, FrozenURLError, URLSyntaxError
from ..runtime.dispatch import ParserName, default_grammar
from ..runtime.facts import SchemeFacts, facts_for
from ..runtime.hooks import HookExport, SplitAfter, hooked_fields
from ..runtime.hosts import check_spans
from ..runtime.layout import Layout, fieldless_options, present, write
from ..runtime.spans import Spans, spans_from_regs
from ._fields import Computed, EscapeSets, Field, Number, Pairs, Path, Raw, Verbatim
from ._hooks import read_hooks
from ._text import digits

if TYPE_CHECKING:
    from .grammar import Grammar

__all__ = ["URL", "Parts"]

#: Raw fields of a URL by name (``raw_scheme``, ``host``, ``raw_path``, ...).
Parts = dict[str, object]


class _Segments:
    """``segments`` of a :class:`~._fields.Path` field: the path split at ``/``, each decoded."""

    def __init__(self, field: Path[Any]) -> None:
        self.field = field
        self.__doc__ = (
            f"``{field.name}`` split at each ``/``, each segment decoded (a ``%2F`` is a ``/`` "
            f"inside one segment, not a separator); ``()`` where ``{field.name}`` is absent."
        )

    def __get__(self, url: URL | None, owner: type) -> Any:
        if url is None:
            return self
        raw = url._raw()[self.field.raw_name]
        if isinstance(raw, str) and "%" in raw:
            url._refuse(self.field, "segments", raw)
        return self.field.segments(raw if isinstance(raw, str) else None)

    def __set__(self, url: URL, value: object) -> None:
        url._frozen("segments")


class _URLType(type):
    """Makes a URL class from its field declarations (see :mod:`rfc1738.urls._fields`).

    Every class gets ``__slots__`` (objects have no ``__dict__``), the raw
    twin of each field, and ``DECLARED``, ``FIELDS`` and ``PRODUCTIONS``
    derived from the declarations. Annotations in the class body (for type
    checkers: ``raw_port: str | None``) must name an attribute a declaration
    gives.
    """

    def __new__(
        mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any
    ) -> _URLType:
        namespace.setdefault("__slots__", ())
        cls = super().__new__(mcs, name, bases, namespace, **kwargs)
        own = [value for value in namespace.values() if isinstance(value, Field)]
        declared: tuple[Field[Any], ...] = (*getattr(cls, "DECLARED", ()), *own)
        for field in own:
            if field.HAS_RAW and not hasattr(cls, field.raw_name):
                setattr(cls, field.raw_name, Raw(field))
            if isinstance(field, Path) and field.has_segments:
                cls.segments = _Segments(field)  # type: ignore[attr-defined]
        cls.DECLARED = declared  # type: ignore[attr-defined]
        cls._SPANNED = tuple((f.raw_name, f.production) for f in declared)  # type: ignore[attr-defined]
        cls.FIELDS = MappingProxyType(  # type: ignore[attr-defined]
            {replace: field for field in declared for replace in field.replace_names}
        )
        cls.RAW_FIELDS = MappingProxyType(  # type: ignore[attr-defined]
            {field.raw_name: field for field in declared if field.raw_name != field.name}
        )
        hooks: tuple[HookExport, ...] = tuple(getattr(cls, "HOOK_EXPORTS", ()))
        cls._HOOKS = hooks  # type: ignore[attr-defined]
        hooked = cls.READ_BY_HOOK = hooked_fields(hooks)  # type: ignore[attr-defined]
        productions = {f.production for f in declared if f.name not in hooked}
        productions |= {hook.after for hook in hooks if isinstance(hook, SplitAfter)}
        productions |= set(getattr(cls, "EXTRA_PRODUCTIONS", ()))
        if "host" in productions:
            productions.add("hostnumber")  # the host checks tell a number from a name
        cls.PRODUCTIONS = frozenset(productions)  # type: ignore[attr-defined]
        given = {n for f in declared for n in f.names}
        for annotated, kind in namespace.get("__annotations__", {}).items():
            slotted = any(annotated in getattr(k, "__slots__", ()) for k in cls.__mro__)
            if "ClassVar" not in str(kind) and annotated not in given and not slotted:
                raise TypeError(f"{name}.{annotated} is annotated but no field declares it")
        return cls


def _scheme_as_written(text: str) -> str:
    return text[: text.index(":")]


def _default_port(facts: SchemeFacts) -> int | None:
    return facts.default_port


def _no_port() -> int | None:
    return None


def _effective_port(port: int | None, default_port: int | None) -> int | None:
    return default_port if port is None else port


class URL(metaclass=_URLType):
    """A URL of the RFC 1738 grammar; the base of the classes of each scheme.

    Every object holds the text it was read from (``str(url)`` gives it back
    exactly) and where the grammar found each production in it; its fields
    are read from the text on first access. Each class declares its fields
    once (:mod:`rfc1738.urls._fields`): a field ``F`` that may hold escapes
    comes as ``raw_F`` (as written) and ``F`` (decoded as UTF-8, see
    :mod:`rfc1738.urls._text`): ``None`` when the part is absent, ``""`` when
    it is present but empty. Objects are immutable (assigning raises
    :class:`~rfc1738.FrozenURLError`, an ``AttributeError``), compare and
    hash by class and text, and pickle with their grammar. :meth:`normalize`
    and :meth:`replace` return new objects, re-read by the grammar that read
    this one.

    ``host_checks`` records whether the checks beyond the grammar (label,
    host name and port limits) were applied; ``grammar`` is the
    :class:`~rfc1738.Grammar` that parsed the URL (``None``: the shipped one).
    Neither is part of the value.

    Objects come from :func:`rfc1738.parse`, ``Class.parse`` or
    :meth:`from_spans`.
    """

    # One slot holds what the parser found: (text, spans or the re.Match,
    # the group numbers of each production or None, host_checks, grammar);
    # one more the fields read from it, on first access. Built with one
    # assignment each, so that parse() costs little more than the match.
    __slots__ = ("_cache", "_state")

    _state: tuple[str, Any, Any, bool, Grammar | None]
    _cache: Parts

    #: Every field declaration of the class, in order (base classes' first).
    DECLARED: ClassVar[tuple[Field[Any], ...]] = ()
    #: Each declaration's raw field and production, as :meth:`_read_fields` reads them (derived).
    _SPANNED: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: The productions whose spans :meth:`from_spans` reads (derived from the declarations).
    PRODUCTIONS: ClassVar[frozenset[str]] = frozenset()
    #: Decoded field name → its declaration, for :meth:`replace` (derived).
    FIELDS: ClassVar[Mapping[str, Field[Any]]] = MappingProxyType({})
    #: Raw field name (``raw_path``) → its declaration: :meth:`replace` takes them too (derived).
    RAW_FIELDS: ClassVar[Mapping[str, Field[Any]]] = MappingProxyType({})
    #: The class's hooks (derived): its ``HOOK_EXPORTS``, the one declaration of the fields
    #: section 3 cuts further than the grammar (:mod:`rfc1738.runtime.hooks`), which the
    #: class reads with and the export gives.
    _HOOKS: ClassVar[tuple[HookExport, ...]] = ()
    #: Fields a hook of the class reads rather than their production's span (derived from
    #: its ``HOOK_EXPORTS``).
    READ_BY_HOOK: ClassVar[frozenset[str]] = frozenset()
    #: Productions a hook reads besides the fields' own.
    EXTRA_PRODUCTIONS: ClassVar[frozenset[str]] = frozenset()
    #: The :data:`~rfc1738.runtime.facts.SCHEME_FACTS` key of the class (section, default port).
    SCHEME: ClassVar[str] = GENERIC

    @classmethod
    def from_spans(
        cls, text: str, spans: Spans, *, host_checks: bool = True, grammar: Grammar | None = None
    ) -> Self:
        """The object for ``text``, given where each of :attr:`PRODUCTIONS` matched.

        ``spans`` maps a production to the ``(start, end)`` of its first
        match; a production that did not match is absent. Raises
        :class:`~rfc1738.URLSyntaxError` if ``host_checks`` is true and a host
        or port breaks a limit beyond the grammar. Fields are read from the
        text when first asked for.
        """
        if host_checks:
            check_spans(text, spans)
        # A copy: the caller's mapping may change afterwards, the object may not.
        return cls._build(text, dict(spans), host_checks, grammar)

    @classmethod
    def _build(cls, text: str, spans: Spans, host_checks: bool, grammar: Grammar | None) -> Self:
        url = object.__new__(cls)
        _set_state(url, (text, spans, None, host_checks, grammar))
        return url

    @classmethod
    def builder(
        cls, groups: tuple[tuple[str, tuple[int, ...]], ...], grammar: Grammar | None
    ) -> Callable[[str, re.Match[str], bool], Self]:
        """How the fast parser builds objects of this class: ``build(text, match, host_checks)``.

        ``match`` is a match of the compiled expression (host checks done),
        ``groups`` the group numbers of each production (see
        :attr:`~rfc1738.runtime.engines.Engine.fields`): the object keeps the match,
        and the spans are worked out from it only when a field is first read.
        One allocation and one slot assignment per object.
        """
        new = object.__new__

        def build(text: str, match: re.Match[str], host_checks: bool) -> Any:
            url = new(cls)
            _set_state(url, (text, match, groups, host_checks, grammar))
            return url

        return build

    # ---- what the parser found ----

    @property
    def text(self) -> str:
        """The URL exactly as it was given."""
        return self._state[0]

    @property
    def host_checks(self) -> bool:
        """Whether host and port limits were checked (see :mod:`rfc1738.runtime.hosts`)."""
        return self._state[3]

    @property
    def grammar(self) -> Grammar | None:
        """The grammar that parsed the URL; ``None`` stands for the shipped one.

        :meth:`normalize` and :meth:`replace` escape and re-read by it. Not
        part of the value.
        """
        return self._state[4]

    @property
    def _spans(self) -> Spans:
        """Where each production matched (worked out from the match on first use)."""
        _text, found, groups, _checks, _grammar = self._state
        if groups is None:
            spans: Spans = found
            return spans
        return spans_from_regs(found.regs, groups)

    @classmethod
    def from_fields(
        cls, *, grammar: Grammar | None = None, host_checks: bool = True, **fields: object
    ) -> Self:
        """A new URL of this class from field values, as :meth:`replace` takes them.

        Each decoded value is escaped where its production requires (a raw
        one, ``raw_path``, is written as given), the text is written by the
        start rule of the class's scheme in ``grammar`` (the shipped one for
        ``None``) and read again by it.

        >>> from rfc1738 import HttpURL
        >>> HttpURL.from_fields(host="example.org", segments=("a b", "c/d"), search="q")
        HttpURL('http://example.org/a%20b/c%2Fd?q')
        """
        prototype = cls._build(f"{cls.SCHEME}:", {}, host_checks, grammar)
        parts: Parts = {"raw_scheme": cls.SCHEME} | {f.raw_name: None for f in cls.DECLARED}
        prototype._apply(parts, fields)
        return prototype._kept(prototype._reparse(prototype._write(parts)), fields)

    @classmethod
    def parse(cls, text: str, *, parser: ParserName = "fast", host_checks: bool = True) -> Self:
        """The object for ``text``, by the shipped grammar; it must be of this class.

        Raises :class:`~rfc1738.URLSyntaxError` when ``text`` is not a URL, or
        is a URL of another scheme (naming this class's start rule).

        >>> from rfc1738 import HttpURL
        >>> HttpURL.parse("http://h/a").path
        'a'
        >>> HttpURL.parse("ftp://h/a")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
          ...
        rfc1738.errors.URLSyntaxError: a URL of scheme 'ftp' (FtpURL): HttpURL.parse reads ...
          ftp://h/a
          ^
        """
        grammar = default_grammar()
        url = grammar.parse(text, parser=parser, host_checks=host_checks)
        if not isinstance(url, cls):
            if grammar.url_class(cls.SCHEME) is not cls:
                # A class of an edited grammar (the how-to's AfsURL): the
                # shipped grammar never builds it, whatever the text.
                raise URLSyntaxError(
                    text,
                    0,
                    rule=url.facts.start,
                    reason=(
                        f"{cls.__name__}.parse reads by the shipped grammar, which builds no "
                        f"{cls.__name__}: parse with the grammar it belongs to "
                        f"(rfc1738.load(directory, classes=...).parse)"
                    ),
                )
            facts = facts_for(cls.SCHEME)
            section = f" (RFC 1738 section {facts.section})" if facts.section else ""
            raise URLSyntaxError(
                text,
                0,
                frozenset({facts.start}),
                facts.start,
                reason=(
                    f"a URL of scheme {url.scheme!r} ({type(url).__name__}): "
                    f"{cls.__name__}.parse reads {facts.start}{section} only"
                ),
            )
        return url

    # ---- value semantics ----

    def __setattr__(self, name: str, value: object) -> NoReturn:
        self._frozen(name)

    def __delattr__(self, name: str) -> NoReturn:
        self._frozen(name)

    def _frozen(self, name: str) -> NoReturn:
        raise FrozenURLError(f"cannot assign to field {name!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._state[0] == other._state[0]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._state[0]))

    def __reduce__(self) -> tuple[Any, ...]:
        # The grammar pickles as the arguments it was loaded with (Grammar.__reduce__).
        return (_rebuilt, (type(self), self.text, self._spans, self.host_checks, self.grammar))

    def __str__(self) -> str:
        return self._state[0]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._state[0]!r})"

    # ---- the scheme and its port ----

    raw_scheme = Computed(
        _scheme_as_written,
        reads=("text",),
        doc="The scheme as written (``HTTP`` stays ``HTTP``; see :attr:`scheme`).",
    )
    scheme = Computed(
        str.lower,
        reads=("raw_scheme",),
        doc="The scheme in lower case (section 2.1: scheme names ignore case).",
    )
    facts = Computed(
        facts_for,
        reads=("SCHEME",),
        doc="What RFC 1738 section 3 says about the scheme (section, default port).",
    )
    default_port = Computed(
        _default_port,
        reads=("facts",),
        doc="The port of the scheme's protocol (section 3), ``None`` if it has none.",
    )
    port = Computed(_no_port, doc="The port the URL names; ``None`` when it names none.")
    effective_port = Computed(
        _effective_port,
        reads=("port", "default_port"),
        doc=":attr:`port` if the URL names one, else :attr:`default_port`.",
    )

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
        each declared field in order: its decoded value(s) before the one as
        written (``path``, ``segments``, ``raw_path``), then the other
        properties (``port``, ``default_port``, ``effective_port``, ...).
        Tuples become lists; ``None`` stays ``None``; a number of more than
        about 4,200 digits (a port with the host checks off, an nntp article
        number) is given as its digits in a string. A decoded value may hold
        lone surrogates (see :mod:`rfc1738.urls._text`): ``json.dumps`` with
        its default ``ensure_ascii=True`` writes them as ``\\udcXX`` escapes.
        A decoded value that the attribute refuses
        (:class:`~rfc1738.AmbiguousFieldError`: ``path`` of
        ``ftp://h/%2Fetc/motd``) is left out; its raw twin is there.

        >>> import rfc1738
        >>> rfc1738.parse("news:comp.lang.python").to_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'class': 'NewsURL', 'text': 'news:comp.lang.python', 'scheme': 'news',
         'raw_scheme': 'news', 'group': 'comp.lang.python', 'article': None,
         'raw_article': None, 'all_groups': False, 'default_port': None,
         'effective_port': None, 'host': None, 'port': None}
        """
        # As getattr(self, name) would read each name, without the descriptors:
        # the raw fields once, then each value from them (see members()).
        raw = self._raw()
        data: dict[str, object] = {"class": type(self).__name__}
        for name, _role, key, read in members(type(self)):
            if key is None:
                try:
                    value = getattr(self, name)
                except AmbiguousFieldError:
                    continue  # a property that reads a decoded value the URL cannot give
            elif read is None:
                value = raw[key]
            else:
                value = raw[key]
                if (
                    value is not None
                    and (value.__class__ is not str or "%" in value)
                    and self._lost(self.FIELDS[name], name, value) is not None
                ):
                    continue
                value = read(value)
            data[name] = value if value is None or value.__class__ is str else json_ready(value)
        return data

    # ---- new objects ----

    def normalize(self) -> Self:
        """The canonical form of this URL, by the grammar that read it.

        Two URLs that RFC 1738 says are the same give the same canonical
        form (``docs/objects.md`` lists each equivalence with its section):
        scheme and host in lower case; the default port left out, other
        ports and numbers written without leading zeros; an escape of a
        character that means the same written as itself in its field
        (``%41``, and ``%3F`` in an ftp segment, where section 3.2.2 reserves
        only ``/`` and ``;``) written as the character, the hex digits of the
        remaining escapes in upper case; and each scheme's own (the ``/``
        that sections 3.3, 3.4 and 3.8 let a URL leave out, written; a file
        URL's ``localhost`` as the empty host of section 3.10; the default
        gopher type ``1`` of an empty selector left out). Everything else is
        kept as written.
        """
        parts = self._raw_parts()
        parts["raw_scheme"] = self.scheme
        for field in self.DECLARED:
            parts[field.raw_name] = self._normalized(field, parts[field.raw_name])
        return self._reparse(self._write(parts, self._equivalent(parts)))

    def replace(self, **changes: object) -> Self:
        """A new URL with the given fields changed, in their decoded form or as written.

        Fields are named as the decoded attributes (``path``, ``segments``,
        ``search``, ``port`` as an ``int`` or ``None``, ...); each value is
        escaped with the characters its production allows in the grammar
        that read this URL, so a reserved character it lets stand for itself
        is written as itself (``;`` in an http path). A raw twin
        (``raw_path="a%3Bb"``) is written as given: the way to write what no
        decoded value says, and it must read back as that same field. The
        new text is read by the grammar, so the result is always a valid URL,
        or :class:`~rfc1738.URLSyntaxError` (a ``ValueError``) is raised. A
        value the URL cannot express raises ``ValueError``; an unknown field,
        ``TypeError``.

        Giving a field the value the URL has gives the same URL
        (``url.replace(path=url.path).normalize() == url.normalize()``), for
        every field the URL gives.
        """
        parts = self._raw_parts()
        self._apply(parts, changes)
        return self._kept(self._reparse(self._write(parts)), changes)

    # ---- reading the fields ----

    def _raw(self) -> Parts:
        """The raw fields by name (``raw_scheme`` included), read on first use.

        Decoded values are kept in the same dictionary, under ``(name,)``.
        """
        # getattr with a default: an object not read yet raises no exception here.
        raw: Parts | None = getattr(self, "_cache", None)
        if raw is None:
            raw = self._read(self.text, self._spans)
            object.__setattr__(self, "_cache", raw)
        return raw

    def _raw_parts(self) -> Parts:
        """A copy of the raw fields, for :meth:`normalize` and :meth:`replace` to change."""
        return dict(self._raw())

    def _decoded(self, field: Field[Any]) -> Any:
        raw = self._raw()
        key = (field.name,)
        value = raw.get(key, _UNREAD)  # type: ignore[call-overload]
        if value is _UNREAD:
            text = raw[field.raw_name]
            if text is not None and (not isinstance(text, str) or "%" in text):
                self._refuse(field, field.name, text)
            value = raw[key] = field.decode(text)  # type: ignore[index]
        return value

    # ---- decoded values that would lose what the text says ----

    def _lost(self, field: Field[Any], view: str, raw: object) -> str | None:
        """The escape in ``raw`` that the decoded ``view`` of ``field`` cannot tell from its
        character, as written; ``None`` if it says all ``raw`` says."""
        return field.lost(raw, self._escape_sets(field, view))

    def _escape_sets(self, field: Field[Any], view: str) -> EscapeSets:
        """``field.escape_sets(view, ...)`` in this URL's grammar: worked out once per
        grammar, scheme as written, class, field and view."""
        grammar = self._state[4]
        # A grammar's sets live as long as the grammar, and no longer.
        kept = _SHIPPED_ESCAPE_SETS if grammar is None else _ESCAPE_SETS.setdefault(grammar, {})
        text = self.text
        key = (text[: text.index(":")], type(self), field, view)
        found = kept.get(key)
        if found is None:
            found = field.escape_sets(view, self._chars, self._reserved())
            if len(kept) < _SPELLINGS_KEPT * 16:
                kept[key] = found
        return found

    def _refuse(self, field: Field[Any], view: str, raw: object) -> None:
        """Raise :class:`~rfc1738.AmbiguousFieldError` where the decoded ``view`` loses ``raw``."""
        escape = self._lost(field, view, raw)
        if escape is None:
            return
        char = chr(int(escape[1:], 16))
        if isinstance(field, Path) and field.has_segments and char == "/":
            reason = (
                f"its {escape} is a '/' inside a segment, which the decoded {view} cannot tell "
                "from a '/' between segments"
            )
        else:
            written = f"its {escape} is a {char!r} as data, which the decoded {view} cannot tell"
            if field.reserved is not None:
                reason = f"{written} from the {char!r} that section {self.facts.section} reserves"
            else:
                reason = (
                    f"{written} from a {char!r} written as itself, which may mean something "
                    "to the scheme (section 2.2)"
                )
        instead: tuple[str, ...] = (field.raw_name,)
        if (
            view != "segments"
            and isinstance(field, Path)
            and field.has_segments
            and self._lost(field, "segments", raw) is None
        ):
            instead = ("segments", field.raw_name)
        raise AmbiguousFieldError(self.text, view, escape, instead, reason)

    def _reserved(self) -> frozenset[str]:
        """The reserved characters of section 2.2: the grammar's ``RESERVED``."""
        return self._grammar().terminal_chars("common", "RESERVED")

    def _read(self, text: str, spans: Spans) -> Parts:
        """Each field's text as written: :meth:`_read_fields` with this URL's layout."""
        return self._read_fields(text, spans, self._layout)

    @classmethod
    def _read_fields(cls, text: str, spans: Spans, layout: Callable[[], Layout]) -> Parts:
        """Each field's text as written: its production's span, ``None`` where it did not match,
        then what the class's hook (:meth:`_cut`) changes."""
        raw: Parts = {"raw_scheme": text[: text.index(":")]}
        get = spans.get
        for name, production in cls._SPANNED:
            span = get(production)
            raw[name] = None if span is None else text[span[0] : span[1]]
        cls._cut(raw, text, spans, layout)
        return raw

    @classmethod
    def _cut(cls, raw: Parts, text: str, spans: Spans, layout: Callable[[], Layout]) -> None:
        """The hook of a class whose fields section 3 splits further than the grammar.

        Changes ``raw`` (the fields read from their productions' spans) in
        place: a function of the text, the spans of the class's productions
        and the start rule's layout (``layout()``, the same for every URL of
        the class with the same scheme as written), so that
        :mod:`rfc1738.output.plan` reads the fields of many URLs without
        building an object for each. Each text it gives is a part of
        ``text``, as written. Here: the fields the class's ``HOOK_EXPORTS``
        declares (gopher, prospero, nntp); news and file add their own.
        """
        if cls._HOOKS:
            read_hooks(cls, cls._HOOKS, raw, text, spans, layout())

    # ---- the grammar this URL is read and written by ----

    def _grammar(self) -> Grammar:
        return self.grammar if self.grammar is not None else default_grammar()

    def _source(self) -> tuple[str, str]:
        """The grammar file and start rule whose layout this class writes."""
        entry = self._grammar().scheme_file(self.text)
        return entry.scheme, entry.start

    @classmethod
    def layout_fields(cls) -> frozenset[str]:
        """The productions the class's fields fill in its start rule's layout."""
        found = _LAYOUT_FIELDS.get(cls)
        if found is None:
            found = _LAYOUT_FIELDS[cls] = frozenset(
                p for field in cls.DECLARED for p in field.parts(None)
            )
        return found

    def _layout(self) -> Layout:
        # The hooks of gopher, prospero and file read the layout for every
        # object: one look-up per grammar, scheme as written and class after
        # the first (the file follows from the spelling).
        facts = self._grammar().tables
        text = self.text
        spelled = (text[: text.index(":")], type(self))
        found = facts.by_spelling.get(spelled)
        if found is None:
            file, start = self._source()
            key = (file, type(self))
            found = facts.by_class.get(key)
            if found is None:
                found = facts.by_class[key] = facts.layout(file, start, self.layout_fields())
            if len(facts.by_spelling) < _SPELLINGS_KEPT:
                facts.by_spelling[spelled] = found
        return found

    def _chars(self, name: str) -> frozenset[str]:
        """The characters of production ``name`` (a terminal if UPPERCASE) in this URL's file."""
        grammar, (file, _start) = self._grammar(), self._source()
        if name.isupper():
            return grammar.terminal_chars(file, name)
        return grammar.rule_chars(file, name)

    # ---- writing ----

    def _write(self, parts: Parts, kept: frozenset[int] | None = None) -> str:
        """The text of a URL with these raw fields; ``ValueError`` if none has them.

        ``kept``: the optional parts without a field to write (``None``: those
        this URL's text has, see :func:`~rfc1738.runtime.layout.present`).
        """
        layout = self._layout()
        productions: dict[str, object] = {}
        for field in self.DECLARED:
            productions.update(field.parts(parts[field.raw_name]))
        return write(
            layout,
            productions,
            scheme=str(parts["raw_scheme"]),
            kept=present(layout, self.text, self._spans) if kept is None else kept,
            names={p: f.name for f in self.DECLARED for p in f.parts(None)},
            start=self._source()[1],
        )

    def _field_named(self, name: str) -> Field[Any] | None:
        """The declaration that ``replace`` sets when given ``name`` (a decoded or a raw name)."""
        return self.FIELDS.get(name) or self.RAW_FIELDS.get(name)

    def _apply(self, parts: Parts, changes: Mapping[str, object]) -> None:
        set_by: dict[str, str] = {}
        for name, value in changes.items():
            field = self._field_named(name)
            if field is None:
                known = ", ".join(sorted(self.FIELDS))
                raise TypeError(f"{type(self).__name__} has no field {name!r} (fields: {known})")
            if field.raw_name in set_by:
                raise ValueError(f"{set_by[field.raw_name]} and {name} set the same part: give one")
            set_by[field.raw_name] = name
            if name in self.FIELDS:
                parts[field.raw_name] = field.encode(name, value, self._chars)
            else:
                parts[field.raw_name] = _raw_value(field, name, value)

    def _kept(self, url: Self, changes: Mapping[str, object]) -> Self:
        """``url``, if each raw field in ``changes`` reads back as given; else ``ValueError``."""
        for name, value in changes.items():
            field = self.RAW_FIELDS.get(name)
            if field is None or name in self.FIELDS:
                continue
            given = _raw_value(field, name, value)
            found = getattr(url, name)
            if found != given:
                raise ValueError(
                    f"{name}={given!r} does not stay one {field.name}: {str(url)!r} reads "
                    f"{name} as {found!r}"
                )
        return url

    def _normalized(self, field: Field[Any], value: object) -> object:
        if value is None:
            return None
        if isinstance(field, Verbatim):
            # Host names ignore case (RFC 1034); other verbatim fields are kept.
            return value.lower() if field.production == "host" and isinstance(value, str) else value
        if isinstance(field, Number) and isinstance(value, str):
            # Decimal digits: the same number without leading zeros (sections 3.1, 3.7).
            number = value.lstrip("0") or "0"
            if field.production == "port" and number == str(self.default_port):
                return None
            return number
        return field.normalized(value, self._escape_sets(field, field.name))

    def _equivalent(self, parts: Parts) -> frozenset[int] | None:
        """What else section 3 says is the same URL, applied to normalized raw fields in place.

        Returns the optional parts without a field that the canonical form
        writes (``None``: those this URL has, see :meth:`_write`). The
        classes of schemes whose section names such an equivalence change it.
        """
        return None

    def _written_options(self) -> frozenset[int]:
        """Every optional part of the start rule that its literals alone may fill (the final
        ``/`` of ``telnet://h/``): what a canonical form that writes them gives :meth:`_write`."""
        return fieldless_options(self._layout())

    def _reparse(self, text: str) -> Self:
        url = self._grammar().parse(text, host_checks=self.host_checks)
        if not isinstance(url, type(self)):
            raise ValueError(f"{text!r} is a {type(url).__name__}, not a {type(self).__name__}")
        return url


#: :meth:`URL._escape_sets` by scheme as written, class, field and view: for the
#: shipped grammar, and per edited grammar.
_EscapeSetsKept = dict[tuple[str, type, Field[Any], str], EscapeSets]
_SHIPPED_ESCAPE_SETS: _EscapeSetsKept = {}
_ESCAPE_SETS: WeakKeyDictionary[Grammar, _EscapeSetsKept] = WeakKeyDictionary()

#: What ``URL._decoded`` finds for a value not decoded yet (a decoded value may be ``None``).
_UNREAD = object()

#: How many (scheme as written, class) pairs a grammar keeps the layout of.
_SPELLINGS_KEPT = 1024

#: Per class, the productions its fields fill in a layout (:meth:`URL.layout_fields`).
_LAYOUT_FIELDS: dict[type[URL], frozenset[str]] = {}

#: Sets the one slot of a URL's state, past the ``__setattr__`` that refuses to.
_set_state = URL.__dict__["_state"].__set__


def _raw_value(field: Field[Any], name: str, value: object) -> object:
    """A raw field given to :meth:`URL.replace` as ``name``, checked for its type."""
    if value is None:
        if not field.optional:
            raise ValueError(f"{name} cannot be None")
        return None
    if isinstance(field, Pairs):
        if isinstance(value, tuple | list) and all(
            isinstance(pair, tuple | list)
            and len(pair) == 2
            and all(isinstance(i, str) for i in pair)
            for pair in value
        ):
            return tuple((key, item) for key, item in value)
        raise TypeError(f"{name} must be a tuple of (name, value) pairs as written")
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str (the text as written), not {type(value).__name__}")
    return value


def _rebuilt(
    cls: type[URL], text: str, spans: Spans, host_checks: bool, grammar: Grammar | None
) -> URL:
    """An unpickled URL: built again from its text and spans (checked when it was parsed)."""
    return cls._build(text, spans, host_checks, grammar)


#: Public attributes that are not parts of the URL: the scheme's facts, the grammar that read it.
_NOT_PARTS = frozenset({"facts", "grammar", "host_checks", "text"})

#: Per class, the attributes :meth:`URL.to_dict` writes, found once.
_EXPORTED: dict[type[URL], tuple[str, ...]] = {}


def exported(cls: type[URL]) -> tuple[str, ...]:
    """The attributes :meth:`URL.to_dict` writes for ``cls``, in order."""
    found = _EXPORTED.get(cls)
    if found is None:
        found = _EXPORTED[cls] = _find_exported(cls)
    return found


def _find_exported(cls: type[URL]) -> tuple[str, ...]:
    names = ["text", "scheme", "raw_scheme"]
    for field in cls.DECLARED:
        names.extend(name for name in field.names if name not in names)
    properties = {
        name
        for klass in cls.__mro__
        for name, value in vars(klass).items()
        if isinstance(value, property) and not name.startswith("_")
    }
    names.extend(sorted(properties - set(names) - _NOT_PARTS))
    return tuple(name for name in names if name == "text" or name not in _NOT_PARTS)


#: How :meth:`URL.to_dict` reads one of the names it writes: ``(name, role,
#: key, read)``. ``role`` is ``"raw"`` (a field's raw twin: the raw field
#: ``key``), ``"decoded"`` (a field: ``read`` of the raw field ``key``, its
#: ``decode``), ``"segments"`` (a path's segments: ``read`` of its raw field)
#: or ``"attribute"`` (anything else, a property: read from the object;
#: ``key`` and ``read`` are ``None``).
Member = tuple[str, str, str | None, Callable[[Any], object] | None]

#: Per class, its members, found once.
_MEMBERS: dict[type[URL], tuple[Member, ...]] = {}


def members(cls: type[URL]) -> tuple[Member, ...]:
    """Each name :meth:`URL.to_dict` writes for ``cls``, in order, and how its value is read.

    Read off the class attribute that gives the name, so that the value is
    the one ``getattr(url, name)`` gives: a field declaration gives its
    ``decode`` of its raw field, its raw twin the raw field, a path's
    ``segments`` the path split and decoded; anything else is read from the
    object.
    """
    found = _MEMBERS.get(cls)
    if found is None:
        found = _MEMBERS[cls] = tuple(member(cls, name) for name in exported(cls))
    return found


def member(cls: type[URL], name: str) -> Member:
    """How ``getattr(url, name)`` reads ``cls``'s attribute ``name`` (see :func:`members`)."""
    attribute = class_attribute(cls, name)
    if (
        isinstance(attribute, Field)
        and type(attribute).__get__ is Field.__get__
        and cls._decoded is URL._decoded
    ):
        return (name, "decoded", attribute.raw_name, attribute.decode)
    if type(attribute) is Raw:
        return (name, "raw", attribute.field.raw_name, None)
    if type(attribute) is _Segments:
        path = attribute.field

        def segments(raw: object) -> tuple[str, ...]:
            # As _Segments reads them.
            return path.segments(raw if isinstance(raw, str) else None)

        return (name, "segments", path.raw_name, segments)
    return (name, "attribute", None, None)


def class_attribute(cls: type, name: str) -> object:
    """The class attribute ``name`` as defined, without calling its ``__get__``."""
    return next((vars(k)[name] for k in cls.__mro__ if name in vars(k)), None)


def json_ready(value: object) -> object:
    """``value`` with tuples, nested too, as lists (JSON arrays), and huge numbers as text."""
    if isinstance(value, tuple):
        return [json_ready(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > _LONGEST:
        # Python refuses to write an int of more than 4300 digits (json.dumps
        # included): the digits come back as a string instead.
        return digits(value)
    return value


#: Bits of the largest number ``str()`` writes without refusing (4300 digits, less a margin).
_LONGEST = 14_000
