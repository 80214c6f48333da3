"""The nntpurl production (RFC 1738 sections 3.7 and 5): cases and tree shapes."""

from __future__ import annotations

import rfc1738
from tests.grammar.helpers import case_tests, subtrees, text_of

(
    test_accepts,
    test_rejects,
    test_reject_says_what_was_expected,
    test_reject_rule_and_expected,
) = case_tests("nntp")


def test_group_without_article_number() -> None:
    tree = rfc1738.parse_tree("nntp://news.example.com/comp.lang.python")
    assert [text_of(g) for g in subtrees(tree, "group")] == ["comp.lang.python"]
    # The only digits are the article number's; the host has none.
    assert subtrees(tree, "digits") == []


def test_group_and_article_number() -> None:
    tree = rfc1738.parse_tree("nntp://h:119/comp.lang.python/42")
    assert [text_of(g) for g in subtrees(tree, "group")] == ["comp.lang.python"]
    (port,) = subtrees(tree, "port")
    article = [d for d in tree.children if getattr(d, "data", None) == "digits"]
    assert [text_of(port), *map(text_of, article)] == ["119", "42"]
