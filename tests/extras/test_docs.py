"""docs/pydantic.md and docs/hypothesis.md show real output: their examples run here."""

from __future__ import annotations

import pytest

from tests.doc_examples import DOCS, run_examples


def test_pydantic_page_examples() -> None:
    pytest.importorskip("pydantic", reason="pydantic is not installed: docs/pydantic.md uses it")
    results = run_examples(DOCS / "pydantic.md")
    assert results.attempted >= 15
    assert results.failed == 0


def test_hypothesis_page_examples() -> None:
    results = run_examples(DOCS / "hypothesis.md")
    assert results.attempted >= 8
    assert results.failed == 0
