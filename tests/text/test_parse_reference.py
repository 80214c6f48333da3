"""rfc1738.parse_reference: a URL and its fragment (the 1994 W3 grammar's fragmentaddress)."""

from __future__ import annotations

import pytest

import rfc1738
from rfc1738 import HttpURL, InputTooLongError, URLSyntaxError, parse_reference
from rfc1738.bnf.files import w3_1994_grammar_dir
from rfc1738.compile.pipeline import CompiledFile
from rfc1738.text.fragments import check_fragment, fragment_grammar_file


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("http://ds.internic.net/instructions/overview.html#WARNING", "WARNING"),
        ("http://h/", None),  # no "#": no fragment
        ("http://h/#a%20b", "a%20b"),
        ("http://h/#a b", "a b"),  # W3's extra holds the space
        ("http://h/#x@y.z&$-_!*\"'():;,", "x@y.z&$-_!*\"'():;,"),
        ("ftp://h/pub;type=d#top", "top"),
        ("x-cvs://h/src#HEAD", "HEAD"),
    ],
)
def test_valid(text: str, fragment: str | None) -> None:
    url, found = parse_reference(text)
    assert found == fragment
    assert str(url) == text.split("#")[0]


@pytest.mark.parametrize(
    ("text", "position", "rule"),
    [
        ("http://h/#", 10, "xalphas"),  # fragmentid = xalphas: one or more
        ("http://h/#a#b", 11, "xalphas"),  # a second "#"
        ("http://h/#a/b", 11, "xalphas"),  # W3's xalpha has no "/", "?", "=", "+"
        ("http://h/#a?b", 11, "xalphas"),
        ("http://h/#a+b", 11, "xalphas"),
        ("http://h/#%4g", 10, "xalphas"),  # an escape cut short
        ("http://h/#caf\u00e9", 13, "xalphas"),
    ],
)
def test_fragment_errors_are_positioned_in_the_whole_text(
    text: str, position: int, rule: str
) -> None:
    with pytest.raises(URLSyntaxError) as caught:
        parse_reference(text)
    error = caught.value
    assert (error.text, error.position, error.rule) == (text, position, rule)
    assert "XALPHA" in error.expected
    assert error.picture().endswith(" " * (position + 2) + "^")


def test_url_errors_are_positioned_in_the_whole_text() -> None:
    text = "http://user@host/#top"
    with pytest.raises(URLSyntaxError) as caught:
        parse_reference(text)
    assert caught.value.text == text
    assert caught.value.position == 11
    assert caught.value.rule == "httpurl"


def test_url_error_without_fragment_is_parse_error() -> None:
    with pytest.raises(URLSyntaxError) as caught:
        parse_reference("http://h/a b")
    assert (caught.value.text, caught.value.position) == ("http://h/a b", 10)


def test_long_fragment_is_linear() -> None:
    fragment = "a" * 1_000_000
    assert parse_reference("http://h/#" + fragment)[1] == fragment
    with pytest.raises(URLSyntaxError) as caught:
        parse_reference("http://h/#" + fragment + "/")
    assert caught.value.position == 10 + len(fragment)
    assert not isinstance(caught.value, InputTooLongError)


def test_options_pass_through() -> None:
    url, fragment = parse_reference("http://h:99999/#x", host_checks=False)
    assert isinstance(url, HttpURL) and url.port == 99999 and fragment == "x"
    url, _ = parse_reference("http://h/#x", parser="reference")
    assert url == rfc1738.parse("http://h/")


def test_type_error() -> None:
    with pytest.raises(TypeError):
        parse_reference(None)  # type: ignore[arg-type]


# ---- the fragment grammar is the W3 grammar's ----


@pytest.mark.parametrize("terminal", ["XALPHA", "ALPHA", "DIGIT", "SAFE", "EXTRA", "HEX"])
def test_fragment_file_copies_the_w3_characters(terminal: str) -> None:
    copy = CompiledFile(fragment_grammar_file())
    w3 = CompiledFile(w3_1994_grammar_dir() / "common.lark")
    assert copy.terminal_chars(terminal) == w3.terminal_chars(terminal)


@pytest.mark.parametrize(
    "fragment", ["WARNING", "a b", "%41", "", "a#", "a/b", "%4", "x" * 30, "@@", "é"]
)
def test_fragment_check_agrees_with_the_w3_reference_parser(fragment: str) -> None:
    """The compiled fragmentid accepts what W3's recursive fragmentid does (Earley)."""
    from rfc1738.runtime.reference import ReferenceParser

    w3 = ReferenceParser(w3_1994_grammar_dir() / "common.lark")
    try:
        w3.parse(fragment, "fragmentid")
    except URLSyntaxError as error:
        problem = check_fragment(fragment)
        assert problem is not None and problem.position == error.position
    else:
        assert check_fragment(fragment) is None


def test_fragment_grammar_ships_with_the_package() -> None:
    """The installed package holds grammars/fragment/fragment.lark (package data)."""
    from pathlib import Path

    checkout = Path(__file__).resolve().parents[2] / "grammars" / "fragment" / "fragment.lark"
    installed = fragment_grammar_file()
    assert installed.is_file()
    assert installed.read_bytes() == checkout.read_bytes()
