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


def _table(header: str) -> list[list[str]]:
    """The rows of the table of docs/objects.md whose header row starts with ``header``."""
    lines = (DOCS / "objects.md").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _url(cell: str) -> str:
    assert cell.startswith("`") and cell.endswith("`"), cell
    return cell[1:-1]


SAME = _table("| section | this URL | is the same as | canonical form |")
APART = _table("| section | this URL | is not the same as | why |")


@pytest.mark.parametrize("row", SAME, ids=lambda row: f"{row[0]} {row[1]}")
def test_each_equivalence_normalize_treats_as_equal(row: list[str]) -> None:
    section, this, same, canonical = row
    assert section[0].isdigit()
    one, other = rfc1738.parse(_url(this)), rfc1738.parse(_url(same))
    assert one != other
    assert str(one.normalize()) == str(other.normalize()) == _url(canonical)


@pytest.mark.parametrize("row", APART, ids=lambda row: f"{row[0]} {row[1]}")
def test_what_normalize_keeps_apart(row: list[str]) -> None:
    section, this, other, _why = row
    assert section[0].isdigit()
    assert rfc1738.parse(_url(this)).normalize() != rfc1738.parse(_url(other)).normalize()


def test_the_tables_are_there() -> None:
    assert len(SAME) >= 15
    assert len(APART) >= 5
