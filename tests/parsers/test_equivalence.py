"""The fast and the reference parser agree: same verdict, same spans, same objects.

Both are generated from the same grammar files; these tests hold them to it on
every case of the project's test data and on strings generated from the
grammar itself, with mutations that push them off the grammar's edge.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

import rfc1738
from rfc1738 import Grammar
from rfc1738.runtime.spans import Spans, spans_from_tree
from tests.budget import examples
from tests.cases import ACCEPT, GRAMMAR_ONLY, REJECT

GRAMMAR = Grammar()
SCHEMES = sorted(GRAMMAR.files)

#: Characters mutations insert: the grammar's own, and those it forbids.
MUTATION_CHARS = st.sampled_from(list('%09aZ.-+:/@;?=&*!#~ \t\n\\[]<>"é\u212a\u017f\x00'))


def verdicts(text: str) -> tuple[Spans | None, Spans | None]:
    """What each parser makes of ``text`` under the start rule its scheme picks."""
    entry = GRAMMAR.scheme_file(text)
    scheme = entry.scheme
    productions = GRAMMAR.url_class(scheme).PRODUCTIONS
    fast = GRAMMAR.engine(scheme).spans(text)
    try:
        tree = GRAMMAR.dispatch.reference_parser(scheme).parse(text, entry.start)
    except rfc1738.URLSyntaxError:
        reference = None
    else:
        reference = spans_from_tree(tree, productions)
    return fast, reference


def all_cases() -> list[tuple[str, str]]:
    found = []
    for table in (ACCEPT, REJECT, GRAMMAR_ONLY):
        for scheme, cases in table.items():
            found.extend((scheme, case.url) for case in cases)
    return found


@pytest.mark.parametrize(("scheme", "text"), all_cases())
def test_parsers_agree_on_test_data(scheme: str, text: str) -> None:
    fast, reference = verdicts(text)
    assert fast == reference


@pytest.mark.parametrize(("scheme", "text"), all_cases())
def test_objects_agree_on_test_data(scheme: str, text: str) -> None:
    outcomes = []
    for parser in ("fast", "reference"):
        try:
            outcomes.append(rfc1738.parse(text, parser=parser))
        except rfc1738.URLSyntaxError as error:
            outcomes.append((error.position, error.expected, error.rule, error.reason))
    assert outcomes[0] == outcomes[1]


def generated(scheme: str) -> st.SearchStrategy[str]:
    entry = GRAMMAR.files[scheme]
    lark = GRAMMAR.dispatch.reference_parser(scheme).lark(entry.start)
    return from_lark(lark, start=entry.start).filter(lambda s: len(s) <= 300)


def mutated(strings: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    @st.composite
    def mutate(draw: st.DrawFn) -> str:
        text = draw(strings)
        where = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["insert", "delete", "replace"]))
        char = draw(MUTATION_CHARS)
        if how == "insert":
            return text[:where] + char + text[where:]
        if how == "delete":
            return text[:where] + text[where + 1 :]
        return text[:where] + char + text[where + 1 :]

    return mutate()


SETTINGS = settings(
    max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck)
)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_parsers_agree_on_generated_urls(scheme: str) -> None:
    @SETTINGS
    @given(generated(scheme))
    def check(text: str) -> None:
        if GRAMMAR.scheme_file(text).scheme != scheme:
            return  # a generic URL whose scheme has a production of its own
        fast, reference = verdicts(text)
        assert reference is not None, "the grammar generated a string Earley rejects"
        assert fast == reference

    check()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_parsers_agree_on_mutated_urls(scheme: str) -> None:
    @SETTINGS
    @given(mutated(generated(scheme)))
    def check(text: str) -> None:
        fast, reference = verdicts(text)
        assert fast == reference

    check()
