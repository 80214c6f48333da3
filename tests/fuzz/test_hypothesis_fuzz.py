"""Hostile input: every ``str`` gives a URL or ``URLSyntaxError``, and both parsers agree.

The property is in :mod:`tests.fuzz.properties` (``parse``, ``is_valid``, the
reference parser, ``parse_reference``, ``find_urls``). Inputs: strings the grammar
generates (Hypothesis ``from_lark`` over each scheme's file) and mutations of
them, arbitrary text, arbitrary code points (NUL, lone surrogates, characters
beyond the BMP), and strings of about 100 kB made by repeating a piece of a
generated URL; for ``find_urls``, generated URLs in running text (bare, in
``<URL:...>`` or ``<...>``, broken across lines, with fragments). A non-``str``
gets a ``TypeError``. The same property holds for an edited grammar
(``tests/fuzz/edited.py``: a login in http, a new scheme, loops only the linear
matcher serves), on its own generated and mutated strings.

The budget fits ``make test``; ``make fuzz`` runs the same property under
atheris for as long as one wants.
"""

from __future__ import annotations

import tempfile
import time
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

import rfc1738
from rfc1738 import Grammar
from tests.cases import SCHEMES as FORMS
from tests.fuzz.edited import write_edited_grammar
from tests.fuzz.properties import check_all
from tests.grammar.oracle import automaton_error, earley_error

GRAMMAR = Grammar()
SCHEMES = sorted(GRAMMAR.files)

#: Characters mutations insert: the grammar's own, those it forbids, look-alikes.
MUTATION_CHARS = list(
    '%09aAzZ.-+:/@;?=&*!$#~ \t\r\n\x00\x7f\\[]<>"^`{|}'
    "\u00e9\u00a0\u212a\u017f\u0131\u0660\uff10\uff1a\ufeff\u200b\udc80\U0001f600"
)

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))

#: Every code point, surrogates included.
ANY_CHAR = st.integers(0, 0x10FFFF).map(chr)

#: How the strings of arbitrary characters begin: nothing, or a scheme.
PREFIXES = st.sampled_from(
    ["", *(f"{s}://" for s in FORMS if s != "generic"), "mailto:", "news:", "x-a://", "h:"]
)


#: Longest string the error automaton is held to Earley on (Earley's cost grows fast).
ORACLE_LENGTH = 300


def check_all_and_oracle(text: str) -> None:
    """:func:`check_all`, and the error automaton's answer is the Earley oracle's."""
    check_all(text)
    if len(text) <= ORACLE_LENGTH:
        assert automaton_error(text) == earley_error(text), text


@cache
def generated(
    scheme: str, longest: int = 300, grammar: Grammar = GRAMMAR
) -> st.SearchStrategy[str]:
    entry = grammar.files[scheme]
    lark = grammar.dispatch.reference_parser(scheme).lark(entry.start)
    return from_lark(lark, start=entry.start).filter(lambda s: len(s) <= longest)


@cache
def edited() -> Grammar:
    """The edited grammar of ``tests/fuzz/edited.py``, loaded once."""
    return rfc1738.load(write_edited_grammar(Path(tempfile.mkdtemp(prefix="rfc1738-fuzz-"))))


@st.composite
def mutated(draw: st.DrawFn, strings: st.SearchStrategy[str]) -> str:
    """A string with one to three insertions, deletions or replacements."""
    text = draw(strings)
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["insert", "delete", "replace", "swap"]))
        char = draw(st.sampled_from(MUTATION_CHARS) | ANY_CHAR)
        if how == "insert":
            text = text[:where] + char + text[where:]
        elif how == "delete":
            text = text[:where] + text[where + 1 :]
        elif how == "replace":
            text = text[:where] + char + text[where + 1 :]
        else:  # swap the case of one letter: schemes ignore case, nothing else does
            text = text[:where] + text[where : where + 1].swapcase() + text[where + 1 :]
    return text


@pytest.mark.parametrize("scheme", SCHEMES)
def test_generated_urls(scheme: str) -> None:
    @SETTINGS
    @given(generated(scheme))
    def check(text: str) -> None:
        check_all_and_oracle(text)

    check()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_mutated_urls(scheme: str) -> None:
    @SETTINGS
    @given(mutated(generated(scheme)))
    def check(text: str) -> None:
        check_all_and_oracle(text)

    check()


@pytest.mark.parametrize("scheme", ["http", "afs", "loops"])
def test_an_edited_grammar(scheme: str) -> None:
    grammar = edited()
    strings = generated(scheme, grammar=grammar)

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(strings | mutated(strings))
    def check(text: str) -> None:
        check_all(text, grammar=grammar)

    check()


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(max_size=80))
def test_arbitrary_text(text: str) -> None:
    check_all_and_oracle(text)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(PREFIXES, st.text(ANY_CHAR, max_size=60))
def test_arbitrary_code_points(prefix: str, rest: str) -> None:
    check_all_and_oracle(prefix + rest)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(PREFIXES, st.lists(st.sampled_from(MUTATION_CHARS), max_size=40).map("".join))
def test_hostile_characters(prefix: str, rest: str) -> None:
    check_all_and_oracle(prefix + rest)


@pytest.mark.parametrize(
    "text",
    [
        "",
        ":",
        "\x00",
        "\udc80",
        "http://h/\x00",
        "http://h/\ud800",
        "\ud800http://h/",
        "http\udcff://h/",
        "http://h\x00.com/",
        "\U0010ffff:x",
        "%",
        "%%",
        "x:%",
        "x:%0",
        "http://" + "\x00" * 3000,
        "gopher://h/1" + "%09" * 3000,
    ],
    ids=lambda t: t.encode("unicode_escape").decode("ascii")[:40] or "(empty)",
)
def test_edge_strings(text: str) -> None:
    check_all_and_oracle(text)


#: A long string is built to about this many characters.
LONG = 100_000


@st.composite
def long_strings(draw: st.DrawFn) -> str:
    """A generated URL with one piece of it repeated to about 100 kB, maybe mutated."""
    scheme = draw(st.sampled_from(SCHEMES))
    text = draw(generated(scheme, longest=120))
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, len(text)))
    piece = text[start:end] or draw(st.sampled_from(MUTATION_CHARS))
    long = text[:start] + piece * (LONG // len(piece) + 1) + text[end:]
    if draw(st.booleans()):
        where = draw(st.integers(0, len(long)))
        long = long[:where] + draw(st.sampled_from(MUTATION_CHARS)) + long[where:]
    return long


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(long_strings())
def test_long_strings(text: str) -> None:
    start = time.perf_counter()
    check_all_and_oracle(text)
    # Linear time: 100 kB takes milliseconds; seconds would mean backtracking.
    assert time.perf_counter() - start < 10


#: What running text puts around and inside a URL.
GLUE = st.sampled_from(
    [" ", "\n", "\r\n", "\t", "-\n", "-\n  ", ". ", ", ", "(", ")", '"', "<", ">", "#", "x", ""]
)


@st.composite
def running_text(draw: st.DrawFn) -> str:
    """Generated (and mutated) URLs in text: bare, ``<URL:...>``, ``<...>``, broken, with ``#``."""
    pieces = []
    for _ in range(draw(st.integers(1, 4))):
        scheme = draw(st.sampled_from(SCHEMES))
        url = draw(mutated(generated(scheme)) | generated(scheme))
        if draw(st.booleans()):
            cut = draw(st.integers(0, len(url)))
            url = url[:cut] + draw(GLUE) + url[cut:]
        if draw(st.booleans()):
            url += "#" + draw(st.text(st.sampled_from(MUTATION_CHARS), max_size=8))
        form = draw(st.sampled_from(["{}", "<URL:{}>", "<{}>", "<URL: {}>", "<{}"]))
        pieces.append(draw(GLUE) + form.format(url) + draw(GLUE))
    return "".join(pieces)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(running_text())
def test_urls_in_running_text(text: str) -> None:
    check_all(text, reference=False)


NOT_STR = st.one_of(
    st.none(),
    st.integers(),
    st.floats(),
    st.binary(max_size=20),
    st.builds(bytearray, st.binary(max_size=20)),
    st.lists(st.text(max_size=5), max_size=3),
    st.builds(memoryview, st.binary(max_size=5)),
)


@settings(max_examples=50, deadline=None)
@given(NOT_STR)
def test_not_a_str_is_a_type_error(value: object) -> None:
    calls = (
        lambda: rfc1738.parse(value),  # type: ignore[arg-type]
        lambda: rfc1738.parse(value, parser="reference"),  # type: ignore[arg-type]
        lambda: rfc1738.is_valid(value),  # type: ignore[arg-type]
        lambda: rfc1738.is_valid(value, parser="reference"),  # type: ignore[arg-type]
        lambda: rfc1738.parse_tree(value),  # type: ignore[arg-type]
        lambda: rfc1738.parse_reference(value),  # type: ignore[arg-type]
        lambda: list(rfc1738.find_urls(value)),  # type: ignore[arg-type]
    )
    for call in calls:
        with pytest.raises(TypeError):
            call()
