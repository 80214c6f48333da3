"""The telneturl production (RFC 1738 sections 3.8 and 5): cases and tree shapes."""

from __future__ import annotations

import rfc1738
from tests.grammar.helpers import case_tests, subtrees, text_of

(
    test_accepts,
    test_rejects,
    test_reject_says_what_was_expected,
    test_reject_rule_and_expected,
) = case_tests("telnet")


def test_user_password_port_and_final_slash() -> None:
    tree = rfc1738.parse_tree("telnet://user:password@host.com:23/")
    assert [text_of(s) for s in subtrees(tree, "user")] == ["user"]
    assert [text_of(s) for s in subtrees(tree, "password")] == ["password"]
    assert [text_of(s) for s in subtrees(tree, "port")] == ["23"]
    assert tree.children[-1] == "/"


def test_without_final_slash() -> None:
    tree = rfc1738.parse_tree("telnet://host.com")
    assert [child.data for child in tree.children[1:]] == ["login"]
