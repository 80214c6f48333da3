"""Every backend held to the library: verdicts with and without host checks, every struct field.

On all the engines' sample strings (``tests/engines/samples.py``: every case
of the test data, the corpora's samples, URLs generated from each scheme's
grammar file, near-misses and mutations of them, schemes in other cases,
adversarial inputs), with the shipped grammar and an edited one; any
disagreement fails the test.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

import rfc1738
from tests.fuzz.edited import write_edited_grammar

from .backends import BACKENDS, assert_same, library

#: Strings where engines are known to differ from full-match semantics: a final
#: newline (Java's and Python's $ accept one), a NUL, a scheme with a Kelvin sign.
EDGES = (
    "http://a\n",
    "http://a.b/\n",
    "http://a\r\n",
    "\nhttp://a",
    "http://a\x00",
    "news:a\n",
    "x:y\n",
    "\u212ax:y",
    "ftp\u212a://h/",
    "HTTP://H/",
    "hTtP://h:00065535/",
    "http://h:65536/",
    "http://1.2.3.256/",
    "http://1.2.3.00255/",
    "http://" + "a" * 63 + ".b/",
    "http://" + "a" * 64 + ".b/",
    "http://" + ("a" * 50 + ".") * 5 + "b/",
    "http://" + ("a" * 50 + ".") * 4 + "b/" + "c" * 300,
    "wais://h/",
    "wais://h/d?",
    "wais://h/d/t/",
    "gopher://h/",
    "gopher://h/1%09%09%09",
    "prospero://h/p;",
    "prospero://h/p;a;b=;=c",
    "file://localhost/",
    "mailto:",
    ":",
    "",
)


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_every_backend_agrees_with_the_library(backend: str, storable: Sequence[str]) -> None:
    texts = [*storable, *EDGES]
    assert_same(backend, texts, BACKENDS[backend](texts, None), library(texts))


@pytest.fixture(scope="module")
def edited(tmp_path_factory: pytest.TempPathFactory) -> rfc1738.Grammar:
    """An edited grammar: a login in http, ``~`` in hsegment, new schemes (tests/fuzz/edited.py)."""
    return rfc1738.load(write_edited_grammar(tmp_path_factory.mktemp("edited")))


def _edited_texts(grammar: rfc1738.Grammar) -> list[str]:
    from hypothesis import HealthCheck, Phase, given, settings

    from rfc1738.strategies import InvalidURL, invalid_urls, urls

    found: list[str] = []
    for scheme in sorted(grammar.files):

        @settings(
            max_examples=15,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
            deadline=None,
        )
        @given(urls(scheme, grammar), invalid_urls(scheme, grammar))
        def collect(text: str, miss: InvalidURL) -> None:
            found.append(text)
            found.append(miss.text)

        collect()
    return [
        *found,
        "http://user:pw@h.example/~a",
        "http://u@h:65536/",
        "AFS://cell.example/x",
        "afs://" + "a" * 64 + "/x",
        "loops:aab/Ab1!",
        "loops:ab/!\n",
    ]


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_every_backend_agrees_with_the_library_on_an_edited_grammar(
    backend: str, edited: rfc1738.Grammar, tmp_path: Path
) -> None:
    texts = [t for t in _edited_texts(edited) if not any(0xD800 <= ord(c) <= 0xDFFF for c in t)]
    assert_same(backend, texts, BACKENDS[backend](texts, edited), library(texts, edited))
