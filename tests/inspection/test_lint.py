"""rfc1738.bnf.inspection.lint(): the shipped grammar is clean; each problem is found where it is.

Each broken case is a copy of the shipped grammar with one edit; the expected
line is computed from the edited text, so the cases do not depend on the line
numbers of the shipped files.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.bnf.inspection import rule
from rfc1738.bnf.lint import LintProblem, lint
from rfc1738.compile.pipeline import CompiledFile, NotRegularError

SHIPPED = shipped_grammar_dir()


def test_shipped_grammar_has_only_the_rfc_s_own_unused_characters() -> None:
    problems = lint()
    assert [(p.code, p.rule, p.severity, p.file.name) for p in problems] == [
        ("unused-in-rfc", "NATIONAL", "info", "common.lark"),
        ("unused-in-rfc", "PUNCTUATION", "info", "common.lark"),
    ]
    assert [p.line for p in problems] == [
        rule(None, "national").line,
        rule(None, "punctuation").line,
    ]
    assert "no production there refers to national" in problems[0].message


def test_a_loaded_grammar_and_its_directory_lint_the_same() -> None:
    assert lint(rfc1738.load()) == lint(SHIPPED) == lint(str(SHIPPED))


# ---- an edited copy ----


@pytest.fixture
def grammar(tmp_path: Path) -> Path:
    directory = tmp_path / "grammar"
    shutil.copytree(SHIPPED, directory)
    return directory


def edit(directory: Path, file: str, old: str, new: str) -> int:
    """Replace ``old`` by ``new`` in one file; the 1-based line where ``new`` begins."""
    path = directory / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


def problems_of(directory: Path, *codes: str) -> list[LintProblem]:
    return [p for p in lint(directory) if p.code in codes]


def only(directory: Path, code: str) -> LintProblem:
    (found,) = problems_of(directory, code)
    return found


def others(directory: Path, *codes: str) -> list[tuple[str, str | None]]:
    """What else lint says, the RFC's own unused characters aside."""
    return [(p.code, p.rule) for p in lint(directory) if p.code not in ("unused-in-rfc", *codes)]


def test_undefined_rule(grammar: Path) -> None:
    line = edit(grammar, "http.lark", "hpath: hsegment (", "hpath: hsegmnt (")
    problem = only(grammar, "undefined")
    assert (problem.file, problem.line, problem.rule) == (grammar / "http.lark", line, "hpath")
    assert problem.severity == "error"
    assert "hpath uses hsegmnt, which is defined nowhere" in problem.message
    assert "did you mean hsegment" in problem.message
    # Lark's own "used but not defined" is the same finding: not reported twice.
    assert others(grammar, "undefined") == []


def test_undefined_on_a_continuation_line(grammar: Path) -> None:
    line = edit(
        grammar, "generic.lark", "   | prosperourl | otherurl", "   | prosperourl | othrurl"
    )
    problem = only(grammar, "undefined")
    assert (problem.line, problem.rule) == (line, "url")


def test_name_defined_in_another_file_but_not_imported(grammar: Path) -> None:
    line = edit(grammar, "file.lark", "%import .ftp (fpath, fsegment)\n", "")
    problem = only(grammar, "undefined")
    assert (problem.file.name, problem.rule) == ("file.lark", "fileurl")
    assert problem.line == line + 3  # the fileurl line, moved up by the removed import
    assert "ftp.lark defines it: %import .ftp (fpath)" in problem.message


def test_import_of_a_name_its_module_does_not_define(grammar: Path) -> None:
    line = edit(grammar, "http.lark", "(ALPHA, DIGIT, UCHAR)", "(ALPHA, DIGIT, UCHAR, NOSUCH)")
    problem = only(grammar, "undefined")
    assert (problem.file.name, problem.line, problem.rule) == ("http.lark", line, "NOSUCH")
    assert problem.message == "NOSUCH is imported from common.lark, which does not define it"


def test_unused_rule(grammar: Path) -> None:
    """A rule the BNF uses but the transcription no longer does."""
    edit(grammar, "http.lark", 'hpath: hsegment ( "/" hsegment )*', 'hpath: ( UCHAR | "/" )*')
    problem = only(grammar, "unused")
    assert (problem.file.name, problem.rule) == ("http.lark", "hsegment")
    assert problem.line == rule(grammar, "hsegment").line
    assert problem.severity == "warning"
    assert problem.message == "nothing uses hsegment, and it is no start rule"
    assert others(grammar, "unused") == []


def test_unused_rule_without_bnf(grammar: Path) -> None:
    line = edit(grammar, "http.lark", "// BNF: search", 'spare: "x"\n// BNF: search')
    assert [(p.code, p.line, p.rule) for p in lint(grammar) if p.file.name == "http.lark"] == [
        ("missing-bnf", line, "spare"),
        ("unused", line, "spare"),
    ]


def test_unused_in_the_bnf_too(grammar: Path) -> None:
    """A production whose own BNF line nothing refers to is unused as in the source."""
    line = edit(
        grammar, "http.lark", "// BNF: search", '// BNF: spare = "x"\nspare: "x"\n// BNF: search'
    )
    found = [p for p in lint(grammar) if p.rule == "spare"]
    assert [(p.code, p.line, p.severity) for p in found] == [("unused-in-rfc", line + 1, "info")]


def test_start_rules_are_not_unused(grammar: Path) -> None:
    (grammar / "x.lark").write_text(
        '// BNF: xurl = "x:" digits\nxurl: "x:"i digits\n%import .common (digits, DIGIT)\n', "utf-8"
    )
    assert others(grammar) == []


def test_missing_bnf_line(grammar: Path) -> None:
    line = edit(
        grammar, "ftp.lark", '// BNF: ftptype        = "A" | "I" | "D" | "a" | "i" | "d"\n', ""
    )
    problem = only(grammar, "missing-bnf")
    assert (problem.file.name, problem.line, problem.rule) == ("ftp.lark", line, "ftptype")
    assert problem.severity == "warning"
    assert problem.message == "ftptype has no // BNF: line above it"


def test_missing_bnf_line_marked_as_a_deviation_is_information(grammar: Path) -> None:
    edit(
        grammar,
        "ftp.lark",
        '// BNF: ftptype        = "A" | "I" | "D" | "a" | "i" | "d"',
        "// DEVIATION: made up",
    )
    problem = only(grammar, "missing-bnf")
    assert problem.severity == "info"
    assert "added on purpose" in problem.message


def test_recursion(grammar: Path) -> None:
    line = edit(
        grammar, "http.lark", 'hpath: hsegment ( "/" hsegment )*', 'hpath: hsegment [ "/" hpath ]'
    )
    problem = only(grammar, "recursion")
    assert (problem.file.name, problem.line, problem.rule) == ("http.lark", line, "hpath")
    assert problem.severity == "warning"
    assert "(hpath -> hpath)" in problem.message
    assert (
        "the fast parser cannot compile http; the reference parser still serves it"
        in problem.message
    )
    assert others(grammar, "recursion") == []
    # What the warning says: the compiler refuses the scheme, the reference parser serves it.
    with pytest.raises(NotRegularError, match=r"hpath -> hpath"):
        CompiledFile(grammar / "http.lark").compile("httpurl")
    tree = rfc1738.load(grammar).parse_tree("http://host.example/a/b/c")
    assert len(list(tree.find_data("hpath"))) == 3


def test_mutual_recursion_names_the_cycle(grammar: Path) -> None:
    edit(
        grammar, "http.lark", 'hpath: hsegment ( "/" hsegment )*', 'hpath: hsegment [ "/" search ]'
    )
    edit(
        grammar,
        "http.lark",
        'search: ( UCHAR | ";" | ":" | "@" | "&" | "=" )*',
        'search: UCHAR* [ "/" hpath ]',
    )
    found = {p.rule: p.message for p in problems_of(grammar, "recursion")}
    assert set(found) == {"hpath", "search"}
    assert "(hpath -> search -> hpath)" in found["hpath"]
    assert "(search -> hpath -> search)" in found["search"]
    # gopher and wais import search from http: they are off the fast path too.
    assert "cannot compile gopher, http, wais;" in found["search"]


def test_collision_with_an_imported_name(grammar: Path) -> None:
    line = edit(
        grammar,
        "http.lark",
        "// BNF: search",
        '// BNF: hostport = "x"\nhostport: "x"\n// BNF: search',
    )
    problem = only(grammar, "load-error")
    assert (problem.file.name, problem.line, problem.rule) == ("http.lark", line + 1, None)
    assert problem.severity == "error"
    assert problem.message == "Lark cannot load it: Rule 'hostport' defined more than once"
    # Reported once, though every file importing http.lark hits it, without namespaces.
    assert "http__" not in problem.message


def test_same_name_in_two_files_without_import(grammar: Path) -> None:
    line = edit(
        grammar,
        "news.lark",
        "// BNF: article",
        '// BNF: search = "x"\nsearch: "x"\n// BNF: article',
    )
    problem = only(grammar, "duplicate")
    assert (problem.file.name, problem.line, problem.rule) == ("news.lark", line + 1, "search")
    assert "also defined in http.lark" in problem.message


def test_syntax_error(grammar: Path) -> None:
    line = edit(grammar, "common.lark", 'hostport: host [ ":" port ]', 'hostport: host [ ":" port')
    problem = only(grammar, "load-error")
    assert (problem.file.name, problem.line) == ("common.lark", line)
    assert 'expected "]"' in problem.message
    # Every other file imports common.lark: the error is still reported once, at its place.
    assert others(grammar, "load-error") == []


def test_missing_import_file(grammar: Path) -> None:
    line = edit(grammar, "telnet.lark", "%import .common", "%import .nosuch (x)\n%import .common")
    problem = only(grammar, "load-error")
    assert (problem.file.name, problem.line) == ("telnet.lark", line)
    assert "no grammar file nosuch.lark" in problem.message


def test_scheme_file_without_its_start_rule(grammar: Path) -> None:
    (grammar / "afs.lark").write_text('// BNF: afs = "afs:"\nafs: "afs:"\n', encoding="utf-8")
    problem = only(grammar, "no-start")
    assert (problem.file.name, problem.line, problem.rule) == ("afs.lark", 1, "afsurl")
    assert "afs.lark defines no rule afsurl" in problem.message


def test_directory_without_generic_lark(grammar: Path) -> None:
    (grammar / "generic.lark").unlink()
    problem = only(grammar, "no-start")
    assert problem.file == grammar / "generic.lark"
    assert problem.line == 0


def test_problems_are_sorted_and_printable(grammar: Path) -> None:
    edit(grammar, "http.lark", "hpath: hsegment (", "hpath: hsegmnt (")
    edit(grammar, "ftp.lark", "// BNF: ftptype", "// no BNF here: ftptype")
    problems = lint(grammar)
    keys = [(str(p.file), p.line) for p in problems]
    assert keys == sorted(keys)
    text = str(problems[0])
    assert text.startswith(f"{grammar / 'common.lark'}:")
    first_error = next(p for p in problems if p.severity == "error")
    assert str(first_error) == (
        f"{first_error.file}:{first_error.line}: error: {first_error.message} [undefined]"
    )
