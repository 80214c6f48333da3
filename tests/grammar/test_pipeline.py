"""The compile pipeline's parts: the optimiser and emitter against the tree, the passes, folding.

The optimiser rewrites a tree and the emitter writes it possessive where no
match needs to give back; neither may change what the tree matches. The
linear matcher's automaton (Thompson's construction, :mod:`rfc1738.compile.thompson`)
is built from the tree as lowered, with none of those rewrites, so it is the
reference the written expression is held to, on random trees and texts.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rfc1738 import load
from rfc1738.compile.emit import PYTHON_FORMS, write_regex
from rfc1738.compile.ir import (
    Alt,
    Chars,
    Fold,
    Group,
    Lit,
    Node,
    Rep,
    Seq,
    Transform,
    captures,
    folded,
    without_groups,
)
from rfc1738.compile.optimise import simplify
from rfc1738.compile.pipeline import compile_directory, tables_module
from rfc1738.compile.thompson import matcher_data
from rfc1738.runtime.linear import LinearMatcher
from rfc1738.runtime.possessive import compile_expression, form
from rfc1738.runtime.tables import content_key, tables_data
from rfc1738.runtime.visit import Visitor

#: Few characters, so that random texts often match; "-" and "." are special in a class or outside.
ALPHABET = "ab-.K"


def _leaves() -> st.SearchStrategy[Node]:
    chars = st.frozensets(st.sampled_from(ALPHABET), min_size=1, max_size=3).map(Chars)
    literal = st.builds(Lit, st.text(ALPHABET, min_size=2, max_size=3), st.booleans())
    return chars | literal


def _bounds() -> st.SearchStrategy[tuple[int, int | None]]:
    return st.sampled_from([(0, None), (1, None), (0, 1), (2, 3), (0, 2), (1, 1)])


def _trees(inner: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
    several = st.lists(inner, min_size=2, max_size=3).map(tuple)
    repeated = st.builds(lambda item, bounds: Rep(item, *bounds), inner, _bounds())
    grouped = st.builds(Group, st.sampled_from(["host", "port", "path"]), inner)
    return several.map(Seq) | several.map(Alt) | repeated | grouped


TREES = st.recursive(_leaves(), _trees, max_leaves=8)


@given(TREES, st.lists(st.text(ALPHABET, max_size=10), min_size=1, max_size=8))
def test_the_written_expression_matches_what_the_tree_matches(tree: Node, texts: list[str]) -> None:
    expression = re.compile(write_regex(tree, PYTHON_FORMS[form()]).source)
    automaton = LinearMatcher(matcher_data(tree))
    for text in texts:
        assert bool(expression.fullmatch(text)) == automaton.matches(text), text


@given(TREES, st.lists(st.text(ALPHABET + "AB", max_size=10), min_size=1, max_size=8))
def test_the_optimiser_keeps_what_a_tree_matches(tree: Node, texts: list[str]) -> None:
    before = LinearMatcher(matcher_data(tree))
    after = LinearMatcher(matcher_data(simplify(tree)))
    for text in texts:
        assert after.matches(text) == before.matches(text), text


def test_a_tail_that_ignores_case_is_kept_unless_every_spelling_is_in_the_run() -> None:
    # ("ab" | "AB")* ["ab"i]: "aB" is the tail alone, in no run of the loop.
    tree = Seq((Rep(Alt((Lit("ab"), Lit("AB"))), 0, None), Rep(Lit("ab", True), 0, 1)))
    assert simplify(tree) != Rep(Alt((Lit("ab"), Lit("AB"))), 0, None)
    written = re.compile(write_regex(simplify(tree), PYTHON_FORMS[form()]).source)
    assert [t for t in ("aB", "Ab", "abAB", "abaB", "ABab", "ba") if written.fullmatch(t)] == [
        "aB",
        "Ab",
        "abAB",
        "abaB",
        "ABab",
    ]


@given(TREES)
def test_a_pass_rebuilds_only_what_it_changes(tree: Node) -> None:
    assert Transform().visit(tree) is tree
    plain = without_groups(tree)
    assert not captures(plain)
    assert captures(tree) == (plain != tree)

    class Count(Fold[int]):
        def combine(self, results: list[int]) -> int:
            return 1 + sum(results)

    def count(node: Node) -> int:
        return 1 + sum(count(child) for child in node.children)

    assert Count().visit(tree) == count(tree)


def test_a_visitor_reads_layouts_by_their_first_item() -> None:
    class Literals(Visitor[str]):
        def visit_lit(self, node: tuple[str, str, bool]) -> str:
            return node[1]

        def visit_seq(self, node: tuple[str, tuple[object, ...]]) -> str:
            return "".join(self.visit(item) for item in node[1])

    assert Literals().visit(("seq", (("lit", "http://", True), ("lit", "/", False)))) == "http:///"
    with pytest.raises(TypeError, match="Literals has no visit_opt"):
        Literals().visit(("opt", 1, ("lit", "/", False)))


@pytest.mark.parametrize(
    ("char", "ignore_case", "letters"),
    [
        ("k", True, {"k", "K"}),
        ("K", True, {"k", "K"}),
        ("k", False, {"k"}),
        ("\u212a", True, {"\u212a"}),  # the Kelvin sign: re.IGNORECASE would take it for k
        ("é", True, {"é"}),
        ("-", True, {"-"}),
    ],
)
def test_case_is_folded_for_ascii_letters_only(
    char: str, ignore_case: bool, letters: set[str]
) -> None:
    assert folded(char, ignore_case) == letters


def test_the_pipeline_compiles_an_edited_directory_as_the_run_time_does(tmp_path: Path) -> None:
    grammar_dir = tmp_path / "grammar"
    grammar_dir.mkdir()
    for path in sorted((Path(load().directory)).glob("*.lark")):
        (grammar_dir / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (grammar_dir / "afs.lark").write_text(
        "// An edited scheme. Start rule: afsurl.\n%import .common (ip_schemepart)\n"
        'afsurl: "afs:"i ip_schemepart\n',
        encoding="utf-8",
    )
    grammar = load(grammar_dir)
    tables = compile_directory(grammar)
    assert tables.key == content_key(grammar_dir)
    assert sorted(tables.schemes) == sorted(grammar.files)
    afs = tables.schemes["afs"]
    assert afs.expression is not None
    assert compile_expression(afs.expression, afs.expression_forms).fullmatch(
        "AFS://host.example/x"
    )
    assert ("common", "terminal", "XCHAR") in tables.chars
    # The schemes of the shipped files compile as they do in the shipped directory.
    shipped = tables_data(compile_directory(load()))["schemes"]
    edited = tables_data(tables)["schemes"]
    assert {scheme: edited[scheme] for scheme in shipped} == shipped
    assert tables_module(grammar).startswith("# Generated by rfc1738")
