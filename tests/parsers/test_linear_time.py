"""Linear time for every grammar the compiler accepts, on inputs built to defeat it.

For every loop of every compiled start rule of the grammars the tests use
(the shipped ``grammar/``, ``grammars/w3-1994`` where it compiles,
``grammars/fragment``, and edited copies with the shapes that make a
backtracking matcher slow: nested loops, six adjacent ``ALPHA*``, options that
overlap inside a loop), :mod:`tests.parsers.adversarial` builds texts that
repeat the loop's items, and this checks how the time of ``is_valid``,
``parse`` and an error's explanation grows from 10,000 to 100,000
characters: about 10 times where the cost is linear, 100 times where it is
quadratic, and beyond measure where it is exponential. Ratios with a margin,
never absolute times (docs/parsers.md, "No input makes it slow").
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

import rfc1738
from rfc1738.bnf.files import package_data, scheme_files, shipped_grammar_dir
from rfc1738.compile.pipeline import CompiledFile
from rfc1738.text.fragments import FRAGMENT_RULE, check_fragment, fragment_grammar_file

from .adversarial import Adversarial, growth, inputs

SMALL, LARGE = 10_000, 100_000

#: The most the time may grow from SMALL to LARGE characters (10 times the
#: text): linear is about 10, quadratic about 100 (a busy machine's noise
#: was seen at 30 on a linear cost once, measured at 10 again).
MAX_GROWTH = 40

#: Edited copies of the shipped grammar: file, rule, its new definition. Each
#: is written by the compiler as an expression a backtracking matcher can take
#: exponential (or, six loops, sixth-power) time on.
EDITS = {
    "nested loops": ("http.lark", "search", '("a"+)+ "b"'),
    "six adjacent loops": ("http.lark", "search", 'ALPHA* ALPHA* ALPHA* ALPHA* ALPHA* ALPHA* "!"'),
    "overlapping options": (
        "http.lark",
        "hsegment",
        '( UCHAR | ";" | ":" | "@" | "&" | "=" | "ab" | "ba" )*',
    ),
}

W3_1994 = package_data("grammars", "w3-1994")


def edit(directory: Path, file: str, rule: str, definition: str) -> Path:
    """``directory`` with ``rule`` of ``file`` defined anew (the line that defines it replaced)."""
    path = directory / file
    lines = path.read_text(encoding="utf-8").splitlines()
    (found,) = [n for n, line in enumerate(lines) if line.startswith(f"{rule}:")]
    lines[found] = f"{rule}: {definition}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return directory


@cache
def grammar(name: str) -> rfc1738.Grammar:
    """The edited copy of the shipped grammar ``name`` stands for (written once)."""
    copy = Path(tempfile.mkdtemp(prefix="rfc1738-linear-")) / "grammar"
    shutil.copytree(shipped_grammar_dir(), copy)
    return rfc1738.load(edit(copy, *EDITS[name]))


SHIPPED_SCHEMES = sorted(scheme_files(shipped_grammar_dir()))


def explained(parse: Callable[[str], object]) -> Callable[[str], object]:
    """What an invalid text costs: ``parse`` raising, and the error's message read."""

    def call(text: str) -> object:
        try:
            return parse(text)
        except rfc1738.URLSyntaxError as error:
            return str(error)

    return call


def too_slow(call: Callable[[str], object], case: Adversarial) -> str | None:
    """Why ``call`` grows too fast on ``case`` (measured thrice before it counts), else ``None``."""
    small, large = case.text(SMALL), case.text(LARGE)
    ratio = growth(call, small, large)
    for _again in range(2):
        if ratio <= MAX_GROWTH:
            return None
        ratio = min(ratio, growth(call, small, large))  # a busy machine, or the cost
    return None if ratio <= MAX_GROWTH else f"{case.label}: {ratio:.0f}x"


def slow_loops(loaded: rfc1738.Grammar, scheme: str, label: str) -> list[str]:
    """The adversarial inputs of every loop of ``scheme`` on which a call grows too fast."""
    table = loaded.dispatch.table(scheme)
    tree = loaded.tables.compiled_file(scheme).ir(table.start, table.capture)
    cases = inputs(tree, label)
    assert cases, "a start rule with loops"
    slow = []
    for case in cases:
        if case.valid:
            # The texts reach the loop they are about: the long valid one parses.
            assert loaded.is_valid(case.text(SMALL), host_checks=False), case.label
            calls = [loaded.is_valid, lambda text: loaded.parse(text, host_checks=False)]
        else:
            calls = [loaded.is_valid, explained(loaded.parse)]
        slow.extend(filter(None, (too_slow(call, case) for call in calls)))
    return slow


@pytest.mark.parametrize("scheme", SHIPPED_SCHEMES)
def test_time_grows_linearly_on_every_loop_of_the_shipped_grammar(scheme: str) -> None:
    assert not slow_loops(rfc1738.shipped(), scheme, scheme)


@pytest.mark.parametrize("name", EDITS)
def test_time_grows_linearly_on_every_loop_of_an_edited_grammar(name: str) -> None:
    # The schemes whose expression the edit changed (those that use the rule).
    loaded, shipped = grammar(name), rfc1738.shipped()
    changed = [
        scheme
        for scheme in sorted(loaded.files)
        if loaded.dispatch.table(scheme).expression != shipped.dispatch.table(scheme).expression
    ]
    assert "http" in changed
    slow = [found for scheme in changed for found in slow_loops(loaded, scheme, scheme)]
    assert not slow


def test_no_scheme_of_the_w3_1994_grammar_compiles() -> None:
    # Its xalphas refers back to itself in every file: the reference parser
    # serves each scheme, within its bound; there is no loop to time.
    loaded = rfc1738.load(W3_1994)
    assert all(loaded.dispatch.table(scheme).expression is None for scheme in loaded.files)


def test_the_fragment_grammar_checks_in_linear_time() -> None:
    compiled = CompiledFile(fragment_grammar_file())
    cases = inputs(compiled.ir(FRAGMENT_RULE), "fragment")
    assert cases
    for case in cases:
        assert (check_fragment(case.text(SMALL)) is None) == case.valid, case.label
    assert not list(filter(None, (too_slow(check_fragment, case) for case in cases)))


@pytest.mark.parametrize("name", EDITS)
def test_the_edited_shapes_are_served_by_the_linear_matcher(name: str) -> None:
    # Their expressions would backtrack: the compiler gives their schemes the
    # linear matcher; the schemes that do not use the edited rule keep theirs.
    loaded = grammar(name)
    assert loaded.dispatch.table("http").matcher is not None
    assert loaded.dispatch.table("ftp").matcher is None
    assert loaded.engine("ftp").matcher is None


def test_the_shipped_grammar_keeps_its_expressions() -> None:
    shipped = rfc1738.shipped()
    assert all(shipped.dispatch.table(scheme).matcher is None for scheme in shipped.files)
