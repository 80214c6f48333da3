"""rfc1738.bnf.adapter: Lark's readings translated into the project's own records.

Small grammars written for each construct (not RFC 1738). These tests use
the adapter's public functions only; tests/bnf/test_lark_contract.py pins
what the adapter uses of Lark.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from rfc1738.bnf.adapter import (
    EarleyBudgetExceeded,
    EarleyError,
    LoadFailed,
    WrittenDeclare,
    WrittenDefinition,
    WrittenIgnore,
    WrittenImport,
    check_loads,
    earley_parser,
    is_parse_tree,
    load_file,
    read_statements,
    tree_spans,
)
from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.bnf.tree import (
    Alias,
    Choice,
    Literal,
    Optional,
    Range,
    Ref,
    Regexp,
    Repeat,
    Sequence,
)


def grammar(tmp_path: Path, text: str, **others: str) -> Path:
    for name, other in others.items():
        (tmp_path / f"{name}.lark").write_text(other)
    path = tmp_path / "g.lark"
    path.write_text(text)
    return path


def body(tmp_path: Path, text: str, name: str = "top") -> object:
    loaded = load_file(grammar(tmp_path, text))
    table = loaded.terminals if name.isupper() else loaded.rules
    return table[name].body


# ---- each construct ----


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('top: "ab"\n', Literal("ab")),
        ('top: "ab"i\n', Literal("ab", ignore_case=True)),
        ('top: "\\""\n', Literal('"')),
        ('top: "a".."f"\n', Range("a", "f")),
        ("top: /[a-z]/\n", Regexp("[a-z]")),
        ('top: "a" "b"\n', Sequence((Literal("a"), Literal("b")))),
        ('top: "a" | "b"\n', Choice((Literal("a"), Literal("b")))),
        ('top: "a"*\n', Repeat(Literal("a"), 0, None)),
        ('top: "a"+\n', Repeat(Literal("a"), 1, None)),
        ('top: "a"?\n', Repeat(Literal("a"), 0, 1)),
        ('top: "a" ~ 3\n', Repeat(Literal("a"), 3, 3)),
        ('top: "a" ~ 2..4\n', Repeat(Literal("a"), 2, 4)),
        ('top: [ "a" ]\n', Optional(Literal("a"))),
        ('top: "a" -> named\n', Alias(Literal("a"), "named")),
        ('top: ( "a" "b" )*\n', Repeat(Sequence((Literal("a"), Literal("b"))), 0, None)),
        ('top: x\nx: "x"\n', Ref("x")),
        ('top: X\nX: "x"\n', Ref("X", terminal=True)),
        ('top: "x"\nA: B\nB: "b"\n', None),  # checked below: a terminal naming a terminal
    ],
)
def test_constructs(tmp_path: Path, text: str, expected: object) -> None:
    if expected is None:
        assert body(tmp_path, text, "A") == Ref("B", terminal=True)
    else:
        assert body(tmp_path, text) == expected


def test_literal_keeps_its_line(tmp_path: Path) -> None:
    found = body(tmp_path, 'top: "a"\n   | "b"\n')
    assert isinstance(found, Choice)
    assert [option.line for option in found.options] == [1, 2]  # type: ignore[union-attr]


def test_priority_and_namespaces(tmp_path: Path) -> None:
    path = grammar(tmp_path, "%import .lib (word)\ntop.3: word\n", lib='word: part\npart: "p"\n')
    loaded = load_file(path)
    assert loaded.rules["top"].priority == 3
    assert loaded.rules["word"].body == Ref("lib__part")
    assert loaded.rules["lib__part"].base == "part"


def test_shipped_grammar_reads_whole(tmp_path: Path) -> None:
    for path in sorted(shipped_grammar_dir().glob("*.lark")):
        loaded = load_file(path)
        assert loaded.rules or loaded.terminals


# ---- errors of loading ----


def test_undefined_name(tmp_path: Path) -> None:
    with pytest.raises(LoadFailed) as caught:
        load_file(grammar(tmp_path, 'top: "x" lib__b\n'))
    assert caught.value.undefined == "lib__b"
    assert caught.value.message == "Rule 'b' used but not defined (in rule top)"


def test_duplicate(tmp_path: Path) -> None:
    with pytest.raises(LoadFailed) as caught:
        load_file(grammar(tmp_path, 'top: "x"\ntop: "y"\n'))
    assert caught.value.duplicate == "top"


def test_syntax_error_at_end_of_line(tmp_path: Path) -> None:
    with pytest.raises(LoadFailed) as caught:
        load_file(grammar(tmp_path, 'top: "x" [ "y"\n// more\n'))
    failed = caught.value
    assert failed.at_end_of_line and failed.line
    assert failed.message.startswith("unexpected end of line; expected ")


def test_missing_import_file(tmp_path: Path) -> None:
    with pytest.raises(LoadFailed) as caught:
        load_file(grammar(tmp_path, "%import .nothere (x)\ntop: x\n"))
    assert caught.value.missing_file


def test_check_loads(tmp_path: Path) -> None:
    check_loads(grammar(tmp_path, 'top: "x"\n'), "top")
    with pytest.raises(LoadFailed):
        check_loads(grammar(tmp_path, 'top: "x" b\n'), "top")


# ---- statements as written ----


def test_statements(tmp_path: Path) -> None:
    text = '%import .lib (word) \n%declare D\n%import common.WS\n%ignore WS\ntop: word "x" D\n'
    path = grammar(tmp_path, text, lib='word: "w"\n')
    found = read_statements(text, path)
    imports = [s for s in found if isinstance(s, WrittenImport)]
    assert imports[0].module == tmp_path / "lib.lark"
    assert imports[0].names == (("word", "word"),)
    assert imports[1].module is None  # Lark's own library
    assert WrittenDeclare("D", True) in found
    assert WrittenIgnore(("WS",)) in found
    assert WrittenDefinition("top", False, 5, ("word", "D")) in found


def test_statements_of_a_file_that_does_not_parse(tmp_path: Path) -> None:
    with pytest.raises(LoadFailed):
        read_statements("top: (\n", tmp_path / "g.lark")


# ---- the Earley parser ----


def test_earley_parses_and_reports(tmp_path: Path) -> None:
    path = grammar(tmp_path, 'top: "ab"i word ( "/" word )*\nword: LETTER+\nLETTER: "a".."z"\n')
    parser = earley_parser(path, "top")
    tree = parser.parse("ABx/yz")
    assert is_parse_tree(tree)
    assert tree_spans(tree, {"word"}) == {"word": (2, 3)}
    assert parser.accepts("abx") and not parser.accepts("abx/")
    with pytest.raises(EarleyError) as caught:
        parser.parse("abx/9")
    error = caught.value
    assert (error.position, error.rule) == (4, "word")
    assert error.expected == frozenset({"LETTER"})
    with pytest.raises(EarleyError) as caught:
        parser.parse("a!")
    # The literal "ab"i is wrong at its second character, not its first.
    assert (caught.value.position, caught.value.expected) == (1, frozenset({'"ab"i'}))
    with pytest.raises(EarleyError) as caught:
        parser.parse("abx/")
    assert (caught.value.position, caught.value.rule) == (4, "word")


#: An ambiguous grammar: a run of "a" split into any number of words in
#: any way, so that Earley's work grows with the cube of its length.
AMBIGUOUS = 'top: word+\nword: "a"+\n'


def test_earley_counts_its_work_and_stops_at_its_budget(tmp_path: Path) -> None:
    path = grammar(tmp_path, AMBIGUOUS)
    unbounded = earley_parser(path, "top")
    works = [unbounded.work("a" * n) for n in (20, 40, 80)]
    assert works == [unbounded.work("a" * n) for n in (20, 40, 80)]  # a count, not a clock
    # Cubic: doubling the length multiplies the work by about 8.
    assert 5 < works[2] / works[1] < 10
    budget = (works[1] + works[2]) // 2
    bounded = earley_parser(path, "top", budget)
    assert bounded.parse("a" * 40) == unbounded.parse("a" * 40)
    with pytest.raises(EarleyBudgetExceeded) as caught:
        bounded.parse("a" * 80)
    assert caught.value.budget == budget
    assert 0 < caught.value.position < 80
    with pytest.raises(EarleyBudgetExceeded):
        bounded.accepts("a" * 80)
    # Errors are counted too, and reported as before within the budget.
    assert unbounded.work("a" * 40 + "b") > 0
    with pytest.raises(EarleyError):
        bounded.parse("a" * 40 + "b")


def test_each_thread_has_its_own_count(tmp_path: Path) -> None:
    """One parser, shared: a thread over the budget stops, the others do not."""
    path = grammar(tmp_path, AMBIGUOUS)
    bounded = earley_parser(path, "top", earley_parser(path, "top").work("a" * 40) + 1)
    outcomes: dict[int, object] = {}
    barrier = threading.Barrier(6)

    def run(worker: int) -> None:
        barrier.wait()
        text = "a" * (120 if worker % 2 else 40)
        try:
            outcomes[worker] = bounded.parse(text).data
        except EarleyBudgetExceeded:
            outcomes[worker] = "stopped"

    threads = [threading.Thread(target=run, args=(w,)) for w in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes == {w: "stopped" if w % 2 else "top" for w in range(6)}


def test_the_metered_parser_gives_lark_own_trees() -> None:
    """The item sets the budget counts with keep Lark's order: the same trees."""
    from lark import Lark

    path = shipped_grammar_dir() / "gopher.lark"
    metered = earley_parser(path, "gopherurl")
    plain = Lark.open(
        str(path),
        start="gopherurl",
        parser="earley",
        lexer="dynamic",
        ambiguity="resolve",
        propagate_positions=True,
        keep_all_tokens=True,
        maybe_placeholders=False,
    )
    for text in ("gopher://h/1a%09b%09c", "gopher://h:70/1%09%09%09x", "gopher://a.b/"):
        assert metered.parse(text) == plain.parse(text)
