"""rfc1738.duckdb: the macros on a connection, the error function, another grammar beside."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rfc1738

duckdb = pytest.importorskip("duckdb", reason="duckdb is not installed (rfc1738[duckdb])")
pytest.importorskip("pyarrow", reason="pyarrow is not installed (rfc1738[duckdb])")

import rfc1738.duckdb  # noqa: E402


@pytest.fixture
def con() -> duckdb.DuckDBPyConnection:
    found = duckdb.connect()
    rfc1738.duckdb.register(found)
    return found


def test_the_error_of_a_rejected_url_is_the_library_s(con: duckdb.DuckDBPyConnection) -> None:
    urls = ["http://user@host/", "HTTP://192.0.2.300/", "http://h/", None]
    rows = con.execute(
        "SELECT rfc1738_error(u), rfc1738_error(u, host_checks := false) FROM "
        "(SELECT unnest($1::VARCHAR[]) AS u)",
        [urls],
    ).fetchall()
    for text, (checked, bare) in zip(urls, rows, strict=True):
        if text is None or rfc1738.is_valid(text):
            assert checked is None
            continue
        with pytest.raises(rfc1738.URLSyntaxError) as raised:
            rfc1738.parse(text)
        assert checked == {
            "reason": raised.value.reason,
            "position": raised.value.position,
            "rule": raised.value.rule,
            "error": str(raised.value),
        }
        assert (bare is None) == rfc1738.is_valid(text, host_checks=False)


def test_nulls_give_nulls(con: duckdb.DuckDBPyConnection) -> None:
    row = con.execute(
        "SELECT rfc1738_is_valid(NULL), rfc1738_is_valid(NULL, host_checks := false), "
        "rfc1738_struct(NULL), rfc1738_grammar_file(NULL), rfc1738_error(NULL)"
    ).fetchone()
    assert row == (None, None, None, None, None)


def test_registering_again_and_another_grammar_beside(tmp_path: Path) -> None:
    from tests.fuzz.edited import write_edited_grammar

    con = duckdb.connect()
    rfc1738.duckdb.register(con)
    rfc1738.duckdb.register(con)  # the same macros again: no error
    edited = rfc1738.load(write_edited_grammar(tmp_path))
    rfc1738.duckdb.register(con, grammar=edited, prefix="edited")
    url = "http://user@h.example/~a"
    row = con.execute(
        "SELECT rfc1738_is_valid($1), edited_is_valid($1), edited_struct($1).host, "
        "edited_grammar_file('AFS://c.example/x'), rfc1738_grammar_file('AFS://c.example/x')",
        [url],
    ).fetchone()
    assert row == (False, True, "h.example", "afs", "generic")
    assert edited.is_valid(url) and not rfc1738.is_valid(url)


def test_without_the_struct_only_the_verdicts_and_then_all_of_it() -> None:
    con = duckdb.connect()
    rfc1738.duckdb.register(con, errors=False, struct=False)
    macros = "SELECT function_name FROM duckdb_functions() WHERE function_name LIKE 'rfc1738_%'"
    created = {name for (name,) in con.execute(macros).fetchall()}
    assert {"rfc1738_is_valid", "rfc1738_grammar_file", "rfc1738_screen"} <= created
    assert not created & {"rfc1738_struct", "rfc1738_struct_of_valid", "rfc1738_error"}
    assert con.execute("SELECT rfc1738_is_valid('http://h/')").fetchall() == [(True,)]
    rfc1738.duckdb.register(con)  # then the rest, on the same connection
    found = con.execute("SELECT rfc1738_struct('http://h/').host").fetchall()
    assert found == [("h",)]


@pytest.mark.parametrize("host_checks", [True, False])
def test_every_sample_s_error_is_parse_s(
    con: duckdb.DuckDBPyConnection, storable: tuple[str, ...], host_checks: bool
) -> None:
    """``rfc1738_error`` on every sample (corpora, drawn, mutated): the error ``parse`` raises."""
    urls = list(storable)
    rows = con.execute(
        "SELECT rfc1738_error(u, host_checks := $2) FROM (SELECT unnest($1::VARCHAR[]) AS u)",
        [urls, host_checks],
    ).fetchall()
    wrong = []
    for text, (found,) in zip(urls, rows, strict=True):
        expected: dict[str, object] | None = None
        try:
            rfc1738.parse(text, host_checks=host_checks)
        except rfc1738.URLSyntaxError as error:
            expected = {
                "reason": error.reason,
                "position": error.position,
                "rule": error.rule,
                "error": str(error),
            }
        if found != expected:
            wrong.append((text, found, expected))
    assert not wrong, wrong[:5]


def test_the_screen_alone_calls_no_python_and_its_states_are_the_library_s(
    storable: tuple[str, ...],
) -> None:
    """``register_screen``: two macros, no Python function; 1 valid, 0 not, 2 left to the library.

    On every sample: with host checks, 2 only for a URL valid by the bare
    grammar (and always for one the checks refuse); without, never 2.
    """
    con = duckdb.connect()
    rfc1738.duckdb.register_screen(con)
    listed = (
        "SELECT function_name, function_type FROM duckdb_functions() "
        "WHERE function_name LIKE 'rfc1738_%'"
    )
    created = dict(con.execute(listed).fetchall())
    assert created == {"rfc1738_grammar_file": "macro", "rfc1738_screen": "macro"}
    urls = list(storable)
    rows = con.execute(
        "SELECT rfc1738_screen(u), rfc1738_screen(u, host_checks := false) "
        "FROM (SELECT unnest($1::VARCHAR[]) AS u)",
        [urls],
    ).fetchall()
    wrong = []
    for text, states in zip(urls, rows, strict=True):
        bare = rfc1738.is_valid(text, host_checks=False)
        checked = rfc1738.is_valid(text)
        # Valid: 1, or 2 (the library finishes the checks); valid by the bare grammar only: 2.
        screened = {1, 2} if checked else {2} if bare else {0}
        if states[1] != (1 if bare else 0) or states[0] not in screened:
            wrong.append((text, states, checked, bare))
    assert not wrong, wrong[:5]
    assert {state for state, _ in rows} == {0, 1, 2}  # the samples reach each state


#: Grammar file names (a Lark rule's name less ``url``) and what may stand before a URL's ``:``.
FILE_NAMES = st.from_regex(r"[!?]?_?[a-z][a-z0-9_]{0,6}", fullmatch=True)
SCHEME_CHARS = st.sampled_from([*"aAkKsSzZ09_-+.!?:/ \u212a\u0130\u017f\u00e9", "\x00"])


@settings(max_examples=300, deadline=None)
@given(FILE_NAMES, st.data())
def test_the_struct_tells_a_file_by_its_scheme_as_the_dispatch_does(
    name: str, data: st.DataObject
) -> None:
    """``rfc1738_struct``'s test a branch (a prefix pattern) takes the library's dispatch.

    The library's: the text before the first ``:``, if not empty, in lower
    case if it is ASCII (:meth:`rfc1738.Grammar.scheme_file`).
    """
    from rfc1738.bnf.files import scheme_key
    from rfc1738.duckdb.macros import _scheme_prefix

    cased = "".join(data.draw(st.sampled_from([c, c.upper(), "\u212a"])) for c in name)
    text = data.draw(
        st.one_of(
            st.just(cased + ":x"),
            st.text(SCHEME_CHARS, max_size=8).map(lambda s: cased + s),
            st.text(SCHEME_CHARS, max_size=12),
        )
    )
    colon = text.find(":")
    dispatched = colon > 0 and scheme_key(text[:colon]) == name
    found = duckdb.execute("SELECT regexp_matches($1, $2)", [text, _scheme_prefix(name)]).fetchone()
    assert found == (dispatched,), (text, name)
