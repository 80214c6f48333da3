"""The RE2 dialect in DuckDB: ``regexp_full_match`` and ``regexp_extract``, one query for all."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import rfc1738

from .compare import Answer, assert_agree
from .samples import Sample


def sql_string(text: str) -> str:
    """``text`` as an SQL string literal (DuckDB reads backslashes as themselves)."""
    return "'" + text.replace("'", "''") + "'"


def test_re2_dialect_in_duckdb_agrees_with_the_library(encodable: Sequence[Sample]) -> None:
    duckdb = pytest.importorskip("duckdb", reason="duckdb is not installed (pip install duckdb)")
    export = rfc1738.export("re2")
    con = duckdb.connect()
    con.execute("CREATE TABLE urls (id INTEGER, scheme VARCHAR, url VARCHAR)")
    con.executemany(
        "INSERT INTO urls VALUES (?, ?, ?)",
        [(i, sample.scheme, sample.text) for i, sample in enumerate(encodable)],
    )
    matched = ["CASE scheme"]
    structs: list[str] = []
    for scheme, found in export.schemes.items():
        pattern = sql_string(found.pattern)
        matched.append(f"WHEN '{scheme}' THEN regexp_full_match(url, {pattern})")
        # regexp_extract with a list of names gives every group at once, as a
        # struct (with a number, only groups 0 to 9 can be had).
        names = ", ".join(sql_string(name) for name in found.groups)
        structs.append(
            f"CASE WHEN scheme = '{scheme}' THEN regexp_extract(url, {pattern}, [{names}]) END"
        )
    matched.append("END")
    query = (
        f"SELECT {' '.join(matched)}, regexp_full_match(url, {sql_string(export.any)}), "
        f"{', '.join(structs)} FROM urls ORDER BY id"
    )
    answers = []
    position = {scheme: 2 + i for i, scheme in enumerate(export.schemes)}
    for sample, row in zip(encodable, con.execute(query).fetchall(), strict=True):
        texts = None
        if row[0]:
            groups = row[position[sample.scheme]]
            # A production reached along several alternatives has a group in
            # each; at most one takes part, the others give ''.
            texts = {
                production: "".join(groups[name] for name in names)
                for production, names in _names(export, sample.scheme).items()
            }
        answers.append(Answer(row[0], row[1], texts))
    assert_agree("duckdb", export, encodable, answers, given="empty_for_absent")


def _names(export: rfc1738.Export, scheme: str) -> dict[str, list[str]]:
    by: dict[str, list[str]] = {}
    for name, production in export.schemes[scheme].groups.items():
        by.setdefault(production, []).append(name)
    return by
