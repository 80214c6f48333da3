"""Which grammar file a URL is read with, and the engine of each file, built on first use.

:class:`Dispatch` picks a URL's grammar file by its scheme, and builds that
scheme's :class:`~rfc1738.runtime.engines.Engine` from the scheme's compiled
table (:class:`~rfc1738.runtime.store.GrammarTables`) when the scheme is
first met, one scheme at a time; its
:class:`~rfc1738.runtime.explain.Explainer` works out the errors. Which
object a match becomes is not its business: the URL layer hands it the
classes (:class:`ObjectBuilder`), and :class:`rfc1738.Grammar` holds a
:class:`Dispatch` with RFC 1738's classes.
"""

from __future__ import annotations

import os

# _thread's RLock is what threading.RLock gives; importing threading would
# add half a millisecond to `import rfc1738` (docs/architecture.md, "Start-up").
from _thread import RLock
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ..bnf.files import GENERIC, SchemeFile, scheme_key, shipped_grammar_dir
from ..bnf.names import base_name
from ..errors import MAX_REFERENCE_LENGTH, GrammarError, InputTooLongError, URLSyntaxError
from .engines import Engine, as_generic, build_engine
from .explain import Explainer
from .hosts import CHECKED_PRODUCTIONS
from .spans import Spans, spans_from_tree
from .store import GrammarTables, grammar_files
from .tables import SchemeTable
from .unavailable import Unavailable

if TYPE_CHECKING:
    import re

    # Lark is imported when a grammar is first compiled or parsed with Earley,
    # not by `import rfc1738`.
    from ..bnf.adapter import ParseTree
    from .reference import ReferenceParser

__all__ = [
    "MAX_SPELLINGS",
    "Dispatch",
    "Dispatching",
    "ObjectBuilder",
    "ParserName",
    "default_grammar",
    "scheme_key",
    "set_default_grammar",
]

#: Which parser builds the object: the compiled expressions or Lark Earley.
ParserName = Literal["fast", "reference"]

#: How many spellings of schemes are remembered (``HTTP``, ``Http``,
#: ``https``, ...) where a scheme as written finds its engine: a bound, as the
#: schemes come from the input.
MAX_SPELLINGS = 256


class ObjectBuilder(Protocol):
    """What a match becomes: a URL class, as the engines see it.

    ``PRODUCTIONS`` names the productions whose spans it reads;
    ``from_spans`` builds the object from the text and those spans, and
    ``builder`` gives the expression's builder from a match. The grammar
    that parsed the text is passed along as ``grammar``, so that the object
    can escape and re-parse by the same grammar.
    """

    @property
    def PRODUCTIONS(self) -> frozenset[str]:
        """The productions whose spans :meth:`from_spans` reads."""
        ...

    def from_spans(
        self, text: str, spans: Spans, *, host_checks: bool = True, grammar: Any = None
    ) -> Any:
        """The object for ``text``."""
        ...

    def builder(
        self, groups: tuple[tuple[str, tuple[int, ...]], ...], grammar: Any
    ) -> Callable[[str, re.Match[str], bool], Any]:
        """``build(text, match, host_checks)`` for matches with these groups."""
        ...


class Dispatch:
    """The grammar files of one directory, and the engine of each, built on first use.

    ``known`` maps a scheme (a grammar file's name) to the builder its URLs
    become when the file defines every production the builder reads;
    ``classes`` maps schemes to builders that are used whatever the file
    defines; ``generic`` serves the rest. ``max_reference_length`` bounds
    the input of the Earley parser (a heavily ambiguous grammar may want a
    lower bound than RFC 1738's). ``grammar`` is what the objects keep as
    the grammar that parsed them; ``check(scheme, cls, given)`` is called
    the first time a scheme's class is chosen (``given``: ``classes`` named
    it), before any object of the scheme is built.

    Any number of threads may share one. What it builds on first use (a
    scheme's table, engine, error automaton) is built once, under a lock of
    its own (its :attr:`explainer`'s too) taken only on a miss. Under it, of
    this package's locks, only its :class:`~rfc1738.runtime.store.GrammarTables`'
    are taken, which take none: no two locks are ever waited for in opposite
    orders. The hot path reads what was built without a lock.
    """

    def __init__(
        self,
        directory: str | os.PathLike[str] | None,
        classes: Mapping[str, ObjectBuilder] | None,
        *,
        known: Mapping[str, ObjectBuilder],
        generic: ObjectBuilder,
        grammar: Any,
        check: Callable[[str, Any, bool], None] | None = None,
        max_reference_length: int = MAX_REFERENCE_LENGTH,
    ) -> None:
        self.directory = Path(directory) if directory is not None else shipped_grammar_dir()
        if not self.directory.is_dir():
            raise GrammarError(f"no grammar directory at {self.directory}")
        self.files: dict[str, SchemeFile] = grammar_files(self.directory)
        if GENERIC not in self.files:
            raise GrammarError(f"{GENERIC}.lark is missing", file=str(self.directory))
        self._classes = dict(classes or {})
        self._known = known
        self._generic = generic
        self._check = check
        # The schemes whose class has been checked (see url_class).
        self._checked: set[str] = set()
        self.grammar = grammar
        self.max_reference_length = max_reference_length
        self._reference: dict[str, ReferenceParser | Unavailable] = {}
        #: Each scheme's engine by its file's name, and by the scheme as written
        #: (at most MAX_SPELLINGS of those), built on first use: what the hot path reads.
        self.engines: dict[str, Engine] = {}
        #: The compiled tables: built into the wheel, cached on disk, or compiled here.
        self.tables = GrammarTables(self.directory, self.files)
        # Held while something is built on first use (see the class docstring):
        # re-entrant, as building one thing asks for others.
        self._building = RLock()
        #: The errors of this directory's URLs, worked out when first read.
        self.explainer = Explainer(self, self._building)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.directory)!r})"

    @property
    def schemes(self) -> frozenset[str]:
        """The schemes that have a file of their own (``generic`` excluded)."""
        return frozenset(name for name in self.files if name != GENERIC)

    # ---- which file, which class ----

    def scheme_file(self, text: str) -> SchemeFile:
        """The file a URL is parsed with (:meth:`rfc1738.Grammar.scheme_file`)."""
        colon = _checked(text).find(":")
        if colon > 0:
            key = scheme_key(text[:colon])
            if key is not None:
                entry = self.files.get(key)
                if entry is not None:
                    return entry
        return self.files[GENERIC]

    def url_class(self, scheme: str) -> Any:
        """The class URLs of ``scheme`` (a grammar file's name) become.

        Checked the first time it is chosen (see the class docstring).
        """
        cls = self._classes.get(scheme)
        if cls is None:
            shipped = self._known.get(scheme)
            # A shipped class reads the productions of the shipped grammar; a
            # grammar without them (the 1994 W3 grammar's http has no hpath) gets
            # the generic class instead of an object with its fields missing.
            found = shipped is not None and self._defines(scheme, shipped.PRODUCTIONS)
            cls = shipped if found else self._generic
        if scheme not in self._checked and self._check is not None:
            # Checked before it is marked: a thread that finds it unmarked checks it too.
            self._check(scheme, cls, scheme in self._classes)
            self._checked.add(scheme)
        return cls

    def _defines(self, scheme: str, productions: frozenset[str]) -> bool:
        """Whether ``scheme``'s file (with its imports) defines every one of ``productions``."""
        return productions <= {base_name(name) for name in self.tables.rules(scheme)}

    # ---- the tables and engines, built on first use ----

    def reference_parser(self, scheme: str) -> ReferenceParser | Unavailable:
        """The Earley parser of one scheme's file (:class:`Unavailable` in a standalone module)."""
        parser = self._reference.get(scheme)
        if parser is None:
            path = self.files[scheme].path
            try:
                from .reference import ReferenceParser  # Lark: Earley
            except ModuleNotFoundError as missing:
                if missing.name != f"{__package__}.reference":
                    raise
                # A standalone module: the run-time modules alone, no Lark. (It
                # answers parse() as a reference parser beyond its bound does.)
                unavailable = Unavailable(path, self.tables.tables.schemes[scheme].problem)
                return self._reference.setdefault(scheme, unavailable)
            # Made at once (its Earley parsers are built on first use): one
            # per scheme whichever thread asks first.
            parser = self._reference.setdefault(
                scheme, ReferenceParser(path, self.max_reference_length)
            )
        return parser

    def table(self, scheme: str) -> SchemeTable:
        """One scheme's compiled table, with the groups its class and the host checks read."""
        with self._building:
            cls = self.url_class(scheme)
            productions = cls.PRODUCTIONS | CHECKED_PRODUCTIONS
            layout_fields = cls.layout_fields() if hasattr(cls, "layout_fields") else ()
            return self.tables.table(scheme, self.files[scheme].start, productions, layout_fields)

    def engine(self, scheme: str) -> Engine:
        """The engine of one scheme (a grammar file's name), built on first use."""
        found = self.engines.get(scheme)
        if found is None:
            with self._building:
                found = self.engines.get(scheme)
                if found is None:
                    found = self.engines[scheme] = self._built(self.files[scheme])
        return found

    def engine_for(self, text: str) -> Engine:
        """The engine of ``text``'s scheme (:meth:`scheme_file` made fast).

        Once a scheme has been seen as written (``HTTP``, ``http``), one
        dictionary look-up finds it. ``TypeError`` if ``text`` is not a ``str``.
        """
        colon = _checked(text).find(":")
        written = text[:colon]
        key = scheme_key(written) if colon > 0 else None
        found = self.engines.get(key or GENERIC)
        if found is None:
            found = self.engine(key if key is not None and key in self.files else GENERIC)
        if key is not None and len(self.engines) < MAX_SPELLINGS:
            self.engines[written] = found
        return found

    def _built(self, entry: SchemeFile) -> Engine:
        cls = self.url_class(entry.scheme)
        return build_engine(
            entry,
            cls,
            self.table(entry.scheme),
            foreign=self._is_foreign(entry.scheme, cls),
            grammar=self.grammar,
            reference=self.reference_parser,
        )

    def _is_foreign(self, scheme: str, cls: Any) -> bool:
        """Whether the generic class is fed by a production other than ``genericurl``.

        So it is for a new scheme file with no class of its own, and for a
        grammar whose generic production is not RFC 1738's.
        """
        generic = self._generic
        return cls is generic and not self._defines(scheme, generic.PRODUCTIONS)

    # ---- Earley ----

    def parse_tree(self, text: str) -> ParseTree:
        """The Earley parse tree of ``text`` (:meth:`rfc1738.Grammar.parse_tree`)."""
        entry = self.scheme_file(text)
        try:
            return self.reference_parser(entry.scheme).parse(text, entry.start)
        except InputTooLongError:
            raise
        except URLSyntaxError as error:
            raise self.explainer.earley_error(error, entry) from None

    def parse_by(self, text: str, parser: str, host_checks: bool) -> Any:
        """The object for ``text`` by ``parser`` other than ``"fast"`` (``"reference"``).

        ``ValueError`` for a parser of another name.
        """
        entry = self.scheme_file(text)
        if parser != "reference":
            raise ValueError(f"parser must be 'fast' or 'reference', not {parser!r}")
        cls = self.url_class(entry.scheme)
        spans = spans_from_tree(self.parse_tree(text), cls.PRODUCTIONS)
        if self._is_foreign(entry.scheme, cls):
            spans = as_generic(text, spans)
        return cls.from_spans(text, spans, host_checks=host_checks, grammar=self.grammar)


class Dispatching(Protocol):
    """What holds a :class:`Dispatch` (:class:`rfc1738.Grammar`), as the bulk calls take it."""

    @property
    def dispatch(self) -> Dispatch:
        """The grammar's dispatch."""
        ...


def _checked(text: object) -> str:
    if not isinstance(text, str):
        raise TypeError(f"a URL must be a str, not {type(text).__name__}")
    return text


# ---- the default grammar ----

_default_factory: Callable[[], Any] | None = None


def set_default_grammar(factory: Callable[[], Any]) -> None:
    """Say how to get the grammar that objects with no grammar of their own re-read by.

    The URL layer registers the shipped grammar here when it is imported: a
    URL object built by hand (not by a parser) reaches it through this layer
    instead of importing the layers above.
    """
    global _default_factory
    _default_factory = factory


def default_grammar() -> Any:
    """The grammar registered with :func:`set_default_grammar` (the shipped one)."""
    if _default_factory is None:  # pragma: no cover - rfc1738.urls registers it on import
        raise GrammarError("no default grammar is registered (import rfc1738.urls)")
    return _default_factory()
