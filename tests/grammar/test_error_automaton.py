"""The error automaton against the Earley oracle, and the errors users read.

Position, expected items and reason are what the reference parser reports,
on every input; the production named is the oracle's (tests/grammar/oracle.py
says which two of Lark's quirks it leaves out) with the automaton's other
choices left out (``as_earley=True``), and those are pinned here. Inputs:
every accept and reject case, one- to three-character mutations of them,
strings the grammar generates and their mutations.
"""

from __future__ import annotations

import ast
import random
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Token, Tree

import rfc1738
from rfc1738.bnf.names import base_name
from rfc1738.runtime.automaton import ErrorAutomaton
from rfc1738.runtime.tables import Tables, module_text, read_checked, tables_data
from tests.budget import examples
from tests.cases import ACCEPT, REJECT, SCHEMES, Case, case_id
from tests.doc_examples import DOCS, run_examples
from tests.grammar.oracle import automaton, automaton_error, earley_error, shipped

#: Characters mutations insert: the grammar's own, those it forbids, look-alikes.
MUTATION_CHARS = '%09aAzZ.-+:/@;?=&*!$#~ \t\x00\\[]<>"^`{|}\u00e9\u212a\u017f\u0131'


def assert_as_earley(text: str) -> None:
    """The automaton's answer for ``text`` is the oracle's."""
    assert automaton_error(text) == earley_error(text), text


def mutations(text: str, count: int, seed: int) -> list[str]:
    """``count`` strings: ``text`` with one to three characters inserted, deleted or replaced."""
    rnd = random.Random(f"{seed}:{text}")
    found = []
    for _ in range(count):
        chars = list(text)
        for _ in range(rnd.randint(1, 3)):
            at = rnd.randint(0, len(chars))
            kind = rnd.randint(0, 2)
            if kind == 0 or at == len(chars):
                chars.insert(at, rnd.choice(MUTATION_CHARS))
            elif kind == 1:
                del chars[at]
            else:
                chars[at] = rnd.choice(MUTATION_CHARS)
        found.append("".join(chars))
    return found


CASES = [case for scheme in SCHEMES for case in (*REJECT[scheme], *ACCEPT[scheme])]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_case_and_its_mutations_as_earley(case: Case) -> None:
    for text in (case.url, *mutations(case.url, 4, seed=1)):
        assert_as_earley(text)


@cache
def generated(scheme: str) -> st.SearchStrategy[str]:
    grammar = shipped()
    entry = grammar.files[scheme]
    lark = grammar.dispatch.reference_parser(scheme).lark(entry.start)
    return from_lark(lark, start=entry.start).filter(lambda s: len(s) <= 200)


@pytest.mark.parametrize("scheme", SCHEMES)
@settings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_generated_strings_and_mutations_as_earley(scheme: str, data: st.DataObject) -> None:
    text = data.draw(generated(scheme), label="url")
    seed = data.draw(st.integers(0, 2**16), label="seed")
    for each in (text, *mutations(text, 3, seed)):
        assert_as_earley(each)


def spans(tree: Tree[Token]) -> list[tuple[str, int, int]]:
    """Every production of a parse tree: name, start, end (an empty one where it stands)."""
    found: list[tuple[str, int, int]] = []

    def walk(node: Tree[Token] | Token, cursor: int) -> tuple[int, int]:
        if isinstance(node, Token):
            assert node.start_pos is not None and node.end_pos is not None
            return node.start_pos, node.end_pos
        start, end = None, cursor
        for child in node.children:
            child_start, end = walk(child, end)
            start = child_start if start is None else start
        start = cursor if start is None else start
        found.append((base_name(str(node.data)), start, end))
        return start, end

    walk(tree, 0)
    return found


@pytest.mark.parametrize("scheme", SCHEMES)
@settings(max_examples=examples(15), deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_production_named_is_one_the_url_is_in_there(scheme: str, data: st.DataObject) -> None:
    """Every choice names a production that a URL going on from the error holds there.

    For a URL the grammar generates, cut after any token and followed by a
    character no grammar allows, the production named (the automaton's
    choices 2, 4 and 5 included, which the Earley oracle does not make) is
    one that the URL's own Earley parse tree has at the cut: beginning,
    inside, or ending there.
    """
    text = data.draw(generated(scheme), label="url")
    productions = spans(rfc1738.parse_tree(text))
    errors = automaton(text)
    for cut in range(1, len(text)):
        found = errors.error(text[:cut] + "\x00")
        if found is None or found[0] != cut:
            continue  # the cut is inside a token
        rule = found[2]
        assert any(name == rule and start <= cut <= end for name, start, end in productions), (
            text,
            cut,
            rule,
        )


# ---- the choices docs/parsers.md records, pinned ----


@pytest.mark.parametrize(
    ("text", "earley", "ours"),
    [
        # Lark shares schemepart's *xchar helper with urlpath and names it so.
        ("x-foo:a|b", "urlpath", "schemepart"),
        # ... and search's with hsegment's: the error is in search.
        ("http://h/a?b?c", "hsegment", "search"),
        # password = user's body; the fault is in the password.
        ("ftp://u:p:q@h/", "user", "password"),
        # At the end of the URL: what a character there would get.
        ("nntp://h", "nntpurl", "hostport"),
        # A production every way on passes into, begun at the error: the path.
        ("http://h/~", "httpurl", "hsegment"),
        ("ftp://h/~", "ftpurl", "fsegment"),
        ("http://h/a/#b", "hpath", "hsegment"),
        ("gopher://h/1~", "gopherurl", "selector"),
        ("http://~", "toplabel", "host"),
        ("ftp://~@h/", "toplabel", "login"),
        ("telnet://~@h/", "toplabel", "login"),
        # ... and a literal written in several productions.
        ("wais:/h/db", "waisindex", "waisurl"),
        ("wais://h/]db", "waisindex", "database"),
        # A repetition is its production's, though it has not begun.
        ("nntp://h/a~", "nntpurl", "group"),
        # Readings that differ: what holds them all.
        ("ftp://ab~@h/", "domainlabel", "login"),
        ("news:a~", "article", "grouppart"),
        ("news:ab~", "group", "grouppart"),
        ("http://a-.com/", "domainlabel", "hostname"),
        ("file://h:80/x", "hostname", "fileurl"),
    ],
)
def test_where_the_rule_is_not_earleys(text: str, earley: str, ours: str) -> None:
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        shipped().dispatch.reference_parser(shipped().scheme_file(text).scheme).parse(
            text, shipped().scheme_file(text).start
        )
    assert caught.value.rule == earley
    for parser in ("fast", "reference"):
        with pytest.raises(rfc1738.URLSyntaxError) as ours_caught:
            rfc1738.parse(text, parser=parser)  # type: ignore[arg-type]
        assert ours_caught.value.rule == ours
        assert ours_caught.value.position == caught.value.position
        assert ours_caught.value.expected == caught.value.expected


@pytest.mark.parametrize(
    ("prefix", "rule"),
    [
        ("http://h/", "hsegment"),
        ("ftp://h/", "fsegment"),
        ("file:///", "fsegment"),
        ("prospero://h/", "psegment"),
    ],
)
@pytest.mark.parametrize("path", ["", "a", "a/", "a/b", "a/b/", "%41/"])
def test_the_same_fault_names_the_same_rule_anywhere_in_a_path(
    prefix: str, rule: str, path: str
) -> None:
    assert_names(f"{prefix}{path}~", rule)


@pytest.mark.parametrize(
    ("prefix", "rule", "middles", "suffix"),
    [
        ("gopher://h/1", "selector", ["", "a", "ab", "a/b", "%41"], ""),
        ("nntp://h/", "group", ["", "a", "ab", "a.b", "a-b"], ""),
        ("news:", "grouppart", ["", "a", "ab", "a.b"], ""),
        # A user name or a host: login; an escape can only be a user name.
        ("ftp://", "login", ["", "a", "ab", "a.b", "a-", "a.b-c"], "@h/"),
        ("telnet://", "login", ["", "a", "ab", "a.b", "a-", "a.b-c"], "@h/"),
        ("ftp://", "user", ["%41", "a%41", "%41b"], "@h/"),
        ("http://", "hostport", ["a", "ab", "a.b", "a.bc", "a-b"], "/"),
    ],
)
def test_the_same_fault_names_the_same_rule_anywhere_in_a_field(
    prefix: str, rule: str, middles: list[str], suffix: str
) -> None:
    for middle in middles:
        assert_names(f"{prefix}{middle}~{suffix}", rule)


def assert_names(text: str, rule: str) -> None:
    """Both parsers put the error of ``text`` at its ``~``, in ``rule``."""
    for parser in ("fast", "reference"):
        with pytest.raises(rfc1738.URLSyntaxError) as caught:
            rfc1738.parse(text, parser=parser)  # type: ignore[arg-type]
        assert (caught.value.position, caught.value.rule) == (text.index("~"), rule), text


# ---- inside a literal ----


@pytest.mark.parametrize(
    ("text", "position", "expected", "rule", "reason"),
    [
        (
            "ftp://h/a;b",
            10,
            '";type="',
            "ftpurl",
            "unexpected character 'b' (U+0062): expected the rest of \";type=\" after ';'",
        ),
        (
            "ftp://h/a;typ",
            13,
            '";type="',
            "ftpurl",
            "unexpected end of the URL: expected the rest of \";type=\" after ';typ'",
        ),
        (
            "http:x",
            5,
            '"http://"i',
            "httpurl",
            "unexpected character 'x' (U+0078): "
            "expected the rest of \"http://\" (any case) after 'http:'",
        ),
        (
            "wais:/h/db",
            6,
            '"wais://"i',
            "waisurl",
            "unexpected character 'h' (U+0068): "
            "expected the rest of \"wais://\" (any case) after 'wais:/'",
        ),
    ],
)
def test_an_error_inside_a_literal_names_the_literal_and_its_production(
    text: str, position: int, expected: str, rule: str, reason: str
) -> None:
    for parser in ("fast", "reference"):
        with pytest.raises(rfc1738.URLSyntaxError) as caught:
            rfc1738.parse(text, parser=parser)  # type: ignore[arg-type]
        error = caught.value
        assert (error.position, error.expected, error.rule) == (
            position,
            frozenset({expected}),
            rule,
        )
        assert error.reason.startswith(reason), error.reason


@pytest.mark.parametrize("text", ["gopher://h/1sel%9", "gopher://h/1sel%0x", "gopher://h/1sel%"])
def test_a_literal_that_begins_with_percent_cut_short_is_an_escape_cut_short(text: str) -> None:
    """``"%09"`` begun is an escape begun: the error is at its ``%``, in the selector."""
    for parser in ("fast", "reference"):
        with pytest.raises(rfc1738.URLSyntaxError) as caught:
            rfc1738.parse(text, parser=parser)  # type: ignore[arg-type]
        error = caught.value
        assert (error.position, error.rule) == (15, "selector")
        assert {'"%09"', "XCHAR"} <= error.expected
        assert "'%' must begin an escape" in error.reason


# ---- the messages ----


def test_a_fragment_points_to_parse_reference() -> None:
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        rfc1738.parse("http://h/a#b")
    assert caught.value.position == 10
    assert "fragment" in caught.value.reason
    assert "not part of an RFC 1738 URL" in caught.value.reason
    assert "rfc1738.parse_reference" in str(caught.value)


def test_a_case_insensitive_literal_is_said_in_words() -> None:
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        rfc1738.parse("file:/etc/passwd")
    assert caught.value.expected == frozenset({'"file://"i'})  # the grammar's spelling
    assert caught.value.reason == (
        "unexpected character 'e' (U+0065): expected the rest of \"file://\" (any case) "
        "after 'file:/'"
    )


#: Lark's notation: a literal's flag, its name for the end of input, its rule names.
LARK_NOTATION = re.compile(r'"[^"\s]+"i\b|\$END|__\w+_(?:star|plus)_\d+|common__')


@pytest.mark.parametrize(
    "case", [case for scheme in SCHEMES for case in REJECT[scheme]], ids=case_id
)
@pytest.mark.parametrize("parser", ["fast", "reference"])
def test_no_lark_notation_in_any_message(case: Case, parser: str) -> None:
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        rfc1738.parse(case.url, parser=parser)  # type: ignore[arg-type]
    assert not LARK_NOTATION.search(str(caught.value)), str(caught.value)


def test_the_docs_show_real_errors() -> None:
    results = run_examples(DOCS / "parsers.md")
    assert results.attempted >= 3
    assert results.failed == 0


# ---- the automaton's data ----


@pytest.mark.parametrize("scheme", SCHEMES)
def test_data_is_plain_literals_and_loads_to_the_same_automaton(scheme: str) -> None:
    built = shipped().dispatch.explainer.automaton(scheme)
    assert built is not None
    data = built.to_data()
    assert ast.literal_eval(repr(data)) == data
    loaded = ErrorAutomaton.from_data(ast.literal_eval(repr(data)))
    assert loaded.to_data() == data
    for case in (*REJECT[scheme], *ACCEPT[scheme]):
        assert loaded.error(case.url) == built.error(case.url)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_loop_that_skips_the_ends_finds_the_same_last_end(case: Case) -> None:
    # _last_end looks at where tokens end only where the text stops; the loop
    # that keeps the last end on the way is what it stands for. Cut-short
    # prefixes stop inside escapes and literals, where it falls back to that loop.
    found = automaton(case.url)
    texts = (case.url, *mutations(case.url, 8, seed=2))
    prefixes = [whole[:cut] for whole in texts[:2] for cut in range(len(whole))]
    for text in (*texts, *prefixes):
        assert found._last_end(text) == found._last_end_slowly(text), text


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_no_url_holds_a_character_outside_its_automatons_alphabet(case: Case) -> None:
    # The explanation skips matching the generic expression when the character
    # at the error is outside the generic automaton's alphabet.
    grammar = shipped()
    for text in (case.url, *mutations(case.url, 8, seed=3)):
        scheme = grammar.scheme_file(text).scheme
        for name in {scheme, "generic"}:
            alphabet = automaton_of(name).alphabet()
            if not alphabet.issuperset(text):
                assert grammar.engine(name).pattern.fullmatch(text) is None, (name, text)
        if set(text) <= automaton_of("generic").alphabet():
            continue
        assert grammar.dispatch.explainer._generic_reader()(text) is None, text


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_alphabet_read_from_the_data_is_the_automatons(scheme: str) -> None:
    data = automaton_of(scheme).to_data()
    assert ErrorAutomaton.data_alphabet(data) == ErrorAutomaton.from_data(data).alphabet()
    assert ErrorAutomaton.data_alphabet(data) == automaton_of(scheme).alphabet()


def automaton_of(scheme: str) -> ErrorAutomaton:
    found = shipped().dispatch.explainer.automaton(scheme)
    assert found is not None
    return found


def test_data_of_another_version_is_refused() -> None:
    """The automaton's data has the version of the tables it is in (their FORMAT), checked there."""
    built = shipped().dispatch.explainer.automaton("ftp")
    assert built is not None
    tables = tables_data(Tables("k", {"ftp": shipped().dispatch.table("ftp")}, {}))
    assert read_checked(tables).schemes["ftp"].automaton == built.to_data()
    tables["schemes"]["ftp"]["automaton"] = {**built.to_data(), "version": 1}
    with pytest.raises(ValueError, match="malformed"):
        read_checked(tables)


def test_long_input_gets_the_full_details() -> None:
    text = "http://h/" + "a/" * 5000 + "~"
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        rfc1738.parse(text)
    assert (caught.value.position, caught.value.rule) == (len(text) - 1, "hsegment")
    assert "UCHAR" in caught.value.expected


def test_errors_from_loaded_data_import_no_lark(tmp_path: Path) -> None:
    tables = tmp_path / "tables.py"
    tables.write_text(module_text(shipped().tables.tables, "DATA"), encoding="utf-8")
    script = """
import sys
sys.path.insert(0, sys.argv[1])
from tables import DATA
from rfc1738.errors import URLSyntaxError
from rfc1738.runtime.automaton import ErrorAutomaton
from rfc1738.runtime.tables import module_text
automaton = ErrorAutomaton.from_data(DATA["schemes"]["http"]["automaton"])
error = URLSyntaxError("http://h/a~", *automaton.error("http://h/a~"))
assert error.rule == "hsegment" and str(error)
print("lark" in sys.modules)
"""
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False"
