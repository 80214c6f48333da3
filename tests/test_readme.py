"""The README's example is real output."""

from __future__ import annotations

from tests.doc_examples import DOCS, run_examples


def test_readme_example_runs() -> None:
    results = run_examples(DOCS.parent / "README.md")
    assert results.attempted >= 5
    assert results.failed == 0
