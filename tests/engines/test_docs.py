"""docs/engines.md shows real output: its ```pycon examples (export, DuckDB, Polars) run here."""

from __future__ import annotations

import pytest

from tests.doc_examples import DOCS, run_examples


def test_engines_page_examples() -> None:
    pytest.importorskip("duckdb", reason="duckdb is not installed: docs/engines.md uses it")
    pytest.importorskip("polars", reason="polars is not installed: docs/engines.md uses it")
    results = run_examples(DOCS / "engines.md")
    assert results.attempted > 10
    assert results.failed == 0
