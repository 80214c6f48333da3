"""rfc1738.bnf.load_errors: each form of Lark loading error, at its file and line.

Small grammar directories written for each case (not RFC 1738): the file Lark
loads, and the file at fault, which may be one it imports.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rfc1738.bnf.adapter import LoadFailed, earley_parser, unmangled
from rfc1738.bnf.index import GrammarIndex
from rfc1738.bnf.load_errors import grammar_error
from rfc1738.errors import GrammarError


def write(directory: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (directory / name).write_text(text, encoding="utf-8")


def load_error(path: Path, start: str = "top") -> GrammarError:
    """What loading ``path`` raises, translated."""
    with pytest.raises(LoadFailed) as caught:
        earley_parser(path, start)
    return grammar_error(caught.value, path)


CASES = {
    # name: (files, the file loaded, the file at fault, its line, words of the message)
    "unexpected character": (
        {"a.lark": '// a\ntop: "x"\nb: "y" @ "z"\n'},
        "a.lark",
        "a.lark",
        3,
        "Unexpected input at column 8",
    ),
    "unclosed bracket, comments after it": (
        {"a.lark": 'top: "x" [ "y"\n// a comment\n\n// another\nb: "z"\n'},
        "a.lark",
        "a.lark",
        1,
        'expected "]"',
    ),
    "missing colon": ({"a.lark": 'top: "x"\nb c\n'}, "a.lark", "a.lark", 2, "unexpected"),
    "syntax error in an imported file": (
        {"a.lark": "%import .b (b)\ntop: b\n", "b.lark": '\n\nb: ( "y"\n'},
        "a.lark",
        "b.lark",
        3,
        "",
    ),
    "undefined rule in an imported rule": (
        {"a.lark": "%import .b (b)\ntop: b\n", "b.lark": '// b\nb: "y"\n   | c\n'},
        "a.lark",
        "b.lark",
        3,
        "Rule 'c' used but not defined (in rule b)",
    ),
    "undefined terminal": ({"a.lark": 'top: A\nA: "x" B\n'}, "a.lark", "a.lark", 2, "B"),
    "defined twice": (
        {"a.lark": 'top: "x"\n\ntop: "y"\n'},
        "a.lark",
        "a.lark",
        3,
        "more than once",
    ),
    "imported and defined": (
        {"a.lark": '%import .b (b)\ntop: b\nb: "z"\n', "b.lark": 'b: "y"\n'},
        "a.lark",
        "a.lark",
        3,
        "Rule 'b' defined more than once",
    ),
    "recursive terminal": (
        {"a.lark": 'top: A\nA: "x" A\n'},
        "a.lark",
        "a.lark",
        2,
        "Recursion in terminal 'A'",
    ),
    "rule in a terminal": (
        {"a.lark": 'top: A\nA: "x" b\nb: "y"\n'},
        "a.lark",
        "a.lark",
        2,
        "inside terminals",
    ),
    "empty terminal": ({"a.lark": 'top: A\nA: ""\n'}, "a.lark", "a.lark", 2, "Empty terminals"),
    "missing import file": (
        {"a.lark": "%import .nosuch (b)\ntop: b\n"},
        "a.lark",
        "a.lark",
        1,
        "no grammar file nosuch.lark",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_file_and_line(tmp_path: Path, case: str) -> None:
    files, loaded, at_fault, line, words = CASES[case]
    write(tmp_path, files)
    error = load_error(tmp_path / loaded)
    assert (error.file, error.line) == (str(tmp_path / at_fault), line)
    assert words in str(error)
    assert str(error).startswith(f"{tmp_path / at_fault}:{line}: ")
    assert "\n" not in str(error)  # no picture of the grammar text


def test_no_line_when_nothing_says_where(tmp_path: Path) -> None:
    write(tmp_path, {"a.lark": 'top: "x"\n'})
    error = load_error(tmp_path / "a.lark", start="nosuch")
    assert (error.file, error.line) == (str(tmp_path / "a.lark"), None)


def test_namespaces_are_dropped_from_messages() -> None:
    assert unmangled("Rule 'http__hsegmnt' used (in rule http__hpath)") == (
        "Rule 'hsegmnt' used (in rule hpath)"
    )
    assert unmangled("__hidden and a__b__c") == "__hidden and c"


# ---- the index reads what Lark reads ----


def test_index_follows_aliases_declares_and_ignores(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "a.lark": (
                "%import .b.word -> w\n"
                "%import common.WS\n"
                "%declare DECLARED\n"
                "%ignore WS\n"
                "// BNF: top = w\n"
                "?top: w | DECLARED | other_\n"
                "other_{x}.2: x\n"
            ),
            "b.lark": '// BNF: word = "w"\nword: "w"\n',
        },
    )
    index = GrammarIndex(tmp_path)
    a = index.file(tmp_path / "a.lark")
    top = a.defined("top")
    assert top is not None and top.line == 6 and top.block is not None
    assert top.block.bnf == ("top = w",)
    assert [d.name for d in index.uses(top)] == ["word", "DECLARED", "other_"]
    assert index.resolve(a, "WS") == "external"
    assert a.ignored == ["WS"]
    template = a.defined("other_")
    assert template is not None
    assert (template.line, template.symbols) == (7, ())  # x is a parameter, not a reference
