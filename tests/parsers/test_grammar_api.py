"""The Grammar object's inspection methods: the same answers as the modules behind them."""

from __future__ import annotations

from pathlib import Path

import pytest

import rfc1738
from rfc1738.bnf import diagrams, inspection


def test_rules_and_rule_are_inspections() -> None:
    grammar = rfc1738.load()
    assert [r.name for r in grammar.rules()] == [r.name for r in inspection.rules(grammar)]
    assert grammar.rule("ip-schemepart") == inspection.rule(grammar, "ip_schemepart")


def test_lint_of_the_shipped_grammar_is_informational_only() -> None:
    problems = rfc1738.load().lint()
    assert {p.code for p in problems} == {"unused-in-rfc"}
    assert {p.rule for p in problems} == {"NATIONAL", "PUNCTUATION"}


def test_diagrams_through_the_grammar(tmp_path: Path) -> None:
    pytest.importorskip(
        "railroad", reason="the diagrams extra (railroad-diagrams) is not installed"
    )
    grammar = rfc1738.load()
    assert grammar.diagram("hostport") == diagrams.rule_svg(grammar, "hostport")
    assert grammar.diagrams_html() == diagrams.grammar_html(grammar)
    written = grammar.write_diagrams(tmp_path, ["hostport"])
    assert {p.name for p in written} == {"hostport.svg", "index.html"}
