"""What keeps a grammar directory from being a clean transcription, one check each.

:func:`lint` reports names used but defined nowhere, definitions nothing
uses, a missing ``// BNF:`` line, recursion (which keeps the fast parser off
a scheme), and whatever Lark's loader itself refuses.
"""

from __future__ import annotations

import difflib
import os
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .adapter import LoadFailed, check_loads
from .blocks import DEVIATION_PREFIX
from .files import GENERIC, GrammarDirectory, scheme_files
from .index import Definition, GrammarIndex
from .inspection import RuleInfo, bnf_mentions, grammar_directory, rule_infos
from .load_errors import grammar_error, reference_line

__all__ = ["LintProblem", "Severity", "lint", "run_checks"]

_ORDER = {"error": 0, "warning": 1, "info": 2}


#: How serious a problem is: ``error`` (the grammar does not load or a name is
#: missing), ``warning`` (it loads, but something is off), ``info``.
Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True, slots=True)
class LintProblem:
    """One problem :func:`lint` found: what, where, how serious."""

    code: str
    file: Path
    #: 1-based; 0 when Lark gave no position and none could be found.
    line: int
    #: The rule or terminal it is about, if any.
    rule: str | None
    message: str
    severity: Severity

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else str(self.file)
        return f"{where}: {self.severity}: {self.message} [{self.code}]"


def lint(grammar: GrammarDirectory | str | os.PathLike[str] | None = None) -> list[LintProblem]:
    """The problems of a grammar directory, by file and line.

    Codes (severity): ``load-error`` (error) what Lark's loader refuses,
    with its file and line; ``undefined`` (error) a name defined nowhere;
    ``no-start`` (error) a scheme file without its start rule
    ``<scheme>url``; ``recursion`` (warning) a rule that refers back to
    itself, naming the cycle and the schemes the fast parser therefore
    cannot compile; ``unused`` (warning) a definition nothing uses and that
    is no start rule; ``duplicate`` (warning) a name two files define;
    ``missing-bnf`` (warning; info where a ``// DEVIATION:`` comment says
    the definition was added on purpose) no ``// BNF:`` line above it;
    ``unused-in-rfc`` (info) a definition nothing uses because the source
    BNF itself never uses it (``national``, ``punctuation``).

    >>> [(p.code, p.rule, p.severity) for p in lint()]
    [('unused-in-rfc', 'NATIONAL', 'info'), ('unused-in-rfc', 'PUNCTUATION', 'info')]
    """
    return run_checks(grammar_directory(grammar))


def run_checks(directory: Path) -> list[LintProblem]:
    """Every problem of the grammar directory, by file, line and code."""
    index = GrammarIndex(directory)
    problems = [
        *_load_errors(index),
        *_undefined(index),
        *_missing_start(index),
        *_duplicates(index),
        *_recursion(index),
        *_missing_bnf(index),
    ]
    if not any(f.syntax_error for f in index.files):
        # What a file that does not parse uses is unknown: no unused check then.
        problems += _unused(index)
    seen: set[tuple[str, Path, int]] = set()
    unique: list[LintProblem] = []
    for problem in problems:
        # Lark reports one broken definition from every file that imports it.
        key = (problem.code, problem.file, problem.line)
        if problem.code != "load-error" or problem.line == 0 or key not in seen:
            seen.add(key)
            unique.append(problem)
    unique = list(dict.fromkeys(unique))
    return sorted(unique, key=lambda p: (str(p.file), p.line, _ORDER[p.severity], p.code))


def _problem(
    code: str, file: Path, line: int, rule: str | None, message: str, severity: str
) -> LintProblem:
    return LintProblem(code, file, line, rule, message, severity)  # type: ignore[arg-type]


def _load_errors(index: GrammarIndex) -> Iterator[LintProblem]:
    """What Lark's loader refuses, at the file and line it is about."""
    starts = {entry.path: entry.start for entry in scheme_files(index.directory).values()}
    for found in index.files:
        if found.syntax_error is not None:
            error = grammar_error(found.syntax_error, found.path)
            yield _load_error(found.path, error.line, _message_of(error))
            continue
        if any(f.syntax_error for f in index.closure(found.path)):
            continue  # reported at the file that does not parse
        start = starts.get(found.path)
        try:
            check_loads(found.path, start if start and found.defined(start) else None)
        except LoadFailed as failed:
            if failed.undefined is not None:
                continue  # the undefined check says where
            error = grammar_error(failed, found.path)
            where = Path(error.file) if error.file else found.path
            yield _load_error(where, error.line, _message_of(error))


def _message_of(error: Exception) -> str:
    text = str(error)
    file = getattr(error, "file", None)
    line = getattr(error, "line", None)
    where = ":".join(str(p) for p in (file, line) if p is not None)
    return text[len(where) + 2 :] if where and text.startswith(where + ": ") else text


def _load_error(file: Path, line: int | None, message: str) -> LintProblem:
    return _problem("load-error", file, line or 0, None, f"Lark cannot load it: {message}", "error")


def _undefined(index: GrammarIndex) -> Iterator[LintProblem]:
    elsewhere: dict[str, Definition] = {}
    for definition in index.definitions():
        elsewhere.setdefault(definition.name, definition)
    for found in index.files:
        if found.syntax_error is not None:
            continue
        for definition in found.definitions:
            for symbol, target in index.references(definition):
                if target is not None:
                    continue
                other = elsewhere.get(symbol)
                if other is not None:
                    why = (
                        f"which {found.path.name} neither defines nor imports "
                        f"({other.file.name} defines it: %import .{other.file.stem} ({symbol}))"
                    )
                else:
                    close = difflib.get_close_matches(symbol, sorted(elsewhere), n=2)
                    hint = f" (did you mean {', '.join(close)}?)" if close else ""
                    why = f"which is defined nowhere{hint}"
                yield _problem(
                    "undefined",
                    found.path,
                    reference_line(definition, symbol),
                    definition.name,
                    f"{definition.name} uses {symbol}, {why}",
                    "error",
                )
        for local, imported in found.imports.items():
            module = imported.module
            if module is not None and module.is_file() and index.resolve(found, local) is None:
                yield _problem(
                    "undefined",
                    found.path,
                    imported.line,
                    local,
                    f"{imported.name} is imported from {module.name}, which does not define it",
                    "error",
                )


def _missing_start(index: GrammarIndex) -> Iterator[LintProblem]:
    entries = scheme_files(index.directory)
    if GENERIC not in entries:
        yield _problem(
            "no-start",
            index.directory / f"{GENERIC}.lark",
            0,
            "genericurl",
            f"the directory has no {GENERIC}.lark: URLs of schemes without a file of "
            "their own cannot be parsed",
            "error",
        )
    for entry in entries.values():
        found = index.file(entry.path)
        if found.syntax_error is None and index.resolve(found, entry.start) is None:
            scheme = f"{entry.scheme}:" if entry.scheme != GENERIC else "generic"
            yield _problem(
                "no-start",
                entry.path,
                1,
                entry.start,
                f"{entry.path.name} defines no rule {entry.start}, the start rule its "
                f"{scheme} URLs are parsed with",
                "error",
            )


def _duplicates(index: GrammarIndex) -> Iterator[LintProblem]:
    first: dict[str, Definition] = {}
    for definition in index.definitions():
        earlier = first.setdefault(definition.name, definition)
        if definition.name in index.file(definition.file).imports:
            continue  # imported and defined again: Lark's loader refuses it (load-error)
        if earlier is not definition and earlier.file != definition.file:
            yield _problem(
                "duplicate",
                definition.file,
                definition.line,
                definition.name,
                f"{definition.name} is also defined in {earlier.file.name}:{earlier.line}; "
                "define it once and import it",
                "warning",
            )


def _graph(index: GrammarIndex) -> dict[Definition, list[Definition]]:
    return {d: index.uses(d) for d in index.definitions() if d.kind == "rule"}


def _cycle(graph: dict[Definition, list[Definition]], start: Definition) -> list[str] | None:
    """The shortest way from ``start`` back to itself, as names."""
    parents: dict[Definition, Definition] = {}
    queue = deque([start])
    while queue:
        current = queue.popleft()
        for target in graph.get(current, ()):
            if target is start:
                path = [start.name]
                while current is not start:
                    path.append(current.name)
                    current = parents[current]
                return [start.name, *reversed(path[1:]), start.name]
            if target not in parents and target in graph:
                parents[target] = current
                queue.append(target)
    return None


def _reachable(graph: dict[Definition, list[Definition]], start: Definition) -> set[Definition]:
    seen = {start}
    pending = [start]
    while pending:
        for target in graph.get(pending.pop(), ()):
            if target not in seen:
                seen.add(target)
                pending.append(target)
    return seen


def _recursion(index: GrammarIndex) -> Iterator[LintProblem]:
    graph = _graph(index)
    starts: list[tuple[str, set[Definition]]] = []
    for entry in scheme_files(index.directory).values():
        target = index.resolve(index.file(entry.path), entry.start)
        if isinstance(target, Definition):
            starts.append((entry.scheme, _reachable(graph, target)))
    for definition in graph:
        cycle = _cycle(graph, definition)
        if cycle is None:
            continue
        schemes = sorted(scheme for scheme, reached in starts if definition in reached)
        if schemes:
            effect = (
                f"the fast parser cannot compile {', '.join(schemes)}; the reference "
                f"parser still serves {'it' if len(schemes) == 1 else 'them'}"
            )
        else:
            effect = "no start rule reaches it"
        yield _problem(
            "recursion",
            definition.file,
            definition.line,
            definition.name,
            f"{definition.name} refers back to itself ({' -> '.join(cycle)}), so it is "
            f"not regular: {effect}",
            "warning",
        )


def _missing_bnf(index: GrammarIndex) -> Iterator[LintProblem]:
    for definition in index.definitions():
        if definition.block is None or definition.block.bnf:
            continue
        marked = any(c.startswith(DEVIATION_PREFIX) for c in definition.block.comments)
        yield _problem(
            "missing-bnf",
            definition.file,
            definition.line,
            definition.name,
            f"{definition.name} has no // BNF: line above it"
            + ("; a // DEVIATION: comment says it was added on purpose" if marked else ""),
            "info" if marked else "warning",
        )


def _unused(index: GrammarIndex) -> Iterator[LintProblem]:
    used: set[Definition] = set()
    for definition in index.definitions():
        used.update(d for d in index.uses(definition) if d is not definition)
    for found in index.files:
        for name in found.ignored:
            target = index.resolve(found, name)
            if isinstance(target, Definition):
                used.add(target)
    starts = {entry.start for entry in scheme_files(index.directory).values()} | {"url"}
    infos: list[RuleInfo] = rule_infos(index)
    mentions = bnf_mentions(infos)
    for definition, info in zip(index.definitions(), infos, strict=True):
        if definition in used or definition.name in starts:
            continue
        if info.rfc_name is not None and mentions[info.rfc_name] == 0:
            yield _problem(
                "unused-in-rfc",
                definition.file,
                definition.line,
                definition.name,
                f"nothing uses {definition.name}, as in the source BNF: no production "
                f"there refers to {info.rfc_name}",
                "info",
            )
        else:
            yield _problem(
                "unused",
                definition.file,
                definition.line,
                definition.name,
                f"nothing uses {definition.name}, and it is no start rule",
                "warning",
            )
