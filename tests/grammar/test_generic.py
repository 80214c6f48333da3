"""The genericurl production (RFC 1738 sections 2.1, 4 and 5): cases and tree shapes."""

from __future__ import annotations

import pytest

import rfc1738
from tests.grammar.helpers import case_tests, subtrees, text_of

(
    test_accepts,
    test_rejects,
    test_reject_says_what_was_expected,
    test_reject_rule_and_expected,
) = case_tests("generic")


def test_login_urlpath_schemepart() -> None:
    tree = rfc1738.parse_tree("tn3270://u:p@host.com:23/a/b")
    (ip,) = subtrees(tree, "ip_schemepart")
    assert [text_of(s) for s in subtrees(ip, "user")] == ["u"]
    assert [text_of(s) for s in subtrees(ip, "password")] == ["p"]
    assert [text_of(s) for s in subtrees(ip, "host")] == ["host.com"]
    assert [text_of(s) for s in subtrees(ip, "urlpath")] == ["a/b"]


@pytest.mark.parametrize("url", ["x-foo:bar", "x-foo://not_a_host/", "foo:"])
def test_opaque_schemepart(url: str) -> None:
    tree = rfc1738.parse_tree(url)
    assert subtrees(tree, "ip_schemepart") == []
    (schemepart,) = subtrees(tree, "schemepart")
    assert text_of(schemepart) == url.partition(":")[2]


def test_scheme_is_kept_as_written() -> None:
    tree = rfc1738.parse_tree("HTTPS://WWW.EXAMPLE.COM/")
    (scheme,) = subtrees(tree, "scheme")
    assert text_of(scheme) == "HTTPS"


@pytest.mark.parametrize("url", ["http:h", "ftp:x", "NEWS:/", "mailto:"])
def test_generic_does_not_rescue_a_predefined_scheme(url: str) -> None:
    # SCHEMES.md: a URL of a predefined scheme must match that scheme's
    # production, though genericurl alone would take it.
    with pytest.raises(rfc1738.URLSyntaxError):
        rfc1738.parse_tree(url)
