"""Where a grammar directory's compiled tables come from, without Lark when it can.

:class:`TableStore` answers a :class:`~rfc1738.runtime.dispatch.ParserSet`'s
questions (a scheme's expression, the rules its file defines, a character
set) from the first of:

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
4. the compiler (Lark), one scheme at a time on first use; what it compiles
   is added to the disk cache.

The wheel's tables are the package's own data, used unchecked once their key
matches; a standalone module reads its own with
:func:`~rfc1738.runtime.tables.read_checked`, as a cache file's are read.
"""

from __future__ import annotations

# _thread's RLock is threading's, without importing threading at start-up.
from _thread import RLock
from collections.abc import Callable, Collection
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..bnf.files import shipped_grammar_dir
from ..errors import GrammarError
from .cache import read_cached, write_cached
from .tables import SchemeTable, Tables, content_key, read_unchecked, runs_as_written

try:  # written into the wheel by hatch_build.py; absent in a checkout
    from ._tables import TABLES as _BUILT  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - the tests run the built wheel
    _BUILT = None  # type: ignore[assignment, unused-ignore]

if TYPE_CHECKING:
    from ..compile.pipeline import CompiledFile

__all__ = ["TableStore", "register_tables", "shipped_tables"]

_registered: dict[Path, Tables] = {}


def register_tables(directory: Path, tables: Tables) -> None:
    """Make ``tables`` the compiled form of ``directory`` (a standalone module's grammar)."""
    _registered[directory] = tables


@cache
def shipped_tables() -> Tables | None:
    """The wheel's tables, if they are those of the shipped grammar files as installed."""
    if _BUILT is None or _BUILT.get("key") != content_key(shipped_grammar_dir()):
        return None
    # The key holds the version and the format: this version's writer wrote the module.
    return read_unchecked(_BUILT)


class TableStore:
    """The compiled tables of one grammar directory, loaded on first use.

    ``compiled_file`` gives a scheme's Lark-loaded file, for what the tables
    do not hold yet (by default :meth:`_compiler`'s, a new one each time).
    """

    def __init__(
        self, directory: Path, compiled_file: Callable[[str], CompiledFile] | None = None
    ) -> None:
        self.directory = directory
        self._compiled_file = compiled_file or self._compiler
        self._tables: Tables | None = None
        #: Whether what is compiled here goes to the disk cache.
        self._caching = True
        # Held while the tables are loaded or added to, so that threads that
        # add at once lose none of each other's; nothing else is waited for
        # under it (a leaf lock: compiling happens outside it).
        self._changing = RLock()
        #: The schemes read from the disk cache whose expressions are not checked yet.
        self._unchecked: set[str] = set()

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

    def _compiler(self, scheme: str) -> CompiledFile:
        """``<scheme>.lark`` of the directory as the compiler loads it."""
        # Lark: the one way from run time to the compiler, for a grammar without tables.
        from ..compile.pipeline import CompiledFile

        return CompiledFile(self.directory / f"{scheme}.lark")

    def rules(self, scheme: str) -> tuple[str, ...] | None:
        """The rules ``scheme``'s file defines, if its table is known (else ``None``)."""
        table = self.tables.schemes.get(scheme)
        return None if table is None else table.rules

    def scheme(
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
        table = self.tables.schemes.get(scheme)
        if table is not None and scheme in self._unchecked:
            self._unchecked.discard(scheme)
            if not runs_as_written(table):
                table = None  # a cache file's table that does not hold together: a miss
        if (
            table is None
            or table.start != start
            or set(table.capture) != set(capture)
            or set(table.layout_fields) != set(layout_fields)
        ):
            table = self._compiled_file(scheme).scheme_table(start, capture, layout_fields)
            self._add(Tables(self.tables.key, {**self.tables.schemes, scheme: table}, {}))
        return table

    def char_set(self, file: str, kind: str, name: str) -> frozenset[str] | None:
        """The characters of a rule or terminal of ``<file>.lark`` (``None``: no such file or name).

        A file's sets of that kind are compiled together on first use.
        """
        found = self.tables.char_set(file, kind, name)
        if found is None and not any(k[:2] == (file, kind) for k in self.tables.chars):
            from ..compile.pipeline import CompiledFile  # Lark: only for a set not compiled yet

            try:
                compiled = CompiledFile(self.directory / f"{file}.lark").char_sets((kind,))
            except GrammarError:
                return None
            self._add(Tables(self.tables.key, {}, compiled))
            found = self.tables.char_set(file, kind, name)
        return found

    def _add(self, more: Tables) -> None:
        with self._changing:
            tables = self.tables
            self._tables = Tables(
                tables.key, {**tables.schemes, **more.schemes}, {**tables.chars, **more.chars}
            )
            if self._caching:
                write_cached(self._tables)
