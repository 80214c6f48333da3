"""The newsurl production (RFC 1738 sections 3.6 and 5): cases and tree shapes."""

from __future__ import annotations

import rfc1738
from tests.grammar.helpers import case_tests, subtrees, text_of

(
    test_accepts,
    test_rejects,
    test_reject_says_what_was_expected,
    test_reject_rule_and_expected,
) = case_tests("news")


def test_every_group() -> None:
    tree = rfc1738.parse_tree("news:*")
    (grouppart,) = subtrees(tree, "grouppart")
    assert text_of(grouppart) == "*"
    assert subtrees(tree, "group") == subtrees(tree, "article") == []


def test_group() -> None:
    tree = rfc1738.parse_tree("news:comp.infosystems.www")
    assert [text_of(g) for g in subtrees(tree, "group")] == ["comp.infosystems.www"]
    assert subtrees(tree, "article") == []


def test_article_is_told_by_its_at_sign() -> None:
    tree = rfc1738.parse_tree("news:foo.bar$1@news.example.com")
    assert subtrees(tree, "group") == []
    (article,) = subtrees(tree, "article")
    (host,) = subtrees(article, "host")
    assert text_of(host) == "news.example.com"
