"""Property tests: every string a scheme's grammar generates is a URL of that scheme.

Strings come from the grammar files themselves through
``hypothesis.extra.lark.from_lark``. It ignores rule priorities (which only
choose between parse trees, not which strings are URLs) and turns each
terminal into a regular expression; Lark writes ``"http://"i`` as
``(?i:http://)``, from which Hypothesis draws ASCII case variants only
(``HtTp://``), so every scheme's case-insensitive literal gets exercised.
"""

from __future__ import annotations

import time
from functools import cache

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

import rfc1738
from rfc1738.bnf.files import scheme_files, shipped_grammar_dir
from tests.budget import examples
from tests.cases import SCHEMES, START
from tests.grammar.helpers import text_of

#: Longer strings are skipped: Earley's cost grows faster than linearly.
MAX_LENGTH = 300
PREDEFINED = frozenset(SCHEMES) - {"generic"}


@cache
def urls(scheme: str) -> st.SearchStrategy[str]:
    """Strings the scheme's start rule generates, at most MAX_LENGTH long."""
    entry = scheme_files(shipped_grammar_dir())[scheme]
    grammar = Lark.open(str(entry.path), start=entry.start, parser="earley", lexer="dynamic")
    return from_lark(grammar, start=entry.start).filter(lambda s: len(s) <= MAX_LENGTH)


@pytest.mark.parametrize("scheme", SCHEMES)
@settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_generated_strings_are_urls_of_their_scheme(scheme: str, data: st.DataObject) -> None:
    text = data.draw(urls(scheme), label="url")
    if scheme == "generic":
        # genericurl generates any scheme name, "ftp" too, and a predefined
        # scheme's URL must match that scheme's production (SCHEMES.md).
        assume(text.partition(":")[0].lower() not in PREDEFINED)
    tree = rfc1738.parse_tree(text)
    assert tree.data == START[scheme]
    assert text_of(tree) == text


def test_cases_cover_every_shipped_grammar_file() -> None:
    assert set(scheme_files(shipped_grammar_dir())) == set(SCHEMES)


def test_longer_than_the_bound_is_refused_quickly() -> None:
    text = "http://h/" + "a" * rfc1738.MAX_REFERENCE_LENGTH
    began = time.perf_counter()
    with pytest.raises(rfc1738.InputTooLongError) as caught:
        rfc1738.parse_tree(text)
    assert time.perf_counter() - began < 0.5
    assert isinstance(caught.value, rfc1738.URLSyntaxError)
    assert isinstance(caught.value, ValueError)
    assert caught.value.text == text


def test_at_the_bound_is_parsed() -> None:
    text = "http://h/" + "a" * (rfc1738.MAX_REFERENCE_LENGTH - len("http://h/"))
    assert len(text) == rfc1738.MAX_REFERENCE_LENGTH
    assert rfc1738.parse_tree(text).data == "httpurl"


@pytest.mark.parametrize("value", [b"http://h/", None, 42, ["http://h/"]], ids=repr)
def test_not_a_str_is_a_type_error(value: object) -> None:
    with pytest.raises(TypeError):
        rfc1738.parse_tree(value)  # type: ignore[arg-type]
