"""The examples in docs/text.md are real output: every ```pycon block runs as a doctest."""

from __future__ import annotations

import doctest
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "text.md"


def pycon_blocks(text: str) -> str:
    kept: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("```"):
            inside = line.startswith("```pycon")
            kept.append("")
        elif inside:
            kept.append(line)
    return "\n".join(kept) + "\n"


def test_examples_run() -> None:
    source = pycon_blocks(PAGE.read_text(encoding="utf-8"))
    test = doctest.DocTestParser().get_doctest(source, {}, PAGE.name, str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert runner.summarize(verbose=False).attempted > 15
