"""Lark's grammar-loading errors as :class:`~rfc1738.GrammarError`, with file and line.

Lark reports a broken grammar in several forms: a syntax error carries a line
but not always the file, since the file may be one the loaded file imports; a
collision or an undefined name is a message naming the rule, with no position
at all. :mod:`rfc1738.bnf.adapter` says what each message names
(:class:`~rfc1738.bnf.adapter.LoadFailed`); this module finds the file and
line it is about, by reading the loaded file and the files it imports
(:mod:`rfc1738.bnf.index`).
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import GrammarError
from .adapter import LoadFailed, load_file
from .index import Definition, FileIndex, GrammarIndex
from .names import base_name
from .tree import GrammarTree

__all__ = [
    "grammar_error",
    "load_tree",
    "reference_line",
    "syntax_error_line",
]


def load_tree(path: Path) -> GrammarTree:
    """The definitions of grammar file ``path`` (imports resolved), or :class:`GrammarError`.

    >>> from rfc1738.bnf.files import shipped_grammar_dir
    >>> sorted(load_tree(shipped_grammar_dir() / "mailto.lark").rules)
    ['encoded822addr', 'mailtourl']
    """
    try:
        return load_file(path)
    except LoadFailed as failed:
        raise grammar_error(failed, path) from failed


def grammar_error(failed: LoadFailed, file: str | os.PathLike[str]) -> GrammarError:
    """The :class:`GrammarError` for what Lark refused while loading ``file``.

    The error names the file and line at fault, which may be a file ``file``
    imports.

    >>> import tempfile
    >>> from rfc1738.bnf.adapter import LoadFailed, load_file
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = Path(d) / "x.lark"
    ...     _ = path.write_text('// a rule\\nxurl: "x:" [ host\\n// more\\n')
    ...     try:
    ...         load_file(path)
    ...     except LoadFailed as failed:
    ...         error = grammar_error(failed, path)
    >>> error.line, error.file.endswith("x.lark"), str(error).partition(": ")[2]
    (2, True, 'unexpected end of line; expected "]"')
    """
    path = Path(file)
    try:
        where = _locate(failed, path)
    except (OSError, UnicodeDecodeError):  # pragma: no cover - unreadable files
        where = None
    if where is None:
        return GrammarError(failed.message, file=str(path))
    return GrammarError(failed.message, file=str(where[0]), line=where[1])


def syntax_error_line(failed: LoadFailed, text: str) -> int | None:
    """The line of a syntax error in a grammar file's ``text``.

    Lark reports a statement that ends too early (an unclosed ``[``) at the
    end of line token after it, which comes after any comment lines that
    follow: the line meant is the last one before them that holds code.
    """
    line = failed.line
    if line is None or not failed.at_end_of_line:
        return line
    lines = text.splitlines()
    while line > 1 and (line > len(lines) or _no_code(lines[line - 1])):
        line -= 1
    return line


def _no_code(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("//")


def _locate(failed: LoadFailed, path: Path) -> tuple[Path, int] | None:
    index = GrammarIndex(path.parent)
    if not path.is_file():
        return None
    files = index.closure(path)
    # A syntax error: the first file, in the order Lark loads them, that does
    # not parse. Lark parses a file before the files it imports.
    for found in files:
        if found.syntax_error is not None:
            line = syntax_error_line(found.syntax_error, found.text)
            return (found.path, line) if line else None
    if failed.missing_file:
        for found in files:
            for module, line in found.modules:
                if module is not None and not module.is_file():
                    return found.path, line
        return None
    return _locate_names(failed, files, index)


def _locate_names(
    failed: LoadFailed, files: list[FileIndex], index: GrammarIndex
) -> tuple[Path, int] | None:
    """Where the definitions a semantic error names are."""
    if failed.undefined is not None:
        return _user_of(failed.undefined, files, index)
    if failed.duplicate is not None:
        return _second_definition(failed.duplicate, files)
    if failed.import_module is not None:
        for found in files:
            for source, line in found.modules:
                if source is not None and source.name == Path(failed.import_module).name:
                    return found.path, line
    # The definition the message names.
    for name in failed.names:
        for found in files:
            definition = found.defined(base_name(name))
            if definition is not None and definition.line:
                return found.path, definition.line
    # "Empty terminals are not allowed ("")": the definition that writes it.
    for text in failed.fragments:
        for found in files:
            for definition in found.definitions:
                if text and definition.block is not None and text in definition.block.source:
                    return found.path, definition.line
    return None


def _user_of(missing: str, files: list[FileIndex], index: GrammarIndex) -> tuple[Path, int] | None:
    """The first definition that refers to ``missing`` and cannot resolve it."""
    for found in files:
        for definition in found.definitions:
            symbols = {base_name(s): s for s in definition.symbols}
            written = symbols.get(base_name(missing))
            if written is not None and index.resolve(found, written) is None:
                return found.path, reference_line(definition, written)
    for found in files:  # an %import of a name its module does not define
        imported = found.imports.get(missing)
        if imported is not None:
            return found.path, imported.line
    return None


def _second_definition(name: str, files: list[FileIndex]) -> tuple[Path, int] | None:
    name = base_name(name)
    for found in files:
        own = [d for d in found.definitions if d.name == name]
        if len(own) > 1:
            return found.path, own[1].line
        if own and name in found.imports:
            return found.path, own[0].line
    return None


def reference_line(definition: Definition, name: str) -> int:
    """The line of ``definition`` on which it names ``name`` (outside string literals)."""
    if definition.block is None:
        return definition.line
    for offset, line in enumerate(definition.block.source.splitlines()):
        if name in _identifiers(line):
            return definition.line + offset
    return definition.line


def _identifiers(line: str) -> list[str]:
    """The names on a line of a definition, skipping ``"..."`` literals and comments."""
    found: list[str] = []
    current = ""
    quoted = escaped = False
    for index, char in enumerate(line):
        if quoted:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                quoted = False
            continue
        if char == '"':
            quoted = True
        elif char == "/" and line[index : index + 2] == "//":
            break
        if char.isascii() and (char.isalnum() or char == "_"):
            current += char
            continue
        if current:
            found.append(current)
        current = ""
    if current:
        found.append(current)
    return found
