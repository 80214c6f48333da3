"""The examples in docs/text.md are real output: every ```pycon block runs as a doctest."""

from __future__ import annotations

from tests.doc_examples import DOCS, run_examples


def test_examples_run() -> None:
    results = run_examples(DOCS / "text.md")
    assert results.failed == 0
    assert results.attempted > 15
