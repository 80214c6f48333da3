"""Every definition of a grammar directory, and what each one refers to.

Each file is read twice: by Lark's own grammar parser (the first step of
``lark.load_grammar``), which says what a definition refers to and what an
``%import`` brings in, exactly as Lark will read them; and by
:mod:`rfc1738.bnf.layout`, which says where the definition is and what
comments stand above it. A name a file imports is followed to the file that
defines it, the way Lark's loader follows it, so a production is one entry
in the file that defines it, however many files import it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from lark import Token, Tree
from lark.exceptions import LarkError
from lark.grammar import Symbol

# Lark's grammar parser and import reader, internal to Lark (hence the pinned
# major version): the same functions its loader runs on each file.
from lark.load_grammar import GrammarBuilder, _parse_grammar

from ..errors import GrammarError
from .layout import Block, read_layout

__all__ = ["EXTERNAL", "Definition", "FileIndex", "GrammarIndex", "Imported", "Kind", "Ref"]

#: A definition is a rule (lowercase) or a terminal (UPPERCASE).
Kind = Literal["rule", "terminal"]

#: Where a name resolves when it comes from Lark's own library (``%import common.WORD``).
EXTERNAL: Literal["external"] = "external"

_EXTENSION = ".lark"


@dataclass(frozen=True, slots=True)
class Definition:
    """One rule or terminal as its file defines it."""

    name: str
    kind: Kind
    file: Path
    line: int
    #: Its text and comments; ``None`` if the layout reader did not find it.
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
    #: from the layout alone, with no symbols).
    syntax_error: Exception | None = None

    @classmethod
    def read(cls, path: Path) -> FileIndex:
        text = path.read_text(encoding="utf-8")
        index = cls(path, text)
        blocks: dict[str, list[Block]] = {}
        for block in read_layout(text):
            blocks.setdefault(block.name, []).append(block)
        try:
            statements: Tree[Token] = _parse_grammar(text, str(path))  # type: ignore[no-untyped-call]
        except (LarkError, GrammarError) as exc:
            index.syntax_error = exc
            for block in (b for found in blocks.values() for b in found):
                kind: Kind = "terminal" if block.name.isupper() else "rule"
                index.definitions.append(Definition(block.name, kind, path, block.line, block, ()))
            index.definitions.sort(key=lambda d: d.line)
            return index
        for statement in statements.children:
            if isinstance(statement, Tree):
                index._statement(statement, blocks)
        return index

    def _statement(self, statement: Tree[Token], blocks: dict[str, list[Block]]) -> None:
        kind = statement.data
        if kind in ("override", "extend"):
            (statement,) = statement.children  # type: ignore[assignment]
            kind = statement.data
        if kind in ("rule", "term"):
            token = next(c for c in statement.children if isinstance(c, Token))
            name, line = str(token), token.line or 0
            block = next((b for b in blocks.get(name, ()) if b.line == line), None)
            if block is None and blocks.get(name):
                block = blocks[name][0]
            expansions = statement.children[-1]
            assert isinstance(expansions, Tree)
            # A template's parameters are no references (rule{x}: ... x ...).
            params = {
                str(t)
                for child in statement.children
                if isinstance(child, Tree) and child.data == "template_params"
                for t in child.children
            }
            self.definitions.append(
                Definition(
                    name,
                    "rule" if kind == "rule" else "terminal",
                    self.path,
                    block.line if block else line,
                    block,
                    tuple(s for s in _symbols(expansions) if s not in params),
                )
            )
        elif kind == "declare":
            for symbol in statement.children:
                assert isinstance(symbol, Symbol)
                name = str(symbol.name)
                kind_of: Kind = "terminal" if symbol.is_term else "rule"
                self.definitions.append(Definition(name, kind_of, self.path, 0, None, ()))
        elif kind == "ignore":
            self.ignored.extend(_symbols(statement))
        elif kind == "import":
            line = _first_line(statement)
            try:
                dotted, base, aliases = GrammarBuilder()._unpack_import(  # type: ignore[no-untyped-call]
                    statement, str(self.path)
                )
            except LarkError as exc:  # "Nothing was imported from grammar ..."
                self.syntax_error = self.syntax_error or exc
                return
            relative = Path(os.path.join(*dotted) + _EXTENSION)
            module = Path(base) / relative if base is not None else None
            self.modules.append((module, line))
            for original, local in aliases.items():
                self.imports[str(local)] = Imported(module, str(original), line)

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
        self.paths = sorted(directory.glob("*" + _EXTENSION))
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


def _symbols(tree: Tree[Token]) -> Iterator[str]:
    """The names a definition's expansion refers to, in the order written."""
    for child in tree.children:
        if isinstance(child, Symbol):
            yield str(child.name)
        elif isinstance(child, Tree):
            yield from _symbols(child)


def _first_line(tree: Tree[Token]) -> int:
    for token in tree.scan_values(lambda v: isinstance(v, Token)):
        if token.line:
            return int(token.line)
    return 0
