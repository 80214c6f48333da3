"""The column plan: computed from the export, read back checked, cached per grammar, exact."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rfc1738
from rfc1738.columns import column_plan
from rfc1738.columns.plan import FORMAT, SCHEME, read_plan
from rfc1738.columns.store import MAX_PLAN_FILE, plan_key
from rfc1738.compile import written
from rfc1738.compile.columns import plan_data, struct_fields
from rfc1738.compile.export import export_grammar
from rfc1738.runtime.hosts import MAX_LABEL, MAX_OCTET, MAX_PORT
from rfc1738.runtime.numbers import exceeds

from .backends import library


@pytest.fixture(scope="module")
def data() -> dict[str, object]:
    return plan_data(rfc1738.load())


def test_every_exported_re2_pattern_reads_back_as_written() -> None:
    for mark_empty in (False, True):
        export = export_grammar(rfc1738.load(), "re2", mark_empty=mark_empty)
        patterns = [export.any, export.any_groups.pattern]
        patterns += [found.pattern for found in export.schemes.values()]
        for pattern in patterns:
            assert written.write(written.read(pattern)) == pattern


def test_every_exported_java_pattern_reads_back_as_written() -> None:
    """The Java dialect too: possessive runs, ``(?<name>``, ``\\A`` and ``\\z``."""
    for mark_empty in (False, True):
        export = export_grammar(rfc1738.load(), "java", mark_empty=mark_empty)
        patterns = [export.any, export.any_groups.pattern]
        patterns += [found.pattern for found in export.schemes.values()]
        for pattern in patterns:
            assert written.write(written.read(pattern, java=True)) == pattern
    with pytest.raises(ValueError):
        written.read(r"\Aa*+\z")  # Java's syntax, read as RE2's


def test_the_java_screen_is_each_files_pattern_bounded(data: dict[str, object]) -> None:
    """Each file's ``java_screened``: its Java pattern bounded, no group, the host looked at."""
    plan = column_plan()
    for scheme in plan.schemes.values():
        screen = scheme.java_screened
        assert screen is not None and screen.startswith("\\A") and screen.endswith("\\z")
        assert "(?<" not in screen.replace("(?<=", "")  # no named group
        if "host" in scheme.fields:  # the labels' lookahead, at the host
            assert f"{{{MAX_LABEL + 1}}})" in screen
    http = plan.schemes["http"].java_screened or ""
    # (Java's classes listed a character at a time: one table lookup)
    assert "[0123456789]{1,4}+" in http and "[0123456789]{1,2}+\\." in http


def test_the_short_java_screen_is_the_screen_without_its_lookaheads() -> None:
    """``java_screened_short``: the same bounded pattern, no look at the names' lengths."""
    plan = column_plan()
    for scheme in plan.schemes.values():
        short, screen = scheme.java_screened_short, scheme.java_screened
        assert short is not None and screen is not None
        assert "(?!" not in short and short.startswith("\\A") and short.endswith("\\z")
        if "host" in scheme.fields:
            assert "(?!" in screen and len(short) < len(screen)
        else:
            assert short == screen
    http = plan.schemes["http"].java_screened_short or ""
    # (Java's classes listed a character at a time: one table lookup)
    assert "[0123456789]{1,4}+" in http and "[0123456789]{1,2}+\\." in http


def test_the_reader_refuses_syntax_it_does_not_know() -> None:
    for pattern in ("a*+", "(?=a)", "[^a]", r"\d", "a{2", "(a", "a)", "x\\"):
        with pytest.raises(ValueError):
            written.read(pattern)


def test_the_reader_knows_what_each_group_may_hold() -> None:
    tree = written.read(r"^(?:(?P<a>x(?P<b>[0-9]*))|(y))(?P<c>z)?$")
    groups = written.capture_numbers(tree)
    assert [groups[n].name for n in sorted(groups)] == ["a", "b", None, "c"]
    assert written.nullable(groups[2].item) and not written.nullable(groups[1].item)
    assert written.covers(tree, frozenset({1, 3})) and not written.covers(tree, frozenset({1}))
    assert written.chars(groups[2].item) == frozenset("0123456789")
    assert written.max_length(groups[4].item) == 1 and written.max_length(tree) is None


def test_the_plan_reads_back_and_is_json(data: dict[str, object]) -> None:
    plan = read_plan(json.loads(json.dumps(data)))
    assert plan == read_plan(data) == column_plan()
    assert plan.field_names()[0] == SCHEME
    assert list(plan.schemes)[-1] == plan.generic == "generic"
    assert set(plan.schemes) == set(rfc1738.load().files)


def test_the_struct_is_spark_s(data: dict[str, object]) -> None:
    """One contract: the fields of rfc1738.spark.url_struct, in its order."""
    fields = [name for name, _kind in data["fields"]]  # type: ignore[attr-defined]
    assert fields == list(struct_fields(export_grammar(rfc1738.load(), "java", mark_empty=True)))
    pytest.importorskip("pyspark", reason="pyspark is not installed (rfc1738[spark])")
    from rfc1738.spark import fields as spark_fields

    assert tuple(fields) == spark_fields()


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(format=FORMAT + 1),
        lambda d: d.pop("verdict"),
        lambda d: d.update(verdict=7),
        lambda d: d["limits"].update(port="65535"),
        lambda d: d["fields"].append(["x", "bytes"]),
        lambda d: d["schemes"].pop("generic"),
        lambda d: d["schemes"]["http"]["fields"]["host"].update(groups=[99]),
        lambda d: d["schemes"]["http"]["fields"]["host"].update(always="yes"),
        lambda d: d["schemes"]["http"]["fields"].update(nothing={}),
        lambda d: d["schemes"]["http"].update(fields=[]),
    ],
)
def test_a_plan_that_does_not_hold_together_is_refused(
    data: dict[str, object], damage: object
) -> None:
    broken = json.loads(json.dumps(data))
    damage(broken)  # type: ignore[operator]
    with pytest.raises(ValueError):
        read_plan(broken)


def test_the_screen_passes_only_urls_that_pass_the_host_checks(
    texts: tuple[str, ...],
) -> None:
    """What ``screened`` accepts (with the length and label-run conditions) is valid.

    Run in Google RE2, the engine whose syntax the plan's patterns are in.
    """
    re2 = pytest.importorskip("re2", reason="google-re2 is not installed (the test extra)")
    plan = column_plan()
    assert plan.screened is not None and plan.label_run is not None
    screened, run = re2.compile(plan.screened), re2.compile(plan.label_run)
    limits = plan.limits
    passed = 0
    for text in texts:
        if screened.fullmatch(text) and (
            len(text) <= limits.label or (len(text) <= limits.host and not run.search(text))
        ):
            passed += 1
            assert rfc1738.is_valid(text), text
    assert passed > len(texts) / 4


def test_short_labels_and_short_host_tell_exactly_which_screened_urls_pass(
    texts: tuple[str, ...],
) -> None:
    """On a URL ``screened`` accepts, each bounded pattern matches iff its host check passes.

    ``short_labels``: every label of the host (if any) at most ``label`` long;
    ``short_host``: the host at most ``host`` long. Together with the screen
    they are the host checks: a URL the screen and both accept is valid, and
    one the screen accepts but either refuses is not (HOST_LIMITS puts
    hosts on each side of both limits in every scheme's place for one).
    """
    re2 = pytest.importorskip("re2", reason="google-re2 is not installed (the test extra)")
    plan = column_plan()
    assert plan.screened and plan.short_labels and plan.short_host
    screened = re2.compile(plan.screened)
    labels, host = re2.compile(plan.short_labels), re2.compile(plan.short_host)
    seen = {(True, True): 0, (True, False): 0, (False, True): 0}
    for text in texts:
        if not screened.fullmatch(text):
            continue
        verdict = (bool(labels.fullmatch(text)), bool(host.fullmatch(text)))
        assert rfc1738.is_valid(text) == all(verdict), (text, verdict)
        if verdict in seen:
            seen[verdict] += 1
    assert all(seen.values()), seen  # each case is in the samples


def test_what_may_come_before_and_after_a_group() -> None:
    tree = written.read(r"^a(?:b|c?)(?P<h>[x-z]+)(?::[0-9]*)?(?:/q)*$")

    def chosen(node: written.Node) -> bool:
        return isinstance(node, written.Group) and node.name == "h"

    ((before, after),) = written.neighbours(tree, chosen)
    assert before == frozenset("abc")
    assert after == frozenset(":/")  # the end of the text is no character
    assert written.edge_chars(tree) == frozenset("a")
    assert written.edge_chars(tree, last=True) == frozenset("xyz0123456789:q")
    (inside,) = written.neighbours(written.read(r"^(?:(?P<h>a)b)*$"), chosen)
    assert inside == (frozenset("b"), frozenset("b"))  # a repetition comes round again


def test_no_bounded_hosts_where_a_host_character_may_follow_a_host(tmp_path: Path) -> None:
    """An http host that a ``-`` may follow: its text is not fixed by where its characters end.

    The plan then has no ``short_labels``/``short_host`` (the engines fall
    back to ``label_run``), and DuckDB's verdict is still the library's.
    """
    duckdb = pytest.importorskip("duckdb", reason="duckdb is not installed (rfc1738[duckdb])")
    from rfc1738.bnf.files import shipped_grammar_dir
    from rfc1738.duckdb import register

    copy = tmp_path / "grammar"
    shutil.copytree(shipped_grammar_dir(), copy)
    http = copy / "http.lark"
    text = http.read_text(encoding="utf-8")
    rule = 'httpurl: "http://"i hostport ['
    assert rule in text
    http.write_text(text.replace(rule, rule.replace("[", '"-"? ['), 1), encoding="utf-8")
    grammar = rfc1738.load(copy)
    plan = column_plan(grammar)
    assert plan.screened is not None
    assert plan.short_labels is None and plan.short_host is None
    con = duckdb.connect()
    register(con, grammar=grammar)
    label = "a" * (plan.limits.label + 1)
    for url in (
        f"http://{label}.com-/",
        f"http://b.{label}-/x",
        f"http://b.com-/{label}",
        "http://b.c-",
    ):
        (found,) = con.execute("SELECT rfc1738_is_valid(?)", [url]).fetchone() or (None,)
        assert found == grammar.is_valid(url), url


def test_the_plan_s_key_holds_the_compiler_s_source(monkeypatch: pytest.MonkeyPatch) -> None:
    from rfc1738.columns import store

    grammar = rfc1738.load()
    digest = store.compiler_digest()
    assert len(digest) == 64 and digest == store.compiler_digest.__wrapped__()
    before = plan_key(grammar)
    # Another compiler of the same version and format: another key.
    monkeypatch.setattr(store, "compiler_digest", lambda: "another compiler")
    assert plan_key(grammar) != before


def test_the_cache_keeps_one_file_per_grammar_and_refuses_damage(tmp_path: Path) -> None:
    grammar = rfc1738.load()
    key = plan_key(grammar)
    directory = Path(os.environ["RFC1738_CACHE_DIR"])
    column_plan(grammar)
    cached = directory / f"{key}.columns"
    assert cached.is_file() and cached.stat().st_size < MAX_PLAN_FILE
    header, _, body = cached.read_bytes().partition(b"\n")
    assert header.startswith(b"# rfc1738 column plan")
    assert read_plan(json.loads(body)) == column_plan(grammar)

    from rfc1738.columns import store

    assert store._read(key) == column_plan(grammar)
    cached.write_bytes(header + b"\n" + body.replace(b"http", b"HTTP"))
    assert store._read(key) is None  # the digest no longer holds
    cached.write_bytes(b"not a plan")
    assert store._read(key) is None
    cached.unlink()
    cached.mkdir()
    assert store._read(key) is None  # not a regular file
    cached.rmdir()


def test_another_grammar_another_key(tmp_path: Path) -> None:
    from tests.fuzz.edited import write_edited_grammar

    edited = rfc1738.load(write_edited_grammar(tmp_path))
    assert plan_key(edited) != plan_key(rfc1738.load())
    assert set(column_plan(edited).schemes) == set(edited.files)


def test_the_struct_is_the_objects_raw_fields(texts: tuple[str, ...]) -> None:
    """Each struct field a class declares a raw twin for is that twin's value.

    The struct's fields are named for the productions; a class's declared
    field holds a production (``HttpURL.path`` holds ``hpath``) and gives its
    text as written under ``raw_<name>``. ``news:*``'s ``group``, which the
    class makes ``*`` where the grammar has no group, is the one field the
    struct leaves null (docs/engines.md).
    """
    grammar = rfc1738.load()
    valid = [text for text in texts if grammar.is_valid(text)]
    expected = library(valid)
    compared = 0
    for text, struct in zip(valid, expected.structs, strict=True):
        assert struct is not None
        url = grammar.parse(text)
        values = url.to_dict()
        for klass in type(url).__mro__:
            for declared in vars(klass).values():
                production = getattr(declared, "production", None)
                raw = getattr(declared, "raw_name", "")
                if production not in struct or not raw.startswith("raw_") or raw not in values:
                    continue
                mine = struct[production]
                theirs = values[raw]
                if isinstance(theirs, list):  # fieldspecs: pairs as lists in to_dict()
                    theirs = [{"name": n, "value": v} for n, v in theirs]
                assert mine == theirs, (text, production, raw)
                compared += 1
    assert compared > len(valid)


@given(st.from_regex(r"\A[0-9]{1,12}\Z"), st.from_regex(r"\A[0-9]{1,5}(\.[0-9]{1,5}){3}\Z"))
def test_the_limit_patterns_are_the_host_checks(port: str, number: str) -> None:
    """``large_port``, ``large_part``, ``long_number``: what :func:`exceeds` says, zeros and all."""
    re2 = pytest.importorskip("re2", reason="google-re2 is not installed (the test extra)")
    limits = column_plan().limits
    assert bool(re2.fullmatch(limits.large_port, port)) == exceeds(port, MAX_PORT)
    parts = number.split(".")
    assert bool(re2.search(limits.large_part, number)) == any(
        exceeds(part, MAX_OCTET) for part in parts
    )
    label = "a" * (len(port) * 6)
    assert bool(re2.search(limits.long_label, f"x.{label}.y")) == (len(label) > MAX_LABEL)
    # Where long_number finds no run, no number is above either limit.
    for text, limit in ((port, MAX_PORT), (number, MAX_OCTET)):
        if not re2.search(limits.long_number, text):
            assert not any(exceeds(part, limit) for part in text.split("."))
