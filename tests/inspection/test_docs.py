"""The examples in docs/inspection.md and docs/w3-1994.md are real output.

Every ```pycon block of a page runs as a doctest, the blocks of one page in
one namespace.
"""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from tests.doc_examples import DOCS, run_examples

PAGES = [DOCS / "inspection.md", DOCS / "w3-1994.md"]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_examples(page: Path) -> None:
    results = run_examples(page, flags=FLAGS)
    assert results.attempted > 5, f"{page.name} has too few examples"
    assert results.failed == 0
