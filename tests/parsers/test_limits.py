"""Bounded compilation: a grammar past the compiler's limits is refused, one just under works.

Each limit of :mod:`rfc1738.compile.limits` has the reproducer of issue 19 that
went past it (run in a fresh interpreter under a timeout: before the limits,
they took from 22 seconds to minutes, or gigabytes, or raised
``RecursionError``), and a grammar just under it that loads and parses.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.compile.limits import (
    MAX_DEPTH,
    MAX_LITERAL,
    MAX_REPEAT,
    MAX_SIZE,
    MAX_STATES,
    GrammarLimitError,
)

#: How long a refusal may take in a fresh interpreter, import and Lark included,
#: before the test fails (a hang would otherwise hold the suite; the refusals
#: take about a second on a busy machine).
TIMEOUT = 60


def edited(tmp_path: Path, search: str, more: str = "") -> Path:
    """A copy of the shipped grammar whose http ``search`` is ``search`` (and ``more`` rules)."""
    copy = tmp_path / "grammar"
    shutil.copytree(shipped_grammar_dir(), copy)
    path = copy / "http.lark"
    lines = path.read_text(encoding="utf-8").splitlines()
    (found,) = [n for n, line in enumerate(lines) if line.startswith("search:")]
    lines[found] = f"search: {search}"
    path.write_text("\n".join([*lines, more]) + "\n", encoding="utf-8")
    return copy


def refusal(directory: Path, then: str = "") -> str:
    """The message of the GrammarError ``load(directory)`` (then ``then``) raises, in a fresh
    interpreter under :data:`TIMEOUT`."""
    code = (
        "import sys, rfc1738\n"
        "try:\n"
        f"    grammar = rfc1738.load(sys.argv[1]){then}\n"
        "except rfc1738.GrammarError as error:\n"
        "    print(type(error).__name__, error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(directory)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=True,
    )
    return done.stdout


def chain(count: int) -> tuple[str, str]:
    """``search`` as the first of ``count`` rules each naming the next."""
    rules = "\n".join(f"link{n}: link{n + 1}" for n in range(count - 1))
    return "link0", f'{rules}\nlink{count - 1}: "a"'


# ---- past each limit: the reproducers ----


@pytest.mark.parametrize("length", [10_000, 1_000_000])
def test_a_long_literal_is_refused_at_load(tmp_path: Path, length: int) -> None:
    message = refusal(edited(tmp_path, '"' + "a" * length + '"'))
    assert message.startswith("GrammarLimitError")
    assert "rule search: a literal of" in message
    assert f"the limit is {MAX_LITERAL:,} (MAX_LITERAL)" in message


def test_a_repetition_of_repetitions_is_refused_at_load(tmp_path: Path) -> None:
    # ("a"~1000)~1000: a million characters written out; took 112 s and 2.9 GB.
    message = refusal(edited(tmp_path, '("a"~1000)~1000'))
    assert f"rule search: it holds more than {MAX_SIZE:,} characters" in message
    assert "(MAX_SIZE)" in message


def test_a_large_repetition_count_is_refused_at_load(tmp_path: Path) -> None:
    message = refusal(edited(tmp_path, f'"a"~{MAX_REPEAT + 1}'))
    assert f"rule search: a repetition of {MAX_REPEAT + 1:,}" in message
    assert "(MAX_REPEAT)" in message


def test_an_error_automaton_past_its_states_is_refused_on_first_use(tmp_path: Path) -> None:
    # ("a"|"b")* "a" and 14 ("a"|"b"): the automaton that knows the 15th
    # character from the end needs 2^15 states; the subset construction took 25 s.
    directory = edited(tmp_path, '("a"|"b")* "a" ' + '("a"|"b") ' * 14)
    message = refusal(directory, then='.is_valid("http://h/?ab")')
    assert message.startswith("GrammarLimitError")
    assert f"rule httpurl: its error automaton has more than {MAX_STATES:,} states" in message


def test_a_long_chain_of_rules_is_refused_at_load(tmp_path: Path) -> None:
    # 600 rules each naming the next raised RecursionError.
    first, rules = chain(600)
    message = refusal(edited(tmp_path, first, rules))
    assert f"rules and parentheses nested more than {MAX_DEPTH} deep" in message
    assert "rule link" in message


@pytest.mark.parametrize("depth", [300, 3000])
def test_deeply_nested_parentheses_are_refused_at_load(tmp_path: Path, depth: int) -> None:
    # 300 levels raised RecursionError in the adapter's reading of Lark's
    # trees; 3000 in Lark's own loader: either way the rule is named.
    message = refusal(edited(tmp_path, "(" * depth + '"a"' + ")" * depth))
    assert message.startswith("GrammarLimitError")
    assert f"rule search: parentheses nested more than {MAX_DEPTH} deep" in message


def test_the_error_is_a_grammar_error_naming_the_file(tmp_path: Path) -> None:
    directory = edited(tmp_path, '"' + "a" * (MAX_LITERAL + 1) + '"')
    with pytest.raises(rfc1738.GrammarError) as caught:
        rfc1738.load(directory)
    assert isinstance(caught.value, GrammarLimitError)
    assert caught.value.rule == "search"
    assert caught.value.file is not None and caught.value.file.endswith(".lark")


# ---- just under each limit: the grammar works ----


def test_a_literal_of_the_longest_length_works(tmp_path: Path) -> None:
    text = "a" * MAX_LITERAL
    grammar = rfc1738.load(edited(tmp_path, f'"{text}"'))
    assert grammar.parse(f"http://h/?{text}").search == text
    assert not grammar.is_valid(f"http://h/?{text[1:]}")


def test_a_repetition_of_the_largest_count_works(tmp_path: Path) -> None:
    grammar = rfc1738.load(edited(tmp_path, f'"a"~{MAX_REPEAT}'))
    assert grammar.is_valid("http://h/?" + "a" * MAX_REPEAT)
    assert not grammar.is_valid("http://h/?" + "a" * (MAX_REPEAT - 1))


def test_a_rule_just_under_the_size_works(tmp_path: Path) -> None:
    # 2,800 characters written out (wais's start rule adds 105 to what search holds).
    grammar = rfc1738.load(edited(tmp_path, '("a"~100)~28'))
    assert MAX_SIZE - 2_800 > 105
    assert grammar.is_valid("http://h/?" + "a" * 2_800)
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        grammar.parse("http://h/?" + "a" * 2_799 + "b")
    assert caught.value.position == len("http://h/?") + 2_799


def test_an_error_automaton_just_under_its_states_works(tmp_path: Path) -> None:
    # 2^11 states and a few: under MAX_STATES.
    grammar = rfc1738.load(edited(tmp_path, '("a"|"b")* "a" ' + '("a"|"b") ' * 10))
    assert grammar.is_valid("http://h/?" + "b" * 5 + "a" + "b" * 10)
    assert not grammar.is_valid("http://h/?" + "b" * 5 + "a" + "b" * 11)
    automaton = grammar.dispatch.explainer.automaton("http")
    assert automaton is not None
    assert len(grammar.dispatch.table("http").automaton["rows"]) <= MAX_STATES


def test_a_chain_of_rules_just_under_the_depth_works(tmp_path: Path) -> None:
    first, rules = chain(MAX_DEPTH - 20)
    grammar = rfc1738.load(edited(tmp_path, first, rules))
    for parser in ("fast", "reference"):
        assert grammar.parse("http://h/?a", parser=parser).search == "a"


def test_parentheses_just_under_the_depth_work(tmp_path: Path) -> None:
    depth = MAX_DEPTH - 20
    grammar = rfc1738.load(edited(tmp_path, "(" * depth + '"a"' + ")" * depth))
    for parser in ("fast", "reference"):
        assert grammar.parse("http://h/?a", parser=parser).search == "a"
