"""Parsers from an edited copy of the grammar: new schemes, and grammars that are not regular."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir


@pytest.fixture
def grammar_copy(tmp_path: Path) -> Path:
    directory = tmp_path / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    return directory


def test_a_new_scheme_file_parses_its_urls_as_generic_urls(grammar_copy: Path) -> None:
    (grammar_copy / "afs.lark").write_text(
        "// AFS (RFC 1738 section 4 names it). Start rule: afsurl.\n"
        "%import .common (ip_schemepart, login, hostport, host, hostname, domainlabel,"
        " toplabel, alphadigit, hostnumber, port, user, password, urlpath, digits)\n"
        '// BNF: afsurl = "afs:" ip-schemepart   (not in RFC 1738)\n'
        'afsurl: "afs:"i ip_schemepart\n',
        encoding="utf-8",
    )
    grammar = rfc1738.load(grammar_copy)
    for parser in ("fast", "reference"):
        url = grammar.parse("afs://cell.example/usr/lib", parser=parser)
        assert isinstance(url, rfc1738.GenericURL)
        assert (url.scheme, url.host, url.urlpath) == ("afs", "cell.example", "usr/lib")
    # The scheme's own production now decides: the generic one no longer rescues it.
    assert rfc1738.is_valid("afs:opaque")
    assert not grammar.is_valid("afs:opaque")
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        grammar.parse("afs:opaque")
    assert (caught.value.position, caught.value.rule) == (4, "ip_schemepart")


def test_a_grammar_that_is_not_regular_is_served_by_the_reference_parser(
    grammar_copy: Path,
) -> None:
    (grammar_copy / "nest.lark").write_text(
        "// A scheme whose production refers back to itself. Start rule: nesturl.\n"
        '// BNF: nesturl = "nest:" item   (not in RFC 1738)\n'
        'nesturl: "nest:" item\n'
        '// BNF: item = "(" item ")" | "x"   (not in RFC 1738)\n'
        'item: "(" item ")" | "x"\n',
        encoding="utf-8",
    )
    grammar = rfc1738.load(grammar_copy)
    assert grammar.is_valid("nest:((x))")
    assert not grammar.is_valid("nest:((x)")
    url = grammar.parse("nest:((x))")
    assert isinstance(url, rfc1738.GenericURL)
    assert url.schemepart == "((x))"
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        grammar.parse("nest:(y)")
    assert caught.value.position == 6
    # The other schemes keep their compiled expressions.
    assert grammar.parse("http://h/").host == "h"


def test_the_reference_parser_bound_is_per_grammar() -> None:
    grammar = rfc1738.load(max_reference_length=20)
    assert grammar.parse_tree("http://h/abc").data == "httpurl"
    with pytest.raises(rfc1738.InputTooLongError, match="at most 20 characters"):
        grammar.parse_tree("http://h/" + "a" * 20)
    # The fast parser has no bound; errors past it come from the prefix search.
    assert grammar.parse("http://h/" + "a" * 20).path == "a" * 20
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        grammar.parse("http://h/" + "a" * 20 + " ")
    assert caught.value.position == 29
