"""Compiled tables: the one writer and its reader, the disk cache of an edited grammar.

An edited grammar is compiled once and cached by content
(``RFC1738_CACHE_DIR``); a stale, corrupt or unwritable cache is compiled
again and never trusted. Each test counts the compiler's runs through
:meth:`rfc1738.compile.pipeline.CompiledFile.scheme_table`.
"""

from __future__ import annotations

import ast
import marshal
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.compile.pipeline import CompiledFile
from rfc1738.runtime import store
from rfc1738.runtime.cache import ENVIRONMENT, decode, encode, read_cached, write_cached
from rfc1738.runtime.tables import (
    FORMAT,
    SchemeTable,
    Tables,
    content_key,
    module_text,
    read_checked,
    read_unchecked,
    tables_data,
)

URL = "http://www.example.com/a?b"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv(ENVIRONMENT, str(directory))
    return directory


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The schemes the compiler is run for, in order."""
    runs: list[str] = []
    real: Callable[..., SchemeTable] = CompiledFile.scheme_table

    def counting(grammar: Any, start: str, capture: Any, layout_fields: Any = ()) -> SchemeTable:
        runs.append(start)
        return real(grammar, start, capture, layout_fields)

    monkeypatch.setattr(CompiledFile, "scheme_table", counting)
    return runs


@pytest.fixture
def edited(tmp_path: Path) -> Path:
    """A copy of the shipped grammar whose http path allows ``|``."""
    directory = tmp_path / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    http = directory / "http.lark"
    http.write_text(
        http.read_text(encoding="utf-8").replace('| "&" | "=" )*', '| "&" | "=" | "|" )*'),
        encoding="utf-8",
    )
    return directory


def test_the_edit_takes(edited: Path, cache: Path) -> None:
    assert rfc1738.load(edited).is_valid("http://h/a|b")
    assert not rfc1738.is_valid("http://h/a|b")


def test_an_edited_grammar_is_compiled_once(edited: Path, cache: Path, compiled: list[str]) -> None:
    assert rfc1738.load(edited).parse(URL).host == "www.example.com"
    assert compiled == ["httpurl"]
    assert read_cached(content_key(edited)) is not None
    # Another grammar of the same directory (another process, as far as the
    # tables are concerned) reads the cache: nothing is compiled again.
    assert rfc1738.load(edited).parse(URL).host == "www.example.com"
    assert compiled == ["httpurl"]


def test_each_scheme_is_added_to_the_cache_on_first_use(
    edited: Path, cache: Path, compiled: list[str]
) -> None:
    rfc1738.load(edited).parse(URL)
    rfc1738.load(edited).parse("ftp://h/x")
    rfc1738.load(edited).parse("ftp://h/y")
    rfc1738.load(edited).parse(URL)
    assert compiled == ["httpurl", "ftpurl"]
    cached = read_cached(content_key(edited))
    assert cached is not None and set(cached.schemes) == {"http", "ftp"}


def test_the_shipped_grammar_and_its_copies_compile_nothing(
    tmp_path: Path, cache: Path, compiled: list[str]
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(shipped_grammar_dir(), copy)
    assert rfc1738.load(copy).parse(URL) == rfc1738.parse(URL)
    assert compiled == []
    assert not cache.exists()


def test_editing_the_grammar_again_is_a_new_key(
    edited: Path, cache: Path, compiled: list[str]
) -> None:
    assert rfc1738.load(edited).is_valid("http://h/a|b")
    http = edited / "http.lark"
    http.write_text(
        http.read_text(encoding="utf-8").replace('| "|" )*', '| "^" )*'),
        encoding="utf-8",
    )
    assert not rfc1738.load(edited).is_valid("http://h/a|b")
    assert rfc1738.load(edited).is_valid("http://h/a^b")
    assert compiled == ["httpurl", "httpurl"]
    # Back to the shipped text: the wheel's tables serve it, nothing is compiled.
    http.write_text(
        http.read_text(encoding="utf-8").replace('| "^" )*', ")*"),
        encoding="utf-8",
    )
    assert not rfc1738.load(edited).is_valid("http://h/a^b")
    assert compiled == ["httpurl", "httpurl"]


def cache_file(cache: Path, edited: Path) -> Path:
    return cache / f"{content_key(edited)}.tables"


def test_a_stale_cache_file_is_compiled_again(
    edited: Path, cache: Path, compiled: list[str]
) -> None:
    """A file under this key whose tables say another key (another version) is not used."""
    rfc1738.load(edited).parse(URL)
    path = cache_file(cache, edited)
    # A whole, well-formed file, written for another content (or version).
    tables = read_cached(content_key(edited))
    assert tables is not None
    assert write_cached(Tables("0" * 64, tables.schemes, tables.chars))
    (cache / f"{'0' * 64}.tables").replace(path)
    assert read_cached(content_key(edited)) is None
    assert rfc1738.load(edited).parse(URL).host == "www.example.com"
    assert compiled == ["httpurl", "httpurl"]
    assert read_cached(content_key(edited)) is not None  # written anew


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1 :]


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: b"", id="empty"),
        pytest.param(lambda data: data[: len(data) // 2], id="truncated"),
        pytest.param(lambda data: b"\x00\xff garbage", id="garbage"),
        pytest.param(lambda data: data.replace(b"httpurl", b"httpurk"), id="body changed"),
        pytest.param(lambda data: _flip(data, len(data) - 100), id="one bit flipped"),
        pytest.param(lambda data: data + b"\n", id="data appended"),
        pytest.param(lambda data: _flip(data, 70), id="digest changed"),
    ],
)
def test_a_corrupt_cache_file_is_compiled_again(
    edited: Path, cache: Path, compiled: list[str], damage: Callable[[bytes], bytes]
) -> None:
    rfc1738.load(edited).parse(URL)
    path = cache_file(cache, edited)
    path.write_bytes(damage(path.read_bytes()))
    assert read_cached(content_key(edited)) is None
    assert rfc1738.load(edited).parse(URL).host == "www.example.com"
    assert compiled == ["httpurl", "httpurl"]


def test_a_cache_file_with_a_good_digest_but_wrong_shape_is_not_trusted(
    edited: Path, cache: Path, compiled: list[str]
) -> None:
    """The digest only says the file is whole: its content is checked as well."""
    import hashlib

    from rfc1738.runtime.cache import _HEADER

    rfc1738.load(edited).parse(URL)
    path = cache_file(cache, edited)
    key = content_key(edited)
    good = tables_data(read_cached(key) or Tables(key, {}, {}))
    for value in (
        compile("__import__('os').system('false')", "<cache>", "exec"),  # code: never run
        {**good, "chars": {("common", "terminal", "X"): compile("1", "<cache>", "eval")}},
        {**good, "schemes": {"http": {**good["schemes"]["http"], "layout": 1.5}}},
        {**good, "schemes": {"http": {**good["schemes"]["http"], "rules": ["hpath"]}}},
        {"format": FORMAT, "key": "k", "schemes": {}, "chars": {}},  # another key
        {"format": FORMAT, "key": key, "schemes": {"http": 1}, "chars": {}},
    ):
        body = marshal.dumps(value)
        path.write_bytes(_HEADER + hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
        assert read_cached(content_key(edited)) is None
    assert rfc1738.load(edited).parse(URL).host == "www.example.com"
    assert compiled == ["httpurl", "httpurl"]
    body = marshal.dumps(good)
    path.write_bytes(_HEADER + hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
    assert read_cached(content_key(edited)) is not None  # the tables themselves: trusted


def test_an_unwritable_cache_is_no_error(
    edited: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compiled: list[str]
) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv(ENVIRONMENT, str(blocker / "cache"))
    grammar = rfc1738.load(edited)
    assert grammar.is_valid("http://h/a|b")
    assert grammar.is_valid("http://h/c|d")  # compiled once for this grammar
    assert rfc1738.load(edited).is_valid("http://h/a|b")  # and again: nothing was kept
    assert compiled == ["httpurl", "httpurl"]


def test_an_empty_variable_turns_the_cache_off(
    edited: Path, monkeypatch: pytest.MonkeyPatch, compiled: list[str]
) -> None:
    monkeypatch.setenv(ENVIRONMENT, "")
    assert rfc1738.load(edited).is_valid("http://h/a|b")
    assert read_cached(content_key(edited)) is None


def test_the_cache_is_in_the_users_cache_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rfc1738.runtime.cache import cache_dir

    monkeypatch.delenv(ENVIRONMENT)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "rfc1738"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "rfc1738"


def test_written_tables_read_back_the_same() -> None:
    """One writer, two encodings (a Python literal, marshal), two loaders: the same tables."""
    shipped = store.shipped_tables()
    assert shipped is not None, "the tests run the installed wheel, which has its tables"
    text = module_text(shipped, "TABLES")
    assert text.startswith("TABLES = {\n")
    literal = ast.literal_eval(text.removeprefix("TABLES = "))
    assert literal == tables_data(shipped)
    assert read_checked(literal) == shipped == read_unchecked(literal)
    assert module_text(read_checked(literal), "TABLES") == text
    assert read_checked(marshal.loads(marshal.dumps(tables_data(shipped)))) == shipped
    assert decode(encode(shipped)) == shipped


def test_derived_fields_are_written_and_read() -> None:
    """A scheme's ``derived`` cuts (a hook's fields) go through both encodings."""
    shipped = store.shipped_tables()
    assert shipped is not None
    http = shipped.schemes["http"]
    cut = ("after_gtype", "%09", 1, 3, "", "RFC 1738 section 3.4: the search")
    fields = dict(zip(SchemeTable._fields, http._values(), strict=True))
    table = SchemeTable(**{**fields, "derived": {"x": cut}})
    tables = Tables(shipped.key, {"http": table}, {})
    assert read_checked(ast.literal_eval(module_text(tables, "T").removeprefix("T = "))) == tables
    assert decode(encode(tables)) == tables
    for bad in ({"x": cut[:5]}, {"x": (*cut[:2], True, *cut[3:])}, {1: cut}, (("x", cut),)):
        data = tables_data(tables)
        data["schemes"]["http"]["derived"] = bad
        with pytest.raises(ValueError):
            read_checked(data)


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"format": FORMAT + 1, "key": "k", "schemes": {}, "chars": {}},
        {"format": float(FORMAT), "key": "k", "schemes": {}, "chars": {}},
        {"format": FORMAT, "key": 1, "schemes": {}, "chars": {}},
        {"format": FORMAT, "key": "k", "schemes": {}, "chars": {}, "more": 1},
        {"format": FORMAT, "key": "k", "schemes": {"http": {"start": "httpurl"}}, "chars": {}},
        {"format": FORMAT, "key": "k", "schemes": {}, "chars": {("common", "terminal"): "ab"}},
        {"format": FORMAT, "key": "k", "schemes": {}, "chars": {("a", "b", "c"): 1}},
    ],
)
def test_the_reader_refuses_what_the_writer_does_not_write(data: object) -> None:
    with pytest.raises(ValueError):
        read_checked(data)


def test_the_facts_of_the_grammar_are_read_from_its_tables_or_files(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``SchemeFacts.start`` and ``.login`` are the grammar's, never restated.

    From the wheel's tables; where they are not the installed files', from the
    files (Lark), with the same answers: each scheme's start rule is defined,
    and exactly ftp, telnet and the generic file's reach ``login``.
    """
    from rfc1738.bnf.files import scheme_files
    from rfc1738.runtime import facts

    schemes = scheme_files(shipped_grammar_dir())
    every = [*facts.SCHEME_FACTS.values(), facts.OTHER_SCHEMES]
    read = {f.name: (f.start, f.login) for f in every}
    assert {name: start for name, (start, _login) in read.items()} == {
        name: entry.start for name, entry in schemes.items()
    }
    assert {name for name, (_start, login) in read.items() if login} == {"ftp", "telnet", "generic"}
    monkeypatch.setattr(facts, "shipped_tables", lambda: None)
    facts._has_login.cache_clear()
    try:
        assert {f.name: (f.start, f.login) for f in every} == read
    finally:
        facts._has_login.cache_clear()
