"""The fileurl production (RFC 1738 sections 3.10 and 5): cases and tree shapes."""

from __future__ import annotations

import rfc1738
from tests.grammar.helpers import case_tests, subtrees, text_of

(
    test_accepts,
    test_rejects,
    test_reject_says_what_was_expected,
    test_reject_rule_and_expected,
) = case_tests("file")


def test_empty_host() -> None:
    tree = rfc1738.parse_tree("file:///etc/passwd")
    assert subtrees(tree, "host") == []
    assert [text_of(s) for s in subtrees(tree, "fsegment")] == ["etc", "passwd"]


def test_localhost_is_read_once() -> None:
    # "localhost" is both a host and the literal of fileurl: the grammar is
    # ambiguous here, and either reading means this machine (section 3.10).
    tree = rfc1738.parse_tree("file://localhost/etc/motd")
    hosts = [text_of(h) for h in subtrees(tree, "host")]
    literals = [c for c in tree.children if not hasattr(c, "data") and c == "localhost"]
    assert hosts + literals == ["localhost"]


def test_section_3_10_example() -> None:
    tree = rfc1738.parse_tree("file://vms.host.edu/disk$user/my/notes/note12345.txt")
    (host,) = subtrees(tree, "host")
    assert text_of(host) == "vms.host.edu"
    segments = [text_of(s) for s in subtrees(tree, "fsegment")]
    assert segments == ["disk$user", "my", "notes", "note12345.txt"]
