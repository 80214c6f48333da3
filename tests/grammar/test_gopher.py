"""The gopherurl production (RFC 1738 sections 3.4 and 5): cases and tree shapes."""

from __future__ import annotations

import rfc1738
from tests.grammar.helpers import case_tests, subtrees, text_of

(
    test_accepts,
    test_rejects,
    test_reject_says_what_was_expected,
    test_reject_rule_and_expected,
) = case_tests("gopher")


def test_empty_gopher_path() -> None:
    tree = rfc1738.parse_tree("gopher://host.com/")
    assert subtrees(tree, "gtype") == []


def test_gtype_alone() -> None:
    tree = rfc1738.parse_tree("gopher://h:70/1")
    (gtype,) = subtrees(tree, "gtype")
    assert text_of(gtype) == "1"
    # selector is optional and may be empty: absent and empty read the same
    # string, and the tree may give either.
    assert [text_of(s) for s in subtrees(tree, "selector")] in ([], [""])
    assert subtrees(tree, "search") == []


def test_gtype_may_be_an_escape() -> None:
    tree = rfc1738.parse_tree("gopher://h/%2F")
    (gtype,) = subtrees(tree, "gtype")
    assert text_of(gtype) == "%2F"


def test_fields_around_tab_escapes() -> None:
    # The grammar is ambiguous: a selector is *xchar and %09 is an xchar, so
    # the tree may split at a later %09 than section 3.4 says (the builder
    # splits at the first and second). Only what holds for every reading is
    # checked: the type, and the fields joined by their %09 separators.
    tree = rfc1738.parse_tree("gopher://h/1sel%09search%09plus")
    (gtype,) = subtrees(tree, "gtype")
    assert text_of(gtype) == "1"
    fields = [
        text_of(sub)
        for sub in tree.iter_subtrees_topdown()
        if sub.data in ("selector", "search", "gopher_plus_string")
    ]
    assert "%09".join(fields) == "sel%09search%09plus"
