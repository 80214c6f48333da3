"""The mailtourl production (RFC 1738 sections 3.5 and 5): cases and tree shapes."""

from __future__ import annotations

import rfc1738
from tests.grammar.helpers import case_tests, subtrees, text_of

(
    test_accepts,
    test_rejects,
    test_reject_says_what_was_expected,
    test_reject_rule_and_expected,
) = case_tests("mailto")


def test_the_whole_rest_is_the_address() -> None:
    tree = rfc1738.parse_tree("mailto:a%25b@h?x=/y")
    (address,) = subtrees(tree, "encoded822addr")
    assert text_of(address) == "a%25b@h?x=/y"
