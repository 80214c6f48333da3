"""A grammar directory's compiled tables, and the one way from run time to the compiler.

:class:`GrammarTables` answers what the engines, the explainer and the URL
objects ask of a grammar directory (a scheme's table, the rules its file
defines, a character set, how a start rule lays its fields out) from the
first of:

1. tables registered for the directory (:func:`register_tables`: a
   standalone module's own);
2. the tables built into the wheel (``rfc1738/runtime/_tables.py``, written by
   ``hatch_build.py`` from ``grammar/``), when the directory's content key is
   theirs: the shipped grammar, or an unedited copy of it;
3. the disk cache (:mod:`rfc1738.runtime.cache`), by content key: checked
   when read, and each scheme's expression when the scheme is first used
   (:func:`~rfc1738.runtime.tables.read_checked`,
   :func:`~rfc1738.runtime.tables.runs_as_written`); a scheme whose table does not hold
   together is compiled again, as if it were not there;
4. the compiler (Lark), one scheme or one file's character sets at a time,
   on first use; what it compiles is added to the disk cache.

The compiler is reached only through :meth:`GrammarTables._compiler`, the one
import from run time into :mod:`rfc1738.compile` (``tests/test_layers.py``
holds it so), and each grammar file is loaded by it at most once per
directory. The wheel's tables are the package's own data, used unchecked
once their key matches; a standalone module reads its own with
:func:`~rfc1738.runtime.tables.read_checked`, as a cache file's are read.
"""

from __future__ import annotations

# _thread's RLock is threading's, without importing threading at start-up.
from _thread import RLock
from collections.abc import Collection, Mapping
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..bnf.files import SchemeFile, scheme_files, shipped_grammar_dir
from ..errors import GrammarError, NotRegularError
from .automaton import ErrorAutomaton
from .cache import read_cached, write_cached
from .layout import Layout
from .tables import SchemeTable, Tables, content_key, read_unchecked, runs_as_written

try:  # written into the wheel by hatch_build.py; absent in a checkout
    from ._tables import TABLES as _BUILT  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - the tests run the built wheel
    _BUILT = None  # type: ignore[assignment, unused-ignore]

if TYPE_CHECKING:
    from ..compile.pipeline import CompiledFile

__all__ = ["GrammarTables", "grammar_files", "register_tables", "shipped_tables"]

_registered: dict[Path, Tables] = {}


def register_tables(directory: Path, tables: Tables) -> None:
    """Make ``tables`` the compiled form of ``directory`` (a standalone module's grammar)."""
    _registered[directory] = tables


def shipped_tables() -> Tables | None:
    """The shipped grammar's tables: registered for its directory (a standalone module's),
    else the wheel's, if they are those of the shipped grammar files as installed."""
    registered = _registered.get(shipped_grammar_dir())
    return registered if registered is not None else _built_tables()


@cache
def _built_tables() -> Tables | None:
    if _BUILT is None or _BUILT.get("key") != content_key(shipped_grammar_dir()):
        return None
    # The key holds the version and the format: this version's writer wrote the module.
    return read_unchecked(_BUILT)


def grammar_files(directory: Path) -> dict[str, SchemeFile]:
    """The scheme files of ``directory``: those of the tables registered for it, else its files.

    A standalone module's directory holds no grammar files: its schemes are
    those its tables were compiled from.
    """
    registered = _registered.get(directory)
    if registered is None:
        return scheme_files(directory)
    return {
        scheme: SchemeFile(scheme, directory / f"{scheme}.lark", table.start)
        for scheme, table in registered.schemes.items()
    }


class GrammarTables:
    """The compiled tables of one grammar directory, loaded on first use.

    ``files`` are the directory's scheme files. Where no process has
    compiled them yet (an edited grammar), they are read at once, so that one
    past the compiler's limits is refused here (:mod:`rfc1738.compile.limits`).

    Any number of threads may share one. Its lock is held while the tables
    are loaded or added to, so that threads that add at once lose none of
    each other's; nothing else is waited for under it (a leaf lock:
    compiling happens outside it), and a grammar file is loaded under a leaf
    lock of its own.

    >>> from rfc1738.bnf.files import shipped_grammar_dir, scheme_files
    >>> tables = GrammarTables(shipped_grammar_dir(), scheme_files(shipped_grammar_dir()))
    >>> "/" in tables.rule_chars("http", "hsegment"), "=" in tables.rule_chars("http", "hsegment")
    (False, True)
    >>> sorted(tables.terminal_chars("common", "SAFE"))
    ['$', '+', '-', '.', '_']
    """

    def __init__(self, directory: Path, files: Mapping[str, SchemeFile]) -> None:
        self.directory = directory
        self._tables: Tables | None = None
        #: Whether what is compiled here goes to the disk cache.
        self._caching = True
        self._changing = RLock()
        #: The schemes read from the disk cache whose expressions are not checked yet.
        self._unchecked: set[str] = set()
        # Per grammar file (by name), as the compiler holds it: loaded once, with Lark.
        self._files: dict[str, CompiledFile] = {}
        self._loading = RLock()
        self._chars: dict[tuple[str, str, str], frozenset[str]] = {}
        self._layouts: dict[tuple[str, str, frozenset[str]], Layout] = {}
        #: Layouts as the URL layer looks them up for an object, by (file, class):
        #: kept here so that they live as long as the grammar, and no longer.
        self.by_class: dict[tuple[str, Any], Layout] = {}
        #: The same by (scheme as written, class), which finds it without
        #: working out the file (a bounded number, as spellings come from the input).
        self.by_spelling: dict[tuple[str, Any], Layout] = {}
        if not self.tables.schemes:
            self._files.update(self._compiler(directory).checked_files(files))

    @property
    def tables(self) -> Tables:
        """The tables as far as they are known (loaded on first use)."""
        tables = self._tables
        if tables is None:
            with self._changing:
                if self._tables is None:
                    self._tables = self._load()
                tables = self._tables
        return tables

    def _load(self) -> Tables:
        registered = _registered.get(self.directory)
        if registered is not None:
            self._caching = False
            return registered
        shipped = shipped_tables()
        if shipped is not None and self.directory == shipped_grammar_dir():
            # shipped_tables() has just checked these files against the tables' key.
            self._caching = False
            return shipped
        key = content_key(self.directory)
        if shipped is not None and shipped.key == key:
            self._caching = False
            return shipped
        cached = read_cached(key)
        if cached is None:
            return Tables(key, {}, {})
        self._unchecked = set(cached.schemes)
        return cached

    def table(
        self,
        scheme: str,
        start: str,
        capture: Collection[str],
        layout_fields: Collection[str] = (),
    ) -> SchemeTable:
        """``scheme``'s table for ``start`` with groups for ``capture``, compiled if need be.

        ``layout_fields``: the productions the scheme's class writes, laid out
        in the table too.
        """
        table = self._checked(scheme)
        if (
            table is None
            or table.start != start
            or set(table.capture) != set(capture)
            or set(table.layout_fields) != set(layout_fields)
        ):
            table = self.compiled_file(scheme).scheme_table(start, capture, layout_fields)
            self._add(Tables(self.tables.key, {**self.tables.schemes, scheme: table}, {}))
        return table

    def _checked(self, scheme: str) -> SchemeTable | None:
        """``scheme``'s table as far as known; one read from a cache file is checked first.

        One whose expression does not compile as written is a miss,
        and leaves the tables: whoever asks next compiles the scheme again.
        """
        table = self.tables.schemes.get(scheme)
        if table is not None and scheme in self._unchecked:
            with self._changing:
                table = self.tables.schemes.get(scheme)  # as another thread may have left it
                if table is not None and scheme in self._unchecked and not runs_as_written(table):
                    tables = self.tables
                    schemes = {s: t for s, t in tables.schemes.items() if s != scheme}
                    self._tables = Tables(tables.key, schemes, tables.chars)
                    table = None
                self._unchecked.discard(scheme)
        return table

    def rules(self, file: str) -> Collection[str]:
        """The names of the rules ``<file>.lark`` defines or imports (as Lark names them)."""
        table = self.tables.schemes.get(file)
        return table.rules if table is not None else self.compiled_file(file).rules

    def automaton(self, file: str, start: str) -> ErrorAutomaton | None:
        """The error automaton of ``start`` in ``<file>.lark``; ``None`` where it has none.

        From the file's table where it has one for ``start``; otherwise
        compiled (and not kept: a scheme's table keeps it once compiled).
        """
        table = self._checked(file)
        if table is not None and table.start == start:
            return None if table.automaton is None else ErrorAutomaton.from_data(table.automaton)
        found: ErrorAutomaton | None = self.compiled_file(file).error_automaton(start)
        return found

    def char_set(self, file: str, kind: str, name: str) -> frozenset[str] | None:
        """The characters of a rule or terminal of ``<file>.lark`` (``None``: no such file or name).

        A file's sets of that kind are compiled together on first use.
        """
        found = self.tables.char_set(file, kind, name)
        if found is None and not any(k[:2] == (file, kind) for k in self.tables.chars):
            try:
                compiled = self.compiled_file(file).char_sets((kind,))
            except GrammarError:
                return None
            self._add(Tables(self.tables.key, {}, compiled))
            found = self.tables.char_set(file, kind, name)
        return found

    def rule_chars(self, file: str, rule: str) -> frozenset[str]:
        """The characters that stand for themselves in ``rule`` of ``<file>.lark``.

        :class:`~rfc1738.GrammarError` where the file has no such rule.
        """
        return self._chars_of(file, "rule", rule)

    def terminal_chars(self, file: str, terminal: str) -> frozenset[str]:
        """The single characters terminal ``terminal`` of ``<file>.lark`` matches."""
        return self._chars_of(file, "terminal", terminal)

    def _chars_of(self, file: str, kind: str, name: str) -> frozenset[str]:
        key = (file, kind, name)
        found = self._chars.get(key)
        if found is None:
            found = self.char_set(file, kind, name)
            if found is None:
                # Not in the tables: the compiler's answer, or its GrammarError
                # (no such name, a rule that refers back to itself).
                compiled = self.compiled_file(file)
                found = (
                    compiled.rule_chars(name) if kind == "rule" else compiled.terminal_chars(name)
                )
            self._chars[key] = found
        return found

    def layout(self, file: str, start: str, fields: frozenset[str]) -> Layout:
        """How ``start`` of ``<file>.lark`` lays out the productions ``fields``.

        From the file's table where it holds that layout; otherwise compiled
        (:class:`~rfc1738.compile.pipeline.NotRegularError` for a start rule
        that is not regular).
        """
        key = (file, start, fields)
        found = self._layouts.get(key)
        if found is None:
            table = self.tables.schemes.get(file)
            if (
                table is not None
                and table.layout is not None
                and table.start == start
                and set(table.layout_fields) == fields
            ):
                found = table.layout
            else:
                found = self.compiled_file(file).layout(start, fields)
            self._layouts[key] = found
        return found

    def regular_layout(self, file: str, start: str, fields: frozenset[str]) -> Layout | None:
        """:meth:`layout`, or ``None`` where ``start`` is not regular (it has none)."""
        try:
            return self.layout(file, start, fields)
        except NotRegularError:
            return None

    def compiled_file(self, file: str) -> CompiledFile:
        """``<file>.lark`` as the compiler holds it: loaded once, with Lark."""
        loaded = self._files.get(file)
        if loaded is None:
            path = self.directory / f"{file}.lark"
            with self._loading:
                loaded = self._files.get(file)
                if loaded is None:
                    made: CompiledFile = self._compiler(path).CompiledFile(path)
                    loaded = self._files[file] = made
        return loaded

    @staticmethod
    def _compiler(path: Path) -> ModuleType:
        """The compiler (:mod:`rfc1738.compile.pipeline`), for what ``path`` needs compiled.

        :class:`~rfc1738.GrammarError` where there is none: a standalone
        module compiles nothing.
        """
        try:
            # Lark: the one way from run time to the compiler: an edited grammar without tables.
            from ..compile import pipeline
        except ModuleNotFoundError:
            raise GrammarError(
                "a standalone module compiles nothing: this was not compiled when it was "
                "generated (generate the module again)",
                file=str(path),
            ) from None
        return pipeline

    def _add(self, more: Tables) -> None:
        with self._changing:
            tables = self.tables
            self._tables = Tables(
                tables.key, {**tables.schemes, **more.schemes}, {**tables.chars, **more.chars}
            )
            if self._caching:
                write_cached(self._tables)
