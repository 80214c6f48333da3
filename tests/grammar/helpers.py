"""What every scheme's grammar tests check, and small readers of parse trees.

:func:`case_tests` makes the three parametrized tests each ``test_<scheme>.py``
runs over ``tests/cases.py``; the tree readers serve the targeted tests.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from lark import Token, Tree

import rfc1738
from tests.cases import ACCEPT, GRAMMAR_ONLY, REJECT, START, Case, case_id

__all__ = ["PARSERS", "case_tests", "error_of", "subtrees", "text_of"]

_Test = Callable[..., None]


#: The two parsers whose errors are checked against each case's own expectation.
PARSERS = ("fast", "reference")


def error_of(url: str, parser: str) -> rfc1738.URLSyntaxError:
    """The error ``rfc1738.parse`` raises for ``url`` with ``parser``."""
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        rfc1738.parse(url, parser=parser)  # type: ignore[arg-type]
    return caught.value


def _detailed(cases: list[Case]) -> list[object]:
    """The cases that state their rule and expected items; where ``wrong`` says
    the parsers fall short, a strict expected failure."""
    return [
        pytest.param(case, marks=pytest.mark.xfail(reason=case.wrong, strict=True))
        if case.wrong
        else case
        for case in cases
        if case.rule is not None or case.expected is not None
    ]


def case_tests(scheme: str) -> tuple[_Test, _Test, _Test, _Test]:
    """The accept, reject and error-detail tests of one scheme's cases.

    Accept cases (``GRAMMAR_ONLY`` too: the bare grammar takes them) parse
    with the scheme's start rule at the root; reject cases raise
    :class:`rfc1738.URLSyntaxError` at the position the case states
    (``at``), from the fast parser and the reference parser alike, and,
    unless the URL ended early, say what the grammar expected instead. Cases
    that state their ``rule`` and ``expected`` items are held to them too.
    """
    start = START[scheme]

    @pytest.mark.parametrize("case", ACCEPT[scheme] + GRAMMAR_ONLY.get(scheme, []), ids=case_id)
    def test_accepts(case: Case) -> None:
        tree = rfc1738.parse_tree(case.url)
        assert tree.data == start, case.reason

    @pytest.mark.parametrize("parser", PARSERS)
    @pytest.mark.parametrize("case", REJECT[scheme], ids=case_id)
    def test_rejects(case: Case, parser: str) -> None:
        error = error_of(case.url, parser)
        assert error.text == case.url
        assert error.position == case.at, case.reason
        assert error.rule, case.reason

    @pytest.mark.parametrize("case", REJECT[scheme], ids=case_id)
    def test_reject_says_what_was_expected(case: Case) -> None:
        with pytest.raises(rfc1738.URLSyntaxError) as caught:
            rfc1738.parse_tree(case.url)
        error = caught.value
        if error.position < len(case.url):
            assert error.expected, case.reason

    @pytest.mark.parametrize("parser", PARSERS)
    @pytest.mark.parametrize("case", _detailed(REJECT[scheme]), ids=case_id)
    def test_reject_rule_and_expected(case: Case, parser: str) -> None:
        error = error_of(case.url, parser)
        if case.rule is not None:
            assert error.rule == case.rule, case.reason
        if case.expected is not None:
            assert error.expected == case.expected, case.reason

    return (
        test_accepts,
        test_rejects,
        test_reject_says_what_was_expected,
        test_reject_rule_and_expected,
    )


def subtrees(tree: Tree[Token], name: str) -> list[Tree[Token]]:
    """The subtrees named ``name``, in the order they appear in the URL."""
    return [sub for sub in tree.iter_subtrees_topdown() if sub.data == name]


def text_of(tree: Tree[Token]) -> str:
    """The characters of the URL a subtree covers (every token is kept)."""
    return "".join(str(token) for token in tree.scan_values(lambda v: isinstance(v, Token)))
