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

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = [DOCS / "objects.md", *sorted((DOCS / "schemes").glob("*.md"))]
FLAGS = doctest.IGNORE_EXCEPTION_DETAIL | doctest.NORMALIZE_WHITESPACE


def pycon_blocks(text: str) -> str:
    """The lines of the ```pycon blocks, each block ended by a blank line."""
    kept: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("```"):
            inside = line.startswith("```pycon")
            kept.append("")
        elif inside:
            kept.append(line)
    return "\n".join(kept) + "\n"


def test_every_scheme_has_a_page() -> None:
    assert {page.stem for page in PAGES[1:]} == set(CLASSES)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_examples(page: Path) -> None:
    source = pycon_blocks(page.read_text(encoding="utf-8"))
    test = doctest.DocTestParser().get_doctest(source, {"rfc1738": rfc1738}, page.name, None, 0)
    assert test.examples, f"{page.name} has no examples"
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    assert runner.failures == 0
