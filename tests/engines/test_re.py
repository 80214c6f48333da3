"""The Python and RE2 dialects, in Python's ``re`` and in Google RE2 (``google-re2``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

import rfc1738

from .compare import Answer, assert_agree, spans_from_numbers, written_greedy
from .samples import Sample


def test_python_dialect_agrees_with_the_library(all_samples: Sequence[Sample]) -> None:
    assert_python_agrees(rfc1738.export("python"), all_samples)


def test_python_dialect_written_greedy_agrees_with_the_library(
    all_samples: Sequence[Sample],
) -> None:
    # The forms ECMAScript falls back to past V8's group limit (unrolled runs,
    # no possessive repetition), checked against the library for every scheme.
    export = written_greedy("python")
    assert export.schemes["ftp"].pattern != rfc1738.export("python").schemes["ftp"].pattern
    assert_python_agrees(export, all_samples)


def assert_python_agrees(export: rfc1738.Export, all_samples: Sequence[Sample]) -> None:
    compiled = {s: re.compile(p.pattern) for s, p in export.schemes.items()}
    anything = re.compile(export.any)
    answers = []
    for sample in all_samples:
        match = compiled[sample.scheme].search(sample.text)
        fields = None if match is None else spans_from_numbers(export, sample.scheme, match.span)
        answers.append(Answer(match is not None, bool(anything.search(sample.text)), fields))
    assert_agree("python re", export, all_samples, answers)


def test_re2_dialect_agrees_with_the_library(encodable: Sequence[Sample]) -> None:
    re2 = pytest.importorskip("re2", reason="google-re2 is not installed (pip install google-re2)")
    export = rfc1738.export("re2")
    compiled = {s: re2.compile(p.pattern) for s, p in export.schemes.items()}
    anything = re2.compile(export.any)
    answers = []
    for sample in encodable:
        match = compiled[sample.scheme].search(sample.text)
        fields = None if match is None else spans_from_numbers(export, sample.scheme, match.span)
        answers.append(Answer(match is not None, anything.search(sample.text) is not None, fields))
    assert_agree("google-re2", export, encodable, answers)
