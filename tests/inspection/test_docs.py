"""The examples in docs/inspection.md and docs/w3-1994.md are real output.

Every ```pycon block of a page runs as a doctest, the blocks of one page in
one namespace.
"""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = [DOCS / "inspection.md", DOCS / "w3-1994.md"]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


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


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_examples(page: Path) -> None:
    source = pycon_blocks(page.read_text(encoding="utf-8"))
    test = doctest.DocTestParser().get_doctest(source, {}, page.name, str(page), 0)
    assert len(test.examples) > 5, f"{page.name} has too few examples"
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    assert runner.failures == 0
