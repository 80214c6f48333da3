"""The RE2 dialect in Polars (Rust's ``regex`` crate): ``str.contains``, ``str.extract_groups``."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import rfc1738

from .compare import Answer, assert_agree
from .samples import Sample


def test_re2_dialect_in_polars_agrees_with_the_library(encodable: Sequence[Sample]) -> None:
    pl = pytest.importorskip("polars", reason="polars is not installed (pip install polars)")
    export = rfc1738.export("re2")
    texts = pl.Series("url", [s.text for s in encodable])
    anything = texts.str.contains(export.any).to_list()
    answers: list[Answer | None] = [None] * len(encodable)
    for scheme, found in export.schemes.items():
        rows = [i for i, s in enumerate(encodable) if s.scheme == scheme]
        mine = pl.Series("url", [encodable[i].text for i in rows])
        matched = mine.str.contains(found.pattern).to_list()
        # Named groups as a struct: null where a group took no part, "" where it is empty.
        groups = mine.str.extract_groups(found.pattern).to_list()
        for i, hit, values in zip(rows, matched, groups, strict=True):
            got: dict[str, str] = {}
            for name, production in found.groups.items():
                if hit and values[name] is not None and production not in got:
                    got[production] = values[name]
            answers[i] = Answer(hit, anything[i], got if hit else None)
    assert_agree("polars", export, encodable, [a for a in answers if a is not None], "texts")
