"""The httpurl production (RFC 1738 sections 3.3 and 5): cases and tree shapes."""

from __future__ import annotations

import rfc1738
from tests.grammar.helpers import case_tests, subtrees, text_of

(
    test_accepts,
    test_rejects,
    test_reject_says_what_was_expected,
    test_reject_rule_and_expected,
) = case_tests("http")


def test_host_alone_has_no_path() -> None:
    tree = rfc1738.parse_tree("http://h")
    assert subtrees(tree, "hpath") == []
    assert subtrees(tree, "search") == []


def test_search_after_empty_path() -> None:
    tree = rfc1738.parse_tree("http://h/?q")
    (hpath,) = subtrees(tree, "hpath")
    assert [text_of(s) for s in subtrees(hpath, "hsegment")] == [""]
    (search,) = subtrees(tree, "search")
    assert text_of(search) == "q"


def test_segments_split_at_slash_not_at_escape() -> None:
    tree = rfc1738.parse_tree("http://h/a%2Fb/c")
    assert [text_of(s) for s in subtrees(tree, "hsegment")] == ["a%2Fb", "c"]


def test_hostnumber_and_port() -> None:
    tree = rfc1738.parse_tree("http://192.0.2.1:8080/")
    (host,) = subtrees(tree, "host")
    assert [sub.data for sub in host.children] == ["hostnumber"]
    (port,) = subtrees(tree, "port")
    assert text_of(port) == "8080"


def test_hostname_labels() -> None:
    tree = rfc1738.parse_tree("http://www.ex-ample.com/")
    labels = [text_of(s) for s in subtrees(tree, "domainlabel")]
    assert labels == ["www", "ex-ample"]
    (top,) = subtrees(tree, "toplabel")
    assert text_of(top) == "com"


def test_tree_covers_the_whole_url() -> None:
    url = "HTTP://h.com:80/a;b/c?d=e"
    assert text_of(rfc1738.parse_tree(url)) == url
