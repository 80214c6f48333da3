"""The examples in docs/objects.md and docs/schemes/*.md are real output.

Every ```pycon block runs as a doctest. Exceptions are matched by type only,
so the error wording may change without breaking the docs (regenerate them
when it does).
"""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import rfc1738
from rfc1738.urls import CLASSES
from tests.doc_examples import DOCS, run_examples

PAGES = [DOCS / "objects.md", *sorted((DOCS / "schemes").glob("*.md"))]
FLAGS = doctest.IGNORE_EXCEPTION_DETAIL | doctest.NORMALIZE_WHITESPACE


def test_every_scheme_has_a_page() -> None:
    assert {page.stem for page in PAGES[1:]} == set(CLASSES)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_examples(page: Path) -> None:
    results = run_examples(page, flags=FLAGS, globs={"rfc1738": rfc1738})
    assert results.attempted > 0, f"{page.name} has no examples"
    assert results.failed == 0
