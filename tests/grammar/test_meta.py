"""Meta-tests on the grammar files themselves.

Each production of RFC 1738 section 5 is defined exactly once, under its BNF
lines copied as ``// BNF:`` comments, in RFC order within its file; every name
used is defined; each file opens with a short header; every ``// DEVIATION:``
and every case-insensitive literal is listed in ``docs/deviations.md``; the
installed package ships the same files as the checkout.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from lark import Lark
from lark.exceptions import GrammarError as LarkGrammarError

from rfc1738.bnf.files import scheme_files, shipped_grammar_dir

ROOT = Path(__file__).parents[2]
GRAMMAR_DIR = ROOT / "grammar"
SPEC = ROOT / "tests" / "data" / "rfc1738-section5.txt"
DEVIATIONS_DOC = ROOT / "docs" / "deviations.md"

GRAMMAR_FILES = sorted(GRAMMAR_DIR.glob("*.lark"))

# A production starts in column 0 (``gopher+_string = *xchar``); its
# continuation lines are indented.
_PRODUCTION = re.compile(r"^(?P<name>[a-z][a-z0-9+_-]*)\s+=\s")
# A Lark rule or terminal definition: ``name:``, ``?name:``, ``NAME.2:``.
_DEFINITION = re.compile(r"^[?!]?(?P<name>_?[A-Za-z][A-Za-z0-9_]*)(?:\.-?\d+)?\s*:")
_BNF = "// BNF:"
_DEVIATION = "// DEVIATION:"
# A string literal, case-insensitive if it ends in i: ``"/"``, ``"http://"i``.
_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"i?')


def normalised(text: str) -> str:
    return " ".join(text.split())


def lark_name(bnf_name: str) -> str:
    """The Lark name of a BNF production: ``-`` becomes ``_``, ``+`` becomes ``_plus``."""
    return bnf_name.replace("+", "_plus").replace("-", "_")


@dataclass(frozen=True)
class Production:
    """One production of section 5: its BNF name and lines, in RFC order."""

    name: str
    lines: tuple[str, ...]
    index: int

    @property
    def lark_name(self) -> str:
        return lark_name(self.name)


@dataclass(frozen=True)
class Definition:
    """One rule or terminal of a grammar file, with the comments directly above it."""

    file: str
    name: str
    line: int
    comments: tuple[str, ...]

    @property
    def bnf_lines(self) -> tuple[str, ...]:
        return tuple(c[len(_BNF) :] for c in self.comments if c.startswith(_BNF))


@cache
def spec_productions() -> tuple[Production, ...]:
    found: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    for line in SPEC.read_text(encoding="ascii").splitlines():
        match = _PRODUCTION.match(line)
        if match:
            current = [line]
            found.append((match["name"], current))
        elif current is not None and line[:1].isspace() and line.strip():
            current.append(line)
        else:
            current = None
    return tuple(Production(name, tuple(lines), index) for index, (name, lines) in enumerate(found))


def file_definitions(path: Path) -> list[Definition]:
    lines = path.read_text(encoding="utf-8").splitlines()
    definitions = []
    for number, line in enumerate(lines):
        match = _DEFINITION.match(line)
        if not match:
            continue
        first = number
        while first > 0 and lines[first - 1].startswith("//"):
            first -= 1
        definitions.append(
            Definition(path.name, match["name"], number + 1, tuple(lines[first:number]))
        )
    return definitions


@cache
def all_definitions() -> tuple[Definition, ...]:
    return tuple(d for path in GRAMMAR_FILES for d in file_definitions(path))


def definition_of(production: Production) -> Definition:
    (found,) = [d for d in all_definitions() if d.name.lower() == production.lark_name.lower()]
    return found


PRODUCTIONS = spec_productions()


def test_spec_copy_has_the_67_productions_of_section_5() -> None:
    names = [p.name for p in PRODUCTIONS]
    assert len(names) == 67
    assert len(set(names)) == 67
    assert names[0] == "genericurl"
    assert names[-1] == "digits"


def test_the_grammar_directory_has_files() -> None:
    names = {path.name for path in GRAMMAR_FILES}
    assert {"common.lark", "generic.lark", "http.lark"} <= names


@pytest.mark.parametrize("production", PRODUCTIONS, ids=lambda p: p.name)
def test_production_is_defined_exactly_once(production: Production) -> None:
    wanted = production.lark_name
    found = [d for d in all_definitions() if d.name.lower() == wanted.lower()]
    places = [f"{d.file}:{d.line} {d.name}" for d in found]
    assert len(found) == 1, f"{production.name} defined {len(found)} times: {places}"
    # A rule keeps the BNF name; a character class is an UPPERCASE terminal.
    assert found[0].name in (wanted, wanted.upper())


@pytest.mark.parametrize("production", PRODUCTIONS, ids=lambda p: p.name)
def test_definition_sits_under_its_bnf_lines(production: Production) -> None:
    definition = definition_of(production)
    bnf = [i for i, c in enumerate(definition.comments) if c.startswith(_BNF)]
    assert bnf, f"{definition.file}:{definition.line}: no // BNF: comment above {definition.name}"
    assert bnf == list(range(bnf[0], bnf[0] + len(bnf))), "the // BNF: lines are not together"
    assert [normalised(b) for b in definition.bnf_lines] == [
        normalised(line) for line in production.lines
    ]


def test_every_bnf_comment_belongs_to_a_definition() -> None:
    attached = sum(len(d.bnf_lines) for d in all_definitions())
    written = sum(
        line.startswith(_BNF)
        for path in GRAMMAR_FILES
        for line in path.read_text(encoding="utf-8").splitlines()
    )
    assert attached == written, "a // BNF: comment is not directly above a definition"


def test_every_definition_is_a_production_or_a_marked_deviation() -> None:
    known = {p.lark_name.lower() for p in PRODUCTIONS}
    extra = [
        f"{d.file}:{d.line} {d.name}"
        for d in all_definitions()
        if d.name.lower() not in known and not any(c.startswith(_DEVIATION) for c in d.comments)
    ]
    assert extra == []


@pytest.mark.parametrize("path", GRAMMAR_FILES, ids=lambda p: p.name)
def test_productions_are_in_rfc_order(path: Path) -> None:
    order = {p.lark_name.lower(): p.index for p in PRODUCTIONS}
    names = [d.name for d in file_definitions(path) if d.name.lower() in order]
    assert names == sorted(names, key=lambda name: order[name.lower()])


def starts_of(path: Path) -> list[str]:
    """Every rule a file defines: loading with all of them as start rules
    compiles the whole file."""
    return [d.name for d in file_definitions(path) if d.name[:1].islower()]


@pytest.mark.parametrize("path", GRAMMAR_FILES, ids=lambda p: p.name)
def test_file_loads_with_every_name_defined(path: Path) -> None:
    # Lark's grammar loader refuses a rule or terminal that is used but not
    # defined, and an %import of a name the imported file does not define.
    Lark.open(str(path), start=starts_of(path), parser="earley", lexer="dynamic")


@pytest.mark.parametrize(
    ("file", "start"),
    [(entry.path.name, entry.start) for entry in scheme_files(GRAMMAR_DIR).values()]
    + [("generic.lark", "url")],
)
def test_start_rule_loads(file: str, start: str) -> None:
    parser = Lark.open(str(GRAMMAR_DIR / file), start=start, parser="earley", lexer="dynamic")
    assert parser.options.start == [start]


def test_lark_refuses_an_undefined_name(tmp_path: Path) -> None:
    # The check above relies on this.
    broken = tmp_path / "broken.lark"
    broken.write_text('start: "a" missing\n')
    with pytest.raises(LarkGrammarError, match="missing"):
        Lark.open(str(broken), start="start", parser="earley", lexer="dynamic")


@pytest.mark.parametrize("path", GRAMMAR_FILES, ids=lambda p: p.name)
def test_file_opens_with_a_short_header(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    header = []
    for line in lines:
        if not line.startswith("//"):
            break
        header.append(line)
    assert 2 <= len(header) <= 3, f"{path.name}: a header of {len(header)} comment lines"
    assert lines[len(header)] == "", f"{path.name}: no blank line after the header"
    text = " ".join(header)
    assert "RFC 1738 section" in text
    assert "Start rule" in text
    assert "Import" in text
    entry = scheme_files(GRAMMAR_DIR).get(path.stem)
    if entry is not None:
        assert entry.start in text, f"{path.name}: the header does not name {entry.start}"


def test_installed_package_ships_the_same_grammar_files() -> None:
    shipped = shipped_grammar_dir()
    assert sorted(p.name for p in shipped.glob("*.lark")) == [p.name for p in GRAMMAR_FILES]
    changed = [p.name for p in GRAMMAR_FILES if (shipped / p.name).read_bytes() != p.read_bytes()]
    assert changed == [], "reinstall the package: pip install --no-deps --force-reinstall ."


def deviations() -> list[tuple[str, str]]:
    """(file, rule) of every ``// DEVIATION:`` comment, each above its rule."""
    return [
        (d.file, d.name)
        for d in all_definitions()
        for comment in d.comments
        if comment.startswith(_DEVIATION)
    ]


def test_every_deviation_sits_above_a_rule() -> None:
    written = sum(
        line.startswith(_DEVIATION)
        for path in GRAMMAR_FILES
        for line in path.read_text(encoding="utf-8").splitlines()
    )
    assert written == len(deviations())


def doc_rows() -> list[str]:
    return [line for line in DEVIATIONS_DOC.read_text(encoding="utf-8").splitlines() if "|" in line]


@pytest.mark.parametrize(("file", "rule"), deviations())
def test_deviation_is_listed_in_the_docs(file: str, rule: str) -> None:
    rows = [row for row in doc_rows() if f"`{file}`" in row and f"`{rule}`" in row]
    assert rows, f"docs/deviations.md has no row for {file} {rule}"


def case_insensitive_literals() -> list[tuple[str, str]]:
    found = {
        (path.name, literal)
        for path in GRAMMAR_FILES
        for line in path.read_text(encoding="utf-8").splitlines()
        if not line.startswith("//")
        for literal in _LITERAL.findall(line)
        if literal.endswith("i")
    }
    return sorted(found)


@pytest.mark.parametrize(("file", "literal"), case_insensitive_literals())
def test_case_insensitive_literal_is_listed_in_the_docs(file: str, literal: str) -> None:
    rows = [row for row in doc_rows() if f"`{file}`" in row and f"`{literal}`" in row]
    assert rows, f"docs/deviations.md has no row for {literal} in {file}"
