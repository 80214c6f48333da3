"""Every definition of a grammar directory, and what each one refers to.

Each file is read twice: by Lark's own grammar parser (through
:func:`rfc1738.bnf.adapter.read_statements`), which says what a definition
refers to and what an ``%import`` brings in, exactly as Lark will read them;
and by
:mod:`rfc1738.bnf.blocks`, which says where the definition is and what
comments stand above it. A name a file imports is followed to the file that
defines it, the way Lark's loader follows it, so a production is one entry
in the file that defines it, however many files import it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

# Lark's grammar parser, through the adapter: this module needs Lark when imported.
from .adapter import (
    LoadFailed,
    Written,
    WrittenDeclare,
    WrittenDefinition,
    WrittenIgnore,
    read_statements,
)
from .blocks import Block, read_blocks

__all__ = ["EXTERNAL", "Definition", "FileIndex", "GrammarIndex", "Imported", "Kind", "Ref"]

#: A definition is a rule (lowercase) or a terminal (UPPERCASE).
Kind = Literal["rule", "terminal"]

#: Where a name resolves when it comes from Lark's own library (``%import common.WORD``).
EXTERNAL: Literal["external"] = "external"


@dataclass(frozen=True, slots=True)
class Definition:
    """One rule or terminal as its file defines it."""

    name: str
    kind: Kind
    file: Path
    line: int
    #: Its text and comments; ``None`` if the block reader did not find it.
    block: Block | None
    #: The names its definition refers to, as written in its file, in order.
    symbols: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Imported:
    """A name one ``%import`` statement brings into a file."""

    #: The file it comes from; ``None`` for Lark's own library.
    module: Path | None
    #: Its name in that file (before any ``-> alias``).
    name: str
    line: int


@dataclass
class FileIndex:
    """One grammar file: its definitions and imports, as Lark reads them."""

    path: Path
    text: str
    definitions: list[Definition] = field(default_factory=list)
    #: Local name → where it is imported from.
    imports: dict[str, Imported] = field(default_factory=dict)
    #: The modules it imports, in the order Lark loads them.
    modules: list[tuple[Path | None, int]] = field(default_factory=list)
    #: Terminals named by ``%ignore`` (used by the file itself).
    ignored: list[str] = field(default_factory=list)
    #: Lark's error if the file does not parse (its definitions then come
    #: from the blocks alone, with no symbols).
    syntax_error: LoadFailed | None = None

    @classmethod
    def read(cls, path: Path) -> FileIndex:
        text = path.read_text(encoding="utf-8")
        index = cls(path, text)
        blocks: dict[str, list[Block]] = {}
        for block in read_blocks(text):
            blocks.setdefault(block.name, []).append(block)
        try:
            statements = read_statements(text, path)
        except LoadFailed as exc:
            index.syntax_error = exc
            for block in (b for found in blocks.values() for b in found):
                kind: Kind = "terminal" if block.name.isupper() else "rule"
                index.definitions.append(Definition(block.name, kind, path, block.line, block, ()))
            index.definitions.sort(key=lambda d: d.line)
            return index
        for statement in statements:
            index._statement(statement, blocks)
        return index

    def _statement(self, statement: Written, blocks: dict[str, list[Block]]) -> None:
        if isinstance(statement, WrittenDefinition):
            name, line = statement.name, statement.line
            block = next((b for b in blocks.get(name, ()) if b.line == line), None)
            if block is None and blocks.get(name):
                block = blocks[name][0]
            kind: Kind = "terminal" if statement.terminal else "rule"
            line = block.line if block else line
            self.definitions.append(
                Definition(name, kind, self.path, line, block, statement.symbols)
            )
        elif isinstance(statement, WrittenDeclare):
            kind = "terminal" if statement.terminal else "rule"
            self.definitions.append(Definition(statement.name, kind, self.path, 0, None, ()))
        elif isinstance(statement, WrittenIgnore):
            self.ignored.extend(statement.symbols)
        else:
            if statement.error is not None:
                self.syntax_error = self.syntax_error or statement.error
                return
            self.modules.append((statement.module, statement.line))
            for original, local in statement.names:
                self.imports[local] = Imported(statement.module, original, statement.line)

    def defined(self, name: str) -> Definition | None:
        """This file's own definition of ``name`` (the first, if several)."""
        return next((d for d in self.definitions if d.name == name), None)


#: Where a name resolves: a definition, Lark's library, or nowhere (``None``).
Ref = Definition | Literal["external"] | None


class GrammarIndex:
    """The definitions of every ``.lark`` file of a directory, references resolved.

    >>> from rfc1738.bnf.files import shipped_grammar_dir
    >>> index = GrammarIndex(shipped_grammar_dir())
    >>> http = index.file(shipped_grammar_dir() / "http.lark")
    >>> index.resolve(http, "hostport").file.name
    'common.lark'
    >>> [u.name for u in index.uses(http.defined("httpurl"))]
    ['hostport', 'hpath', 'search']
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.paths = sorted(directory.glob("*.lark"))
        self._files: dict[Path, FileIndex] = {}

    @property
    def files(self) -> list[FileIndex]:
        """The directory's own files (not files outside it that they import)."""
        return [self.file(path) for path in self.paths]

    def file(self, path: Path) -> FileIndex:
        found = self._files.get(path)
        if found is None:
            found = self._files[path] = FileIndex.read(path)
        return found

    def definitions(self) -> Iterator[Definition]:
        for index in self.files:
            yield from index.definitions

    def resolve(self, index: FileIndex, name: str, seen: frozenset[Path] = frozenset()) -> Ref:
        """The definition ``name`` stands for in ``index``'s file, as Lark resolves it."""
        own = index.defined(name)
        if own is not None:
            return own
        imported = index.imports.get(name)
        if imported is None or index.path in seen:
            return None
        if imported.module is None:
            return EXTERNAL
        if not imported.module.is_file():
            return None
        return self.resolve(self.file(imported.module), imported.name, seen | {index.path})

    def references(self, definition: Definition) -> list[tuple[str, Ref]]:
        """Each name ``definition`` refers to, once, in order, with what it resolves to."""
        index = self.file(definition.file)
        found: dict[str, Ref] = {}
        for symbol in definition.symbols:
            if symbol not in found:
                found[symbol] = self.resolve(index, symbol)
        return list(found.items())

    def uses(self, definition: Definition) -> list[Definition]:
        """The definitions ``definition`` refers to, in order, each once (defined ones only)."""
        found: list[Definition] = []
        for _symbol, target in self.references(definition):
            if isinstance(target, Definition) and target not in found:
                found.append(target)
        return found

    def closure(self, path: Path) -> list[FileIndex]:
        """A file and every file it imports, transitively, in the order Lark loads them."""
        order: list[FileIndex] = []
        pending = [path]
        while pending:
            current = pending.pop()
            if any(f.path == current for f in order) or not current.is_file():
                continue
            index = self.file(current)
            order.append(index)
            pending.extend(reversed([m for m, _ in index.modules if m is not None]))
        return order
