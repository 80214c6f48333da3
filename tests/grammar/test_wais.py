"""The waisurl production (RFC 1738 sections 3.9 and 5): cases and tree shapes."""

from __future__ import annotations

import pytest

import rfc1738
from tests.grammar.helpers import case_tests, subtrees, text_of

(
    test_accepts,
    test_rejects,
    test_reject_says_what_was_expected,
    test_reject_rule_and_expected,
) = case_tests("wais")


@pytest.mark.parametrize(
    ("url", "form"),
    [
        ("wais://h/db", "waisdatabase"),
        ("wais://h:210/db?query", "waisindex"),
        ("wais://h/db/TEXT/0123abc", "waisdoc"),
    ],
)
def test_three_forms(url: str, form: str) -> None:
    tree = rfc1738.parse_tree(url)
    assert [child.data for child in tree.children] == [form]


def test_document_fields() -> None:
    tree = rfc1738.parse_tree("wais://h/db/TEXT/0123abc")
    fields = [text_of(subtrees(tree, name)[0]) for name in ("database", "wtype", "wpath")]
    assert fields == ["db", "TEXT", "0123abc"]
