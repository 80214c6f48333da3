"""Lark's grammar-loading errors as :class:`~rfc1738.GrammarError`, with file and line.

Lark reports a broken grammar in several forms: a syntax error carries a line
(as an attribute, or inside its message) but not always the file, since the
file may be one the loaded file imports; a collision or an undefined name is
a message naming the rule, with no position at all. This module finds the
file and line each of them is about, by reading the loaded file and the files
it imports (:mod:`rfc1738.bnf.index`).
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

from lark.exceptions import UnexpectedToken
from lark.load_grammar import TERMINALS

from ..errors import GrammarError
from .index import Definition, FileIndex, GrammarIndex
from .names import base_name

__all__ = [
    "grammar_error_from_lark",
    "lark_error_line",
    "lark_error_message",
    "reference_line",
    "syntax_error_line",
    "unmangled",
]


def grammar_error_from_lark(exc: BaseException, file: str | os.PathLike[str]) -> GrammarError:
    """The :class:`GrammarError` for what Lark raised while loading ``file``.

    ``exc`` is a ``lark.exceptions.LarkError`` (or the ``OSError`` Lark lets
    through for an ``%import`` of a file that is not there); the error names
    the file and line at fault, which may be a file ``file`` imports.

    >>> import tempfile
    >>> from lark.load_grammar import load_grammar
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = Path(d) / "x.lark"
    ...     _ = path.write_text('// a rule\\nxurl: "x:" host\\n')
    ...     try:
    ...         load_grammar(path.read_text(), str(path), [d], False)
    ...     except Exception as exc:
    ...         error = grammar_error_from_lark(exc, path)
    >>> error.line, error.file.endswith("x.lark"), str(error).partition(": ")[2]
    (2, True, "Rule 'host' used but not defined (in rule xurl)")
    """
    path = Path(file)
    message = lark_error_message(exc)
    try:
        where = _locate(exc, path)
    except (OSError, UnicodeDecodeError):  # pragma: no cover - unreadable files
        where = None
    if where is None:
        return GrammarError(message, file=str(path))
    return GrammarError(message, file=str(where[0]), line=where[1])


def lark_error_message(exc: BaseException) -> str:
    """Lark's message, without the picture of the grammar text it may append.

    Names from Lark's own grammar of grammars (``_RBRA``, ``_NL``) become
    what they stand for, and names Lark gave an imported rule
    (``http__hpath``) lose their namespace.
    """
    if isinstance(exc, FileNotFoundError) and exc.filename:
        return f"no grammar file {exc.filename} to import"
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        found = _describe(token.type) if token.type in _DESCRIBED else repr(str(token))
        expected = sorted(_describe(name) for name in exc.expected)
        # At the end of a line, Lark's column is that of a later line (see syntax_error_line).
        end = token.type in _END_OF_LINE
        column = f" at column {exc.column}" if exc.column and exc.column > 0 and not end else ""
        return f"unexpected {found}{column}; expected {' or '.join(expected)}"
    text = str(exc).strip().split("\n\n")[0].strip().removesuffix(":")
    return unmangled(_without_line(text))


def _without_line(text: str) -> str:
    """Lark's "..., at line 3 column 5" as "... at column 5": the line goes with the file.

    >>> _without_line("Expecting a value, at line 13 column 21")
    'Expecting a value at column 21'
    >>> _without_line("Unexpected input at line 2 column 4 in /g/x.lark")
    'Unexpected input at column 4'
    """
    head, found, tail = text.partition(" at line ")
    if not found:
        return text
    words = tail.split()
    column = words[2] if len(words) > 2 and words[1] == "column" else None
    head = head.removesuffix(",")
    return f"{head} at column {column}" if column else head


#: How a syntax error names the tokens of Lark's grammar of grammars.
_DESCRIBED = {
    "RULE": "rule name",
    "TERMINAL": "terminal name",
    "STRING": "string literal",
    "REGEXP": "regular expression",
    "OP": "operator",
    "NUMBER": "number",
    "_NL": "end of line",
    "_NL_OR": '"|" on the next line',
    "$END": "end of file",
}


def _describe(name: str) -> str:
    """A token type of Lark's grammar parser in words: ``_RBRA`` → ``"]"``."""
    if name in _DESCRIBED:
        return _DESCRIBED[name]
    pattern = TERMINALS.get(name)
    if isinstance(pattern, str):
        literal = pattern.split("(?")[0].replace("\\", "")
        if literal:
            return f'"{literal}"'
    return name


def unmangled(message: str) -> str:
    """``message`` with each namespaced name (``http__hpath``) as its base name.

    >>> unmangled("Rule 'http__hsegmnt' used but not defined (in rule http__hpath)")
    "Rule 'hsegmnt' used but not defined (in rule hpath)"
    """
    out: list[str] = []
    word = ""
    for char in message + " ":
        if char.isascii() and (char.isalnum() or char == "_"):
            word += char
            continue
        out.append(base_name(word) if "__" in word else word)
        out.append(char)
        word = ""
    return "".join(out)[:-1]


def lark_error_line(exc: BaseException) -> int | None:
    """The line a Lark syntax error gives, as an attribute or in its message."""
    line = getattr(exc, "line", None)
    if isinstance(line, int) and line > 0:
        return line
    words = str(exc).replace(",", " ").split()
    for word, number in itertools.pairwise(words):
        if word == "line" and number.isdigit():
            return int(number)
    return None


def syntax_error_line(exc: BaseException, text: str) -> int | None:
    """The line of a syntax error in a grammar file's ``text``.

    Lark reports a statement that ends too early (an unclosed ``[``) at the
    end of line token after it, which comes after any comment lines that
    follow: the line meant is the last one before them that holds code.
    """
    line = lark_error_line(exc)
    if line is None or not _at_end_of_line(exc):
        return line
    lines = text.splitlines()
    while line > 1 and (line > len(lines) or _no_code(lines[line - 1])):
        line -= 1
    return line


def _at_end_of_line(exc: BaseException) -> bool:
    token = getattr(exc, "token", None)
    return getattr(token, "type", None) in _END_OF_LINE


def _no_code(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("//")


_END_OF_LINE = frozenset({"_NL", "_NL_OR", "$END"})


def _locate(exc: BaseException, path: Path) -> tuple[Path, int] | None:
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
    if isinstance(exc, FileNotFoundError):
        for found in files:
            for module, line in found.modules:
                if module is not None and not module.is_file():
                    return found.path, line
        return None
    return _locate_names(str(exc), files, index)


def _locate_names(
    message: str, files: list[FileIndex], index: GrammarIndex
) -> tuple[Path, int] | None:
    """Where the definitions a semantic error names are."""
    names = _quoted(message)
    if "used but not defined" in message:
        # "Rule 'b' used but not defined (in rule a)"; "Terminal used but not defined: B"
        missing = names[0] if names else message.rpartition(":")[2].strip()
        return _user_of(missing, files, index)
    if "defined more than once" in message and names:
        return _second_definition(names[0], files)
    if message.startswith("Cannot import") and len(names) > 1:
        # "Cannot import 'x' from 'common.lark': Symbol already defined."
        module = names[1]
        for found in files:
            for source, line in found.modules:
                if source is not None and source.name == Path(module).name:
                    return found.path, line
    # "Recursion in terminal 'A' ...", "Rules aren't allowed inside terminals
    # (NonTerminal('b') in A)", "Terminals cannot be empty (A)": the named definition.
    candidates = [*names, *_words_after(message, " in "), *_in_parentheses(message)]
    for name in candidates:
        for found in files:
            definition = found.defined(base_name(name))
            if definition is not None and definition.line:
                return found.path, definition.line
    # "Empty terminals are not allowed ("")": the definition that writes it.
    for text in _in_parentheses(message):
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


def _quoted(message: str) -> list[str]:
    parts = message.split("'")
    return [parts[i] for i in range(1, len(parts) - 1, 2)]


def _words_after(message: str, marker: str) -> list[str]:
    if marker not in message:
        return []
    return [message.rpartition(marker)[2].strip(" ()")]


def _in_parentheses(message: str) -> list[str]:
    if "(" not in message:
        return []
    return [message.rpartition("(")[2].strip(" ()")]
