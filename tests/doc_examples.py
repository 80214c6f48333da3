"""Run the ```pycon examples of a docs page as doctests: the docs show real output."""

from __future__ import annotations

import doctest
from pathlib import Path

#: The documentation directory of the checkout.
DOCS = Path(__file__).resolve().parents[1] / "docs"


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


def run_examples(
    page: Path,
    *,
    flags: int = doctest.NORMALIZE_WHITESPACE,
    globs: dict[str, object] | None = None,
) -> doctest.TestResults:
    """Run every ```pycon block of ``page`` in one namespace; the results.

    A failing example is printed as doctest prints it, so the caller only
    checks the counts.
    """
    source = pycon_blocks(page.read_text(encoding="utf-8"))
    test = doctest.DocTestParser().get_doctest(source, dict(globs or {}), page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=flags)
    runner.run(test)
    return runner.summarize(verbose=False)
