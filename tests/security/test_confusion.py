"""Parser-differential cases (tests/security/confusion.py): one reading each, and the docs table.

Each input is either rejected with an error at the character that breaks the
grammar, whose reason names that character (or, for a login in http, the
production that forbids it), or parsed to the one reading RFC 1738 gives,
the same through both parsers. The rfc1738 column of docs/security.md is
checked against the library; the urllib columns depend on the Python version
and are not.
"""

from __future__ import annotations

import doctest

import pytest

import rfc1738
from tests.doc_examples import DOCS, run_examples
from tests.security.confusion import CASES, Confusion, rfc1738_cell, table, visible

DOC = DOCS / "security.md"


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_confusion(case: Confusion) -> None:
    for parser in ("fast", "reference"):
        if case.bad is None:
            url = rfc1738.parse(case.url, parser=parser)
            for name, value in case.fields:
                assert getattr(url, name) == value, name
            continue
        with pytest.raises(rfc1738.URLSyntaxError) as caught:
            rfc1738.parse(case.url, parser=parser)
        error = caught.value
        assert error.position == case.position
        assert case.url[case.position] == case.bad
        assert not rfc1738.is_valid(case.url, parser=parser)
        if case.bad == "@":  # the production that forbids a login is named instead
            assert "httpurl" in error.reason and "user name" in error.reason
        else:
            assert repr(case.bad) in error.reason
        assert error.reason in str(error)


def doc_rows() -> dict[str, list[str]]:
    """The rows of the table in docs/security.md, by case name, split into cells."""
    rows: dict[str, list[str]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| ") or line.startswith("| case "):
            continue
        cells = [cell.strip() for cell in line.strip("|").replace("\\|", "\0").split(" | ")]
        cells = [cell.replace("\0", "\\|") for cell in cells]
        rows[cells[0]] = cells
    return rows


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_docs_table_rfc1738_column(case: Confusion) -> None:
    row = doc_rows()[case.name]
    assert row[1] == f"`{visible(case.url)}`"
    assert row[2] == f"`{rfc1738_cell(case.url)}`"


def test_docs_table_has_every_case_once() -> None:
    assert list(doc_rows()) == [case.name for case in CASES]
    assert table().count("\n") == len(CASES) + 1


def test_docs_examples() -> None:
    flags = doctest.IGNORE_EXCEPTION_DETAIL | doctest.NORMALIZE_WHITESPACE
    results = run_examples(DOC, flags=flags, globs={"rfc1738": rfc1738})
    assert results.attempted > 0
    assert results.failed == 0
