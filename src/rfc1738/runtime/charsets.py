"""What the objects escape, normalize and write with, read from one grammar directory.

Which characters stand for themselves in a field (``hsegment``, ``search``,
``user``, ...) and how a start rule lays its fields out are facts of the
grammar files. :class:`GrammarFacts` asks the grammar compiler for them, once
per set and per :class:`~rfc1738.runtime.dispatch.ParserSet`: an object parsed
by an edited grammar escapes by that grammar, never by the shipped one. A
directory's compiled tables answer first (:class:`~rfc1738.runtime.store.TableStore`:
the wheel's for the shipped grammar, the disk cache's for an edited one, a
standalone module's own), so the compiler (and Lark) is asked only for what
they do not hold.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .layout import Layout

if TYPE_CHECKING:
    from ..compile.pipeline import CompiledFile
    from .store import TableStore

__all__ = ["GrammarFacts"]


class GrammarFacts:
    """The character sets and start-rule layouts of one grammar directory, read on first use.

    >>> from rfc1738.bnf.files import shipped_grammar_dir
    >>> facts = GrammarFacts(shipped_grammar_dir())
    >>> "/" in facts.rule_chars("http", "hsegment"), "=" in facts.rule_chars("http", "hsegment")
    (False, True)
    >>> sorted(facts.terminal_chars("common", "SAFE"))
    ['$', '+', '-', '.', '_']
    """

    def __init__(self, directory: Path, store: TableStore | None = None) -> None:
        self.directory = directory
        self._store = store
        self._files: dict[str, CompiledFile] = {}
        self._rules: dict[tuple[str, str], frozenset[str]] = {}
        self._terminals: dict[tuple[str, str], frozenset[str]] = {}
        self._layouts: dict[tuple[str, str, frozenset[str]], Layout] = {}
        #: Layouts as the URL layer looks them up for an object, by (file, class):
        #: kept here so that they live as long as the grammar, and no longer.
        self.by_class: dict[tuple[str, Any], Layout] = {}
        #: The same by (scheme as written, class), which finds it without
        #: working out the file (a bounded number, as spellings
        #: come from the input).
        self.by_spelling: dict[tuple[str, Any], Layout] = {}

    def rule_chars(self, file: str, rule: str) -> frozenset[str]:
        """The characters that stand for themselves in ``rule`` of ``<file>.lark``."""
        found = self._rules.get((file, rule))
        if found is None:
            found = self._stored(file, "rule", rule)
            if found is None:
                found = self._file(file).rule_chars(rule)
            self._rules[(file, rule)] = found
        return found

    def terminal_chars(self, file: str, terminal: str) -> frozenset[str]:
        """The single characters terminal ``terminal`` of ``<file>.lark`` matches."""
        found = self._terminals.get((file, terminal))
        if found is None:
            found = self._stored(file, "terminal", terminal)
            if found is None:
                found = self._file(file).terminal_chars(terminal)
            self._terminals[(file, terminal)] = found
        return found

    def layout(self, file: str, start: str, fields: frozenset[str]) -> Layout:
        """How ``start`` of ``<file>.lark`` lays out the productions ``fields``."""
        key = (file, start, fields)
        found = self._layouts.get(key)
        if found is None:
            table = None if self._store is None else self._store.tables.schemes.get(file)
            if (
                table is not None
                and table.layout is not None
                and table.start == start
                and set(table.layout_fields) == fields
            ):
                found = table.layout
            else:
                found = self._file(file).layout(start, fields)
            self._layouts[key] = found
        return found

    def _stored(self, file: str, kind: str, name: str) -> frozenset[str] | None:
        return None if self._store is None else self._store.char_set(file, kind, name)

    def _file(self, name: str) -> CompiledFile:
        loaded = self._files.get(name)
        if loaded is None:
            # The compiler reads grammar files with Lark: imported on first use.
            from ..compile.pipeline import CompiledFile

            loaded = self._files[name] = CompiledFile(self.directory / f"{name}.lark")
        return loaded
