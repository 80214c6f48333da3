"""The ftpurl production (RFC 1738 sections 3.2 and 5): cases and tree shapes."""

from __future__ import annotations

import rfc1738
from tests.grammar.helpers import case_tests, subtrees, text_of

(
    test_accepts,
    test_rejects,
    test_reject_says_what_was_expected,
    test_reject_rule_and_expected,
) = case_tests("ftp")


def test_empty_user_name_and_no_password() -> None:
    # Section 3.1: <URL:ftp://@host.com/> has an empty user name and no password.
    tree = rfc1738.parse_tree("ftp://@host.com/")
    (user,) = subtrees(tree, "user")
    assert user.children == []
    assert subtrees(tree, "password") == []


def test_no_user_name() -> None:
    tree = rfc1738.parse_tree("ftp://host.com/")
    assert subtrees(tree, "user") == []
    assert subtrees(tree, "password") == []


def test_user_name_and_empty_password() -> None:
    tree = rfc1738.parse_tree("ftp://foo:@host.com/")
    (user,) = subtrees(tree, "user")
    assert text_of(user) == "foo"
    (password,) = subtrees(tree, "password")
    assert password.children == []


def test_password_with_empty_user_name() -> None:
    tree = rfc1738.parse_tree("ftp://:pw@h/")
    assert [text_of(s) for s in subtrees(tree, "user")] == [""]
    assert [text_of(s) for s in subtrees(tree, "password")] == ["pw"]


def segments(url: str) -> list[str]:
    return [text_of(s) for s in subtrees(rfc1738.parse_tree(url), "fsegment")]


def test_segments_of_the_section_3_2_2_examples() -> None:
    assert segments("ftp://myname@host.dom/%2Fetc/motd") == ["%2Fetc", "motd"]
    assert segments("ftp://myname@host.dom/etc/motd") == ["etc", "motd"]
    assert segments("ftp://myname@host.dom//etc/motd") == ["", "etc", "motd"]


def test_typecode() -> None:
    tree = rfc1738.parse_tree("ftp://info.cern.ch/pub/www/doc;type=d")
    (ftptype,) = subtrees(tree, "ftptype")
    assert text_of(ftptype) == "d"
    assert [text_of(s) for s in subtrees(tree, "fsegment")] == ["pub", "www", "doc"]


def test_no_url_path() -> None:
    tree = rfc1738.parse_tree("ftp://host.com")
    assert subtrees(tree, "fpath") == []
