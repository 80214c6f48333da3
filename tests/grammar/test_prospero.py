"""The prosperourl production (RFC 1738 sections 3.11 and 5): cases and tree shapes."""

from __future__ import annotations

import rfc1738
from tests.grammar.helpers import case_tests, subtrees, text_of

(
    test_accepts,
    test_rejects,
    test_reject_says_what_was_expected,
    test_reject_rule_and_expected,
) = case_tests("prospero")


def test_hsoname_of_the_section_3_11_example() -> None:
    tree = rfc1738.parse_tree("prospero://host.dom//pros/name")
    (ppath,) = subtrees(tree, "ppath")
    assert text_of(ppath) == "/pros/name"
    assert [text_of(s) for s in subtrees(ppath, "psegment")] == ["", "pros", "name"]


def test_field_value_pairs() -> None:
    tree = rfc1738.parse_tree("prospero://h/a;f=v;g=")
    pairs = [
        (text_of(subtrees(spec, "fieldname")[0]), text_of(subtrees(spec, "fieldvalue")[0]))
        for spec in subtrees(tree, "fieldspec")
    ]
    assert pairs == [("f", "v"), ("g", "")]
