"""The grammar compiler: what it writes, and what it refuses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.compile.emit import PYTHON_FORMS
from rfc1738.compile.pipeline import CompiledFile, NotRegularError
from rfc1738.runtime.possessive import form

GRAMMAR = shipped_grammar_dir()

#: The writer's Python in the form this Python reads right (CPython 3.11.0 to 3.11.4: atomic).
HERE = PYTHON_FORMS[form()]


def compiled(scheme: str, start: str, capture: set[str] | None = None) -> re.Pattern[str]:
    source, _groups = CompiledFile(GRAMMAR / f"{scheme}.lark").compile(
        start, capture or set(), HERE
    )
    return re.compile(source)


def test_captured_productions_become_named_groups() -> None:
    source, groups = CompiledFile(GRAMMAR / "http.lark").compile(
        "httpurl", {"host", "search"}, HERE
    )
    match = re.compile(source).fullmatch("http://www.example.com/a/b?q=1")
    assert match is not None
    assert match.group("host") == "www.example.com"
    assert match.group("search") == "q=1"
    assert groups == {"host": ("host",), "search": ("search",)}


def test_a_production_reached_along_several_alternatives_gets_a_group_each() -> None:
    # waisurl = waisdatabase | waisindex | waisdoc: hostport three times.
    kinds = {"waisdatabase", "waisindex", "waisdoc"}
    source, groups = CompiledFile(GRAMMAR / "wais.lark").compile("waisurl", {"host", *kinds}, HERE)
    assert groups["host"] == ("host", "host__2", "host__3")
    match = re.compile(source).fullmatch("wais://h.example/db/t/p")
    assert match is not None
    assert match.group("host__3") == "h.example"


def test_options_with_a_common_beginning_are_factored() -> None:
    # Without the three kinds captured, their common "wais://" hostport "/"
    # database is written once.
    source, groups = CompiledFile(GRAMMAR / "wais.lark").compile("waisurl", {"host"})
    assert groups["host"] == ("host",)
    assert source.count("[Ww]") == 1
    # domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit: the
    # common alphadigit once, then the run ending in an alphadigit as runs of
    # "-" each ending in one (one way to match, so possessive), with the runs
    # of alphadigits hoisted out of the loop: a label without "-" is one step.
    http, _ = CompiledFile(GRAMMAR / "http.lark").compile("httpurl", set())
    assert "[0-9A-Za-z][0-9A-Za-z]*+(?:\\-++[0-9A-Za-z]++)*+\\." in http


def test_separated_runs_are_one_loop() -> None:
    # hpath = hsegment *[ "/" hsegment ], hsegment = *[ uchar | ";" | ... ]: the
    # same language as *[ uchar | ";" | ... | "/" ], written as one loop whose
    # runs of plain characters take the "/" too.
    http, _ = CompiledFile(GRAMMAR / "http.lark").compile("httpurl", {"hpath"})
    hpath = http[http.index("(?P<hpath>") :]
    assert hpath.startswith("(?P<hpath>(?:[!$&-;=@-Z_a-z]++|%[0-9A-Fa-f][0-9A-Fa-f])*+)")
    pattern = re.compile(CompiledFile(GRAMMAR / "http.lark").compile("httpurl", {"hpath"}, HERE)[0])
    for path in ("", "a", "/", "a//b/", "%2F/x;y=z/", "a/b/c/d/e/f/g/h/i/j"):
        match = pattern.fullmatch("http://h/" + path)
        assert match is not None and match.group("hpath") == path
    assert pattern.fullmatch("http://h/a/b c") is None


def test_scheme_literals_fold_ascii_letters_only() -> None:
    http = compiled("http", "httpurl")
    assert http.fullmatch("HtTp://h")
    # Under re.IGNORECASE the long s (U+017F) folds to "s"; section 2.1 folds ASCII only.
    news = compiled("news", "newsurl")
    assert news.fullmatch("NEWS:*")
    assert not news.fullmatch("new\u017f:*")
    # Only the scheme folds: ";type=" is matched as written.
    assert not compiled("ftp", "ftpurl").fullmatch("ftp://h/f;TYPE=I")


def test_character_sets_come_from_the_grammar() -> None:
    common = CompiledFile(GRAMMAR / "common.lark")
    assert common.terminal_chars("SAFE") == frozenset("$-_.+")
    assert common.terminal_chars("EXTRA") == frozenset("!*'(),")
    assert common.terminal_chars("NATIONAL") == frozenset("{}|\\^~[]`")
    assert "%" not in common.terminal_chars("XCHAR")
    http = CompiledFile(GRAMMAR / "http.lark")
    assert "/" not in http.rule_chars("hpath")
    assert "?" not in http.rule_chars("search")


def test_repetitions_that_cannot_give_back_are_possessive() -> None:
    source, _ = CompiledFile(GRAMMAR / "http.lark").compile("httpurl", set())
    assert "*+" in source  # hsegment, search
    assert "[0-9]++" in source  # digits


def test_gopher_tail_is_absorbed_but_captured_tails_stay() -> None:
    gopher = CompiledFile(GRAMMAR / "gopher.lark")
    plain, _ = gopher.compile("gopherurl", {"gtype"}, HERE)
    assert "%09" not in plain
    captured, _ = gopher.compile("gopherurl", {"gtype", "search"}, HERE)
    assert "%09" in captured
    for source in (plain, captured):
        assert re.compile(source).fullmatch("gopher://h/1sel%09a%09b")
        assert re.compile(source).fullmatch("gopher://h/1a%09b/c")  # selector = *xchar takes it


def test_prefix_expression_matches_exactly_the_viable_prefixes() -> None:
    source = CompiledFile(GRAMMAR / "http.lark").compile_prefixes("httpurl", HERE)
    prefixes = re.compile(source)
    url = "http://www.example.com:80/a/b?c=d"
    for end in range(len(url) + 1):
        assert prefixes.fullmatch(url[:end]), url[:end]
    assert not prefixes.fullmatch("http://h/a b")
    assert not prefixes.fullmatch("htp")


def test_a_recursive_rule_is_not_regular(tmp_path: Path) -> None:
    grammar = tmp_path / "nest.lark"
    grammar.write_text('nesturl: "nest:" item\nitem: "(" item ")" | "x"\n', encoding="utf-8")
    with pytest.raises(NotRegularError, match=r"item refers back to itself \(item -> item\)"):
        CompiledFile(grammar).compile("nesturl")


def test_a_grammar_that_does_not_load_is_a_grammar_error(tmp_path: Path) -> None:
    grammar = tmp_path / "bad.lark"
    grammar.write_text("badurl: undefined_rule\n", encoding="utf-8")
    with pytest.raises(rfc1738.GrammarError, match=r"bad\.lark"):
        CompiledFile(grammar)


@pytest.mark.parametrize(
    "text",
    [
        "http://" + "a" * 1_000_000 + "!",
        "http://" + "a." * 500_000 + "!",
        "ftp://" + "a" * 500_000 + "@" + "b" * 500_000 + " ",
        "x://" + "a:" * 500_000 + " ",
        "gopher://h/1" + "%09" * 300_000 + " ",
        "prospero://h/" + ";a=" * 300_000 + " ",
    ],
    ids=["label", "dots", "user-host", "generic-login", "gopher-tabs", "prospero-fields"],
)
def test_adversarial_megabyte_inputs_are_rejected_with_a_position(text: str) -> None:
    # Finishing at all is the point: a backtracking blow-up would not. The
    # time it takes is measured by `make bench`, not asserted here.
    assert not rfc1738.is_valid(text)
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        rfc1738.parse(text)
    assert caught.value.position == len(text) - 1
