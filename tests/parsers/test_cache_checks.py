"""The disk cache's loader checks what it loads (issue 19, reproducer 9).

A cache file rewritten with a digest of its own used to be trusted below its
top-level shape: an expression of ``.*`` made ``afs://bad host`` parse, a
group the expression lacks raised ``KeyError``, an expression that does not
compile ``re.error``, and a FIFO in place of the file hung the process. Each
forged file here holds a valid digest; loading it is a miss (the scheme is
compiled again, as the counting fixture shows) and nothing but verdicts and
``URLSyntaxError`` comes out.
"""

from __future__ import annotations

import marshal
import os
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.compile.pipeline import CompiledFile
from rfc1738.runtime.cache import ENVIRONMENT, read_cached
from rfc1738.runtime.store import shipped_tables
from rfc1738.runtime.tables import (
    SchemeTable,
    content_key,
    digest,
    read_checked,
    runs_as_written,
    tables_data,
)

#: URLs of the two schemes the edited grammar's cache holds, valid and not.
URLS = (
    "http://h/a|b",
    "http://www.example.com:80/a?b",
    "http://user@h/",
    "http://h/a b",
    "afs://bad host",
    "afs://h/x",
    "x-y:z",
    "http:" + "/" * 300,
)
PATIENCE = 60


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv(ENVIRONMENT, str(directory))
    return directory


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The start rules the compiler is run for, in order."""
    runs: list[str] = []
    real: Callable[..., SchemeTable] = CompiledFile.scheme_table

    def counting(grammar: Any, start: str, capture: Any, layout_fields: Any = ()) -> SchemeTable:
        runs.append(start)
        return real(grammar, start, capture, layout_fields)

    monkeypatch.setattr(CompiledFile, "scheme_table", counting)
    return runs


@pytest.fixture(scope="module")
def edited(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the shipped grammar whose http path allows ``|`` (left as it is by the tests)."""
    directory = tmp_path_factory.mktemp("edited") / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    http = directory / "http.lark"
    http.write_text(
        http.read_text(encoding="utf-8").replace('| "&" | "=" )*', '| "&" | "=" | "|" )*'),
        encoding="utf-8",
    )
    return directory


def answers(directory: Path) -> list[object]:
    """What a fresh load of ``directory`` says of each of :data:`URLS` (verdicts, errors)."""
    grammar = rfc1738.load(directory)
    found: list[object] = []
    for url in URLS:
        try:
            found.append(str(grammar.parse(url)))
        except rfc1738.URLSyntaxError as error:
            found.append((str(error), error.position, sorted(error.expected), error.rule))
        found.append(grammar.is_valid(url))
    return found


@pytest.fixture(scope="module")
def compiled_once(edited: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, Any]:
    """The cache file of the edited grammar's http and generic tables, and the answers then.

    Compiled once for the module: each test starts from a copy of the file.
    """
    directory = tmp_path_factory.mktemp("cache")
    saved = os.environ.get(ENVIRONMENT)
    os.environ[ENVIRONMENT] = str(directory)
    try:
        truth = answers(edited)
    finally:
        if saved is None:
            del os.environ[ENVIRONMENT]
        else:
            os.environ[ENVIRONMENT] = saved
    return (directory / f"{content_key(edited)}.tables").read_bytes(), truth


@pytest.fixture
def warm(compiled_once: tuple[bytes, Any], edited: Path, cache: Path) -> list[object]:
    """The cache holding the edited grammar's http and generic tables; the answers then."""
    data, truth = compiled_once
    cache.mkdir()
    (cache / f"{content_key(edited)}.tables").write_bytes(data)
    found: list[object] = truth
    return found


def forge(edited: Path, change: Callable[[dict[str, Any]], object]) -> None:
    """Rewrite the cache file of ``edited`` as ``change`` makes its data, with a good digest."""
    key = content_key(edited)
    tables = read_cached(key)
    assert tables is not None
    data = tables_data(tables)
    data = change(data) or data
    body = marshal.dumps(data)
    path = Path(os.environ[ENVIRONMENT]) / f"{key}.tables"
    header = path.read_bytes().partition(b"\n")[0].rsplit(b"=", 1)[0]
    path.write_bytes(header + b"=" + digest(body).encode() + b"\n" + body)


def generic(data: dict[str, Any]) -> dict[str, Any]:
    table: dict[str, Any] = data["schemes"]["generic"]
    return table


def http(data: dict[str, Any]) -> dict[str, Any]:
    table: dict[str, Any] = data["schemes"]["http"]
    return table


def _set(get: Callable[[dict[str, Any]], dict[str, Any]], field: str, value: object) -> Any:
    return lambda data: get(data).__setitem__(field, value)


def _automaton(field: str, value: Callable[[Any], object]) -> Any:
    def change(data: dict[str, Any]) -> None:
        automaton = dict(http(data)["automaton"])
        automaton[field] = value(automaton.get(field))
        http(data)["automaton"] = automaton

    return change


#: Forged tables, each caught by the checks, and which start rule is compiled again.
FORGERIES = {
    # The reproducer: afs://bad host parsed with an expression of ".*".
    "an expression of .*": (_set(generic, "expression", ".*"), "genericurl"),
    "an expression of .* without groups": (  # its layout's fields have no groups
        lambda data: generic(data).update(expression=".*", groups={}),
        None,
    ),
    "an expression that does not compile": (_set(http, "expression", "(?P<host>"), "httpurl"),
    "a group the expression lacks": (
        lambda data: http(data)["groups"].update(host=("host", "host__9")),
        "httpurl",
    ),
    "a group that is not captured": (
        lambda data: http(data)["groups"].update(login=("login",)),
        None,  # refused whole when read: every scheme compiled again
    ),
    "an expression without a field's group": (
        lambda data: http(data).update(
            expression=http(data)["expression"].replace("(?P<port>", "(?:"),
            groups={k: v for k, v in http(data)["groups"].items() if k != "port"},
        ),
        None,
    ),
    "a layout of another shape": (_set(http, "layout", ("seq", ("lit", "x"))), None),
    "a layout with a field the class does not write": (
        _set(http, "layout", ("group", "login", None)),
        None,
    ),
    # The structure of every automaton and matcher is checked when the file is read.
    "an automaton with a version of its own": (_automaton("version", lambda v: 3), None),
    "an automaton of another rule": (_automaton("start", lambda v: "ftpurl"), None),
    "a transition out of range": (
        _automaton("rows", lambda rows: (chr(len(rows) + 5) + rows[0][1:], *rows[1:])),
        None,
    ),
    "a name index out of range": (
        _automaton("info", lambda info: info[:2] + "\uffff" + info[3:]),
        None,
    ),
    "a literal without its production": (_automaton("in_literals", lambda v: ()), None),
    "info cut short": (_automaton("info", lambda info: info[:-1]), None),
    "a linear matcher of another shape": (_set(http, "matcher", {"nodes": ()}), None),
    # Read by load()'s checks (a generic rule that takes a text without ":")
    # before any URL is parsed: it raised TypeError when only first use checked it.
    "a generic automaton without rows": (
        lambda data: generic(data).update(automaton={**generic(data)["automaton"], "rows": None}),
        None,
    ),
    "derived fields of another shape": (_set(http, "derived", {"search": ("after",)}), None),
    "rules of another type": (_set(http, "rules", ["httpurl"]), None),
}


@pytest.mark.parametrize("name", FORGERIES)
def test_a_forged_table_is_a_miss(
    name: str, edited: Path, warm: list[object], compiled: list[str]
) -> None:
    change, again = FORGERIES[name]
    forge(edited, change)
    assert answers(edited) == warm
    assert compiled == (["httpurl", "genericurl"] if again is None else [again])
    assert not rfc1738.load(edited).is_valid("afs://bad host")


def test_the_reproducer_afs_bad_host_is_no_url(edited: Path, warm: list[object]) -> None:
    forge(edited, _set(generic, "expression", ".*"))
    assert not rfc1738.load(edited).is_valid("afs://bad host")
    with pytest.raises(rfc1738.URLSyntaxError):
        rfc1738.load(edited).parse("afs://bad host")


def test_an_untouched_cache_compiles_nothing(
    edited: Path, warm: list[object], compiled: list[str]
) -> None:
    tables = read_cached(content_key(edited))
    assert tables is not None and sorted(tables.schemes) == ["generic", "http"]
    assert answers(edited) == warm
    assert compiled == []


def finished(call: Callable[[], object]) -> object:
    result: list[object] = []
    thread = threading.Thread(target=lambda: result.append(call()), daemon=True)
    thread.start()
    thread.join(PATIENCE)
    assert not thread.is_alive(), "still running: it hangs"
    return result[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX's")
def test_a_fifo_in_place_of_the_cache_file_is_a_miss(
    edited: Path, cache: Path, compiled: list[str]
) -> None:
    cache.mkdir()
    path = cache / f"{content_key(edited)}.tables"
    os.mkfifo(path)
    assert finished(lambda: read_cached(content_key(edited))) is None
    assert finished(lambda: rfc1738.load(edited).is_valid("http://h/a|b")) is True
    assert compiled == ["httpurl"]
    assert path.is_file()  # the FIFO replaced by the tables written


def test_a_directory_in_place_of_the_cache_file_is_a_miss(
    edited: Path, cache: Path, compiled: list[str]
) -> None:
    (cache / f"{content_key(edited)}.tables").mkdir(parents=True)
    assert rfc1738.load(edited).is_valid("http://h/a|b")
    assert rfc1738.load(edited).is_valid("http://h/a|b")  # nothing could be kept
    assert compiled == ["httpurl", "httpurl"]


def test_the_shipped_tables_pass_the_checks() -> None:
    """The wheel's tables are read unchecked; what the build writes passes the checks anyway."""
    tables = shipped_tables()
    assert tables is not None
    assert read_checked(tables_data(tables)) == tables
    assert all(runs_as_written(table) for table in tables.schemes.values())


#: Leaves of the cached data a mutation may replace, and what it may put there.
PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 300) | st.text(max_size=6),
    lambda inner: st.tuples(inner, inner) | st.tuples(inner),
    max_leaves=4,
)


def _paths(value: object, at: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Every place in the plain data ``value`` (dict keys and tuple indexes), leaves and all."""
    found: list[tuple[object, ...]] = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*at, key))
    elif isinstance(value, tuple) and len(value) < 40:
        for index, item in enumerate(value):
            found += _paths(item, (*at, index))
    return found


def _replaced(value: Any, path: tuple[object, ...], new: object) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replaced(value[head], rest, new)}
    assert isinstance(value, tuple) and isinstance(head, int)
    return (*value[:head], _replaced(value[head], rest, new), *value[head + 1 :])


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_forged_leaf_gives_verdicts_or_url_errors_only(
    edited: Path,
    warm: list[object],
    compiled_once: tuple[bytes, Any],
    cache: Path,
    monkeypatch: pytest.MonkeyPatch,
    data: st.DataObject,
) -> None:
    key = content_key(edited)
    # Each example starts from the same cache file: a fixture is not set up
    # again between examples, and the one before may have added schemes.
    (cache / f"{key}.tables").write_bytes(compiled_once[0])
    tables = read_cached(key)
    assert tables is not None
    good = tables_data(tables)
    # A miss takes the table the compiler gave before: what is under test is the loader.
    by_start = {table.start: table for table in tables.schemes.values()}
    monkeypatch.setattr(CompiledFile, "scheme_table", lambda _, start, *args: by_start[start])
    schemes = {"schemes": good["schemes"]}
    path = data.draw(st.sampled_from(_paths(schemes)[1:]), label="path")
    new = data.draw(PLAIN, label="new")
    forge(edited, lambda _data: {**good, **_replaced(schemes, path, new)})
    answers(edited)  # anything but URLSyntaxError fails the test
    forge(edited, lambda _data: good)
