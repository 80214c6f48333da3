"""rfc1738.strategies: the URLs it draws are URLs, and its near-misses raise what they say."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.resources import files

import pytest
from hypothesis import HealthCheck, find, given, settings

import rfc1738
from rfc1738.strategies import KINDS, InvalidURL, Kind, invalid_urls, urls

SCHEMES = sorted(rfc1738.shipped().files)
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("scheme", SCHEMES)
def test_urls_are_urls_of_their_scheme_for_both_parsers(scheme: str) -> None:
    @SETTINGS
    @given(urls(scheme))
    def check(text: str) -> None:
        # With the host checks: labels, names, hostnumber parts and ports in range.
        url = rfc1738.parse(text)
        assert type(url) is rfc1738.CLASSES[scheme]
        assert str(url) == text
        assert rfc1738.parse(text, parser="reference") == url

    check()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_urls_of_any_scheme_include_each_scheme(scheme: str) -> None:
    # find(), not counting draws: Hypothesis draws the branches of one_of unevenly.
    found = find(urls(), lambda text: rfc1738.shipped().scheme_file(text).scheme == scheme)
    assert type(rfc1738.parse(found)) is rfc1738.CLASSES[scheme]


def test_urls_with_a_port_and_a_hostnumber_are_drawn() -> None:
    # The host checks keep only ports and octets in range, not only URLs without them.
    with_port = find(urls("http"), lambda text: rfc1738.parse(text).port is not None)
    assert rfc1738.HttpURL.parse(with_port).port is not None
    pattern = re.compile(rfc1738.export("python").schemes["http"].pattern)

    def has_number(text: str) -> bool:
        match = pattern.fullmatch(text)
        return match is not None and match.group("hostnumber") is not None

    assert has_number(find(urls("http"), has_number))


@pytest.mark.parametrize("kind", KINDS)
def test_near_misses_raise_the_error_they_say(kind: Kind) -> None:
    @SETTINGS
    @given(invalid_urls(kinds=[kind]))
    def check(miss: InvalidURL) -> None:
        assert miss.kind == kind
        assert rfc1738.is_valid(miss.valid)
        for parser in ("fast", "reference"):
            with pytest.raises(rfc1738.URLSyntaxError) as caught:
                rfc1738.parse(miss.text, parser=parser)
            assert caught.value.position == miss.position, (parser, miss, caught.value)
            if miss.rule is not None:
                assert caught.value.rule == miss.rule, (parser, miss, caught.value)
        if kind == "character":
            at = miss.position
            assert miss.text[:at] + miss.text[at + 1 :] == miss.valid
        else:
            # The host checks refuse it; the grammar takes it.
            assert rfc1738.is_valid(miss.text, host_checks=False)

    check()


def test_near_misses_of_one_scheme_are_of_that_scheme() -> None:
    @SETTINGS
    @given(invalid_urls("ftp"))
    def check(miss: InvalidURL) -> None:
        assert rfc1738.FtpURL.parse(miss.valid)

    check()


def test_an_edited_grammar_draws_its_own_schemes_and_characters(edited: rfc1738.Grammar) -> None:
    afs = find(urls("afs", edited), lambda text: True)
    assert edited.scheme_file(afs).scheme == "afs"
    assert edited.parse_tree(afs).data == "afsurl"
    tilde = find(urls("http", edited), lambda text: "~" in text)
    assert edited.is_valid(tilde)
    assert not rfc1738.is_valid(tilde)


def test_an_edited_grammars_near_misses(edited: rfc1738.Grammar) -> None:
    @SETTINGS
    @given(invalid_urls(grammar=edited))
    def check(miss: InvalidURL) -> None:
        # "~" is a character of this grammar: never inserted as one it refuses.
        if miss.kind == "character":
            assert miss.text[miss.position] != "~"
        with pytest.raises(rfc1738.URLSyntaxError) as caught:
            edited.parse(miss.text)
        assert caught.value.position == miss.position

    check()


def test_a_grammar_the_compiler_refuses_draws_urls_but_no_near_misses() -> None:
    w3 = rfc1738.load(str(files("rfc1738") / "grammars" / "w3-1994"))
    assert w3.is_valid(find(urls("http", w3), lambda text: True))
    with pytest.raises(ValueError, match="error automaton"):
        invalid_urls(grammar=w3)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: urls("afs"), "no grammar file for scheme 'afs'"),
        (lambda: invalid_urls(kinds=["typo"]), "kinds must be some of"),  # type: ignore[list-item]
        (lambda: invalid_urls(kinds=[]), "kinds must be some of"),
        (lambda: invalid_urls("mailto", kinds=["port"]), "no URL of mailto has a part"),
    ],
)
def test_what_cannot_be_drawn_is_refused_at_once(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]


def test_import_rfc1738_imports_neither_hypothesis_nor_pydantic() -> None:
    code = (
        "import sys, rfc1738; rfc1738.parse('http://h/'); "
        "print(sorted(m for m in ('hypothesis', 'pydantic', 'lark') if m in sys.modules))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"
