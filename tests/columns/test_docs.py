"""docs/columns.md shows real output: its ```pycon examples run here (on DuckDB)."""

from __future__ import annotations

import pytest

from tests.doc_examples import DOCS, run_examples


def test_columns_page_examples() -> None:
    pytest.importorskip("duckdb", reason="duckdb is not installed: docs/columns.md uses it")
    pytest.importorskip("pyarrow", reason="pyarrow is not installed: docs/columns.md uses it")
    results = run_examples(DOCS / "columns.md")
    assert results.attempted > 10
    assert results.failed == 0
