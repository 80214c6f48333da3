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

__all__ = ["case_tests", "subtrees", "text_of"]

_Test = Callable[[Case], None]


def case_tests(scheme: str) -> tuple[_Test, _Test, _Test]:
    """The accept, reject and error-detail tests of one scheme's cases.

    Accept cases (``GRAMMAR_ONLY`` too: the bare grammar takes them) parse
    with the scheme's start rule at the root; reject cases raise
    :class:`rfc1738.URLSyntaxError` with a position inside the URL, the rule
    that was being matched and, unless the URL ended early, what the grammar
    expected instead.
    """
    start = START[scheme]

    @pytest.mark.parametrize("case", ACCEPT[scheme] + GRAMMAR_ONLY.get(scheme, []), ids=case_id)
    def test_accepts(case: Case) -> None:
        tree = rfc1738.parse_tree(case.url)
        assert tree.data == start, case.reason

    @pytest.mark.parametrize("case", REJECT[scheme], ids=case_id)
    def test_rejects(case: Case) -> None:
        with pytest.raises(rfc1738.URLSyntaxError) as caught:
            rfc1738.parse_tree(case.url)
        error = caught.value
        assert error.text == case.url
        assert 0 <= error.position <= len(case.url), case.reason
        assert error.rule, case.reason

    @pytest.mark.parametrize("case", REJECT[scheme], ids=case_id)
    def test_reject_says_what_was_expected(case: Case) -> None:
        with pytest.raises(rfc1738.URLSyntaxError) as caught:
            rfc1738.parse_tree(case.url)
        error = caught.value
        if error.position < len(case.url):
            assert error.expected, case.reason

    return test_accepts, test_rejects, test_reject_says_what_was_expected


def subtrees(tree: Tree[Token], name: str) -> list[Tree[Token]]:
    """The subtrees named ``name``, in the order they appear in the URL."""
    return [sub for sub in tree.iter_subtrees_topdown() if sub.data == name]


def text_of(tree: Tree[Token]) -> str:
    """The characters of the URL a subtree covers (every token is kept)."""
    return "".join(str(token) for token in tree.scan_values(lambda v: isinstance(v, Token)))
