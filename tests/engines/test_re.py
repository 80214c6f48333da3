"""The Python and RE2 dialects, in Python's ``re`` and in Google RE2 (``google-re2``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

import rfc1738

from .compare import Answer, assert_agree, spans_from_numbers
from .samples import Sample


def test_python_dialect_agrees_with_the_library(all_samples: Sequence[Sample]) -> None:
    export = rfc1738.export("python")
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
