"""The linear matcher: the route of a scheme whose expression may backtrack.

It must give what Python's ``re`` gives for the expression the compiler
writes (verdict and groups), so that a scheme's objects are the same
whichever route serves it; on the edited grammars it serves, the same as the
reference parser (Earley, the oracle) gives; and reproducer 4 of issue 19
must finish.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.compile.emit import backtracking_ways, runs_in_linear_time, write_regex
from rfc1738.compile.ir import Alt, Chars, Group, Lit, Rep, Seq
from rfc1738.compile.thompson import matcher_data
from rfc1738.runtime import linear
from rfc1738.runtime.engines import Engine
from rfc1738.runtime.linear import LinearMatcher
from tests.budget import examples
from tests.cases import ACCEPT, GRAMMAR_ONLY, REJECT

SHIPPED = rfc1738.shipped()
SCHEMES = sorted(SHIPPED.files)

#: Characters mutations insert: the grammar's own, and those it forbids.
MUTATION_CHARS = st.sampled_from(list("%09aAbZ!.-+:/@;?=&*#~ \t\\[]<>é\x00"))

SETTINGS = settings(
    max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck)
)

#: How long a reproducer may take in a fresh interpreter before the test fails.
TIMEOUT = 60


def edited(directory: Path, file: str, rule: str, definition: str) -> rfc1738.Grammar:
    """A copy of the shipped grammar in ``directory`` with ``rule`` of ``file`` defined anew."""
    copy = directory / "grammar"
    shutil.copytree(shipped_grammar_dir(), copy)
    path = copy / file
    lines = path.read_text(encoding="utf-8").splitlines()
    (found,) = [n for n, line in enumerate(lines) if line.startswith(f"{rule}:")]
    lines[found] = f"{rule}: {definition}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return rfc1738.load(copy)


def mutated(strings: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    @st.composite
    def mutate(draw: st.DrawFn) -> str:
        text = draw(strings)
        where = draw(st.integers(0, len(text)))
        char = draw(MUTATION_CHARS)
        how = draw(st.sampled_from(["insert", "delete", "replace"]))
        if how == "insert":
            return text[:where] + char + text[where:]
        if how == "delete":
            return text[:where] + text[where + 1 :]
        return text[:where] + char + text[where + 1 :]

    return mutate()


def generated(grammar: rfc1738.Grammar, scheme: str) -> st.SearchStrategy[str]:
    entry = grammar.files[scheme]
    lark = grammar.dispatch.reference_parser(scheme).lark(entry.start)
    return from_lark(lark, start=entry.start).filter(lambda text: len(text) <= 200)


# ---- the matcher gives what re gives ----


def matchers(scheme: str) -> tuple[Engine, LinearMatcher]:
    """The shipped scheme's expression, and a linear matcher of the same tree."""
    table = SHIPPED.dispatch.table(scheme)
    tree = SHIPPED.tables.compiled_file(scheme).ir(table.start, table.capture)
    return SHIPPED.engine(scheme), LinearMatcher.from_data(matcher_data(tree))


def all_spans(fast: Engine, text: str) -> dict[str, tuple[int, int]] | None:
    """The spans of every production ``fast``'s expression captures."""
    assert fast.pattern is not None
    match = fast.pattern.fullmatch(text)
    if match is None:
        return None
    found: dict[str, tuple[int, int]] = {}
    for group, number in sorted(fast.pattern.groupindex.items(), key=lambda item: item[1]):
        production = group.partition("__")[0]
        if match.start(number) >= 0 and production not in found:
            found[production] = match.span(number)
    return found


def agree_with_re(scheme: str) -> Callable[[str], None]:
    fast, matcher = matchers(scheme)

    def check(text: str) -> None:
        expected = all_spans(fast, text)
        assert matcher.spans(text) == expected
        assert matcher.matches(text) == (expected is not None)

    return check


def case_texts() -> list[str]:
    return [
        case.url
        for table in (ACCEPT, REJECT, GRAMMAR_ONLY)
        for cases in table.values()
        for case in cases
    ]


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_matcher_gives_the_groups_re_gives_on_the_test_data(scheme: str) -> None:
    check = agree_with_re(scheme)
    for text in case_texts():
        check(text)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_matcher_gives_the_groups_re_gives_on_generated_urls(scheme: str) -> None:
    check = agree_with_re(scheme)

    @SETTINGS
    @given(generated(SHIPPED, scheme) | mutated(generated(SHIPPED, scheme)))
    def run(text: str) -> None:
        check(text)

    run()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_viable_prefix_is_the_prefix_expressions(scheme: str) -> None:
    _fast, matcher = matchers(scheme)
    for text in case_texts():
        error = SHIPPED.dispatch.explainer._prefix_error(text, SHIPPED.files[scheme])
        assert error is not None
        assert matcher.viable_prefix(text) == error.position


def test_options_and_loops_take_the_way_re_takes() -> None:
    # Where the language allows several readings, re's: the first option that
    # leads to a match, each loop as many iterations as lead to one.
    a, b = Chars(frozenset("a")), Chars(frozenset("b"))
    node = Seq(
        (
            Group("first", Rep(Alt((a, Lit("ab"))), 0, None)),
            Group("second", Rep(Alt((b, Lit("ba"))), 0, None)),
            Rep(a, 0, 1),
        )
    )
    matcher = LinearMatcher.from_data(matcher_data(node))
    pattern = re.compile(write_regex(node)[0])
    for text in ["", "a", "ab", "aba", "abab", "abba", "aabba", "babab", "ababa", "abc"]:
        match = pattern.fullmatch(text)
        expected = (
            None
            if match is None
            else {n: match.span(n) for n in ("first", "second") if match.start(n) >= 0}
        )
        assert matcher.spans(text) == expected, text


def test_the_matcher_keeps_a_bounded_number_of_states(monkeypatch: pytest.MonkeyPatch) -> None:
    # Past its bound it begins again: the same answers, no more states kept.
    monkeypatch.setattr(linear, "MAX_KEPT_STATES", 4)
    fast, matcher = matchers("ftp")
    for text in case_texts()[:200]:
        assert matcher.spans(text) == all_spans(fast, text)
        assert all(len(kept) <= 4 for kept in matcher._kept)


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"version": 0},
        {"nodes": (), "start": 0, "groups": ()},
        {"nodes": (("match", None, ()),), "start": 1, "groups": ()},
        {
            "nodes": (("char", "a", (5,)), ("match", None, ())),
            "start": 0,
            "groups": (),
        },
        {
            "nodes": (("open", 3, (1,)), ("match", None, ())),
            "start": 0,
            "groups": ("host",),
        },
        {
            "nodes": (("eval", "x", (1,)), ("match", None, ())),
            "start": 0,
            "groups": (),
        },
    ],
)
def test_malformed_matcher_data_is_refused(data: object) -> None:
    with pytest.raises(ValueError):
        LinearMatcher.from_data(data)


# ---- the route ----


def test_the_ways_of_the_shapes_that_backtrack() -> None:
    a = Chars(frozenset("a"))
    nested = Seq((Rep(Rep(a, 1, None), 1, None), Lit("ab")))
    adjacent = Seq((*(Rep(a, 0, None) for _ in range(6)), Lit("!!")))
    overlapping = Rep(Alt((a, Lit("ab"))), 0, None)
    for node in (nested, adjacent, overlapping):
        assert not runs_in_linear_time(node)
    assert runs_in_linear_time(Seq((Rep(a, 0, None), Lit("!!"))))
    # a?a?!!: the first may give its a back to the second, which never gives it back.
    assert backtracking_ways(Seq((Rep(a, 0, 1), Rep(a, 0, 1), Lit("!!")))) == 2
    assert backtracking_ways(Seq((Rep(a, 0, 1), Rep(a, 0, 1), Rep(a, 0, 1), a))) == 8


# ---- edited grammars: the reference parser agrees ----

#: Edited rules whose expressions backtrack, and URLs that go through them.
EDITS = {
    "nested loops": ("http.lark", "search", '("a"+)+ "b"', ["http://h/?aab", "http://h:80/p?b"]),
    "six adjacent loops": (
        "http.lark",
        "search",
        'ALPHA* ALPHA* ALPHA* ALPHA* ALPHA* ALPHA* "!"',
        ["http://h/?Ab!", "http://h/p/q?!", "http://h/?ab"],
    ),
    "overlapping options": (
        "http.lark",
        "hsegment",
        '( UCHAR | ";" | ":" | "@" | "&" | "=" | "ab" | "ba" )*',
        ["http://h/abab/ba?x", "http://h/aba;b/", "http://h/ab%zz"],
    ),
}


def outcome(grammar: rfc1738.Grammar, text: str, parser: str) -> object:
    try:
        url = grammar.parse(text, parser=parser)  # type: ignore[arg-type]
    except rfc1738.URLSyntaxError as error:
        return (error.position, error.expected, error.rule)
    return (type(url), url.to_dict())


@pytest.fixture(scope="module", params=sorted(EDITS))
def edit(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[rfc1738.Grammar, list[str]]:
    file, rule, definition, urls = EDITS[request.param]
    grammar = edited(tmp_path_factory.mktemp("edit"), file, rule, definition)
    assert grammar.engine("http").matcher is not None
    return grammar, urls


def test_edited_grammars_agree_with_the_reference_parser(
    edit: tuple[rfc1738.Grammar, list[str]],
) -> None:
    grammar, urls = edit
    for text in urls:
        assert outcome(grammar, text, "fast") == outcome(grammar, text, "reference"), text


def test_edited_grammars_agree_with_the_reference_parser_on_generated_urls(
    edit: tuple[rfc1738.Grammar, list[str]],
) -> None:
    grammar, _urls = edit

    @SETTINGS
    @given(generated(grammar, "http") | mutated(generated(grammar, "http")))
    def run(text: str) -> None:
        assert outcome(grammar, text, "fast") == outcome(grammar, text, "reference")

    run()


def test_an_error_past_the_reference_bound_is_found_by_the_matcher(
    edit: tuple[rfc1738.Grammar, list[str]],
) -> None:
    grammar, urls = edit
    text = urls[0] + "~" + "a" * rfc1738.MAX_REFERENCE_LENGTH
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        grammar.parse(text)
    assert caught.value.position <= len(urls[0])
    short = urls[0] + "~"
    assert outcome(grammar, short, "fast") == outcome(grammar, short, "reference")


# ---- reproducer 4 ----


def finishes(directory: Path, call: str) -> str:
    """What ``call`` on ``load(directory)`` prints, in a fresh interpreter under :data:`TIMEOUT`."""
    code = f"import sys, rfc1738\ngrammar = rfc1738.load(sys.argv[1])\nprint({call})\n"
    done = subprocess.run(
        [sys.executable, "-c", code, str(directory)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=True,
    )
    return done.stdout.strip()


def test_nested_loops_finish(tmp_path: Path) -> None:
    # (?:a+)+b took 4 s on 26 a's, twice as long with each more: hours on 40.
    grammar = edited(tmp_path, "http.lark", "search", '("a"+)+ "b"')
    text = "http://h/?" + "a" * 40 + "c"
    assert finishes(grammar.directory, f"grammar.is_valid({text!r})") == "False"
    assert (
        finishes(grammar.directory, f"grammar.parse({text[:-1] + 'b'!r}).search") == "a" * 40 + "b"
    )


def test_six_adjacent_loops_finish(tmp_path: Path) -> None:
    # Did not finish in 120 s on 3,000 characters.
    grammar = edited(
        tmp_path, "http.lark", "search", 'ALPHA* ALPHA* ALPHA* ALPHA* ALPHA* ALPHA* "!"'
    )
    text = "http://h/?" + "A" * 3_000
    assert finishes(grammar.directory, f"grammar.is_valid({text!r})") == "False"
    assert finishes(grammar.directory, f"len(grammar.parse({text + '!'!r}).search)") == "3001"
