"""``rfc1738 grammar list | show | deps | lint | diagram | export``: the grammar, read and drawn.

The facts come from :mod:`rfc1738.bnf.inspection` (rules, lint),
:mod:`rfc1738.bnf.diagrams` and :mod:`rfc1738.compile.export` (export); this
module only prints them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

from ..bnf.inspection import RuleInfo, rule, rules
from ..bnf.lint import lint as lint_problems
from ..compile.export import export_grammar
from ..errors import RFC1738Error
from ..urls import load
from .output import INVALID, OK, plural, write_json

__all__ = [
    "dependencies",
    "dependency_tree",
    "diagram",
    "export",
    "lint",
    "list_rules",
    "show_rule",
]

#: After a name whose subtree is already printed above, or that is its own ancestor.
SEEN, RECURSIVE = "(*)", "(recursive)"


def list_rules(args: argparse.Namespace) -> int:
    """Every rule and terminal: name, kind, file:line, BNF line."""
    found = rules(args.grammar)
    rows = [(r.name, r.kind, f"{r.file.name}:{r.line}", _one_line(r.bnf)) for r in found]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        print("  ".join([*cells, row[3]]).rstrip())
    return OK


def show_rule(args: argparse.Namespace) -> int:
    """One rule: where, BNF line(s), comments, Lark source, uses, used by."""
    print(rule(args.grammar, args.rule))
    return OK


def dependencies(args: argparse.Namespace) -> int:
    """What a rule uses (or, ``--reverse``, what uses it), transitively, as a tree."""
    found = rules(args.grammar)
    start = rule(args.grammar, args.rule)
    by_name: dict[str, RuleInfo] = {}
    for info in found:
        by_name.setdefault(info.name, info)
    edges = {name: info.used_by if args.reverse else info.uses for name, info in by_name.items()}
    lines = list(dependency_tree(start.name, edges))
    print("\n".join(lines))
    if any(line.endswith(SEEN) for line in lines):
        print(f"\n{SEEN}: its {'users' if args.reverse else 'uses'} are shown above")
    return OK


def dependency_tree(root: str, edges: Mapping[str, tuple[str, ...]]) -> Iterator[str]:
    """``root`` and what ``edges`` lead to from it, one indented line each.

    A name whose subtree was printed already is marked ``(*)``, a name that
    leads back to itself ``(recursive)``; neither is expanded again.

    >>> print("\\n".join(dependency_tree("a", {"a": ("b", "c"), "b": ("c",), "c": ("a",)})))
    a
      b
        c
          a (recursive)
      c (*)
    """
    shown: set[str] = set()

    def walk(name: str, depth: int, path: tuple[str, ...]) -> Iterator[str]:
        indent = "  " * depth
        if name in path:
            yield f"{indent}{name} {RECURSIVE}"
            return
        children = edges.get(name, ())
        if name in shown and children:
            yield f"{indent}{name} {SEEN}"
            return
        shown.add(name)
        yield indent + name + ("" if name in edges else " (undefined)")
        for child in children:
            yield from walk(child, depth + 1, (*path, name))

    return walk(root, 0, ())


def lint(args: argparse.Namespace) -> int:
    """The problems of the grammar directory; exit status 1 if any is an error."""
    # The directory, not a loaded Grammar: a directory too broken to load is linted too.
    problems = lint_problems(args.grammar)
    for problem in problems:
        print(problem)
    errors, warnings, infos = (
        sum(p.severity == severity for p in problems) for severity in ("error", "warning", "info")
    )
    print(f"{plural(errors, 'error')}, {plural(warnings, 'warning')}, {infos} info")
    return INVALID if errors else OK


def diagram(args: argparse.Namespace) -> int:
    """An SVG railroad diagram of one rule, or the HTML page of the whole grammar."""
    from ..bnf.diagrams import grammar_html, rule_svg  # Lark, and the diagrams extra

    grammar = load(args.grammar)
    text = rule_svg(grammar, args.rule) if args.rule else grammar_html(grammar)
    if args.output == "-":
        sys.stdout.write(text + "\n")
    else:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
        print(f"wrote {args.output}")
    return OK


def export(args: argparse.Namespace) -> int:
    """The patterns of every scheme (or of ``--scheme``) in a regex dialect, as JSON or text.

    ``--scheme any`` is the pattern that dispatches on the scheme. As text,
    one ``scheme<TAB>pattern`` line each; with ``--scheme``, the pattern alone.
    """
    exported = export_grammar(load(args.grammar), args.dialect)
    wanted = args.scheme.lower() if args.scheme else None
    if wanted is not None and wanted != "any" and wanted not in exported.schemes:
        known = ", ".join([*exported.schemes, "any"])
        raise RFC1738Error(f"no scheme {args.scheme!r} in the grammar: one of {known}")
    data = exported.as_json()
    if wanted is not None:
        schemes = data["schemes"]
        assert isinstance(schemes, dict)
        data["schemes"] = {wanted: schemes[wanted]} if wanted != "any" else {}
        if wanted != "any":
            del data["any"]
    if args.format == "json":
        write_json(data, sys.stdout, pretty=args.pretty)
        return OK
    patterns = {name: found.pattern for name, found in exported.schemes.items()}
    patterns["any"] = exported.any
    if wanted is not None:
        print(patterns[wanted])
    else:
        for name, pattern in patterns.items():
            print(f"{name}\t{pattern}")
    return OK


#: The ``grammar`` subcommands, by the name the argument parser gives them.
COMMANDS = {
    "list_rules": list_rules,
    "show_rule": show_rule,
    "dependencies": dependencies,
    "lint": lint,
    "diagram": diagram,
    "export": export,
}


def _one_line(bnf: tuple[str, ...]) -> str:
    """A production's BNF lines as one line, runs of spaces as one."""
    return " ".join(" ".join(bnf).split())
