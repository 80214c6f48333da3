"""The bulk API: every kind of input, both engines, batches of a file, errors, counts."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import rfc1738
from rfc1738.columns import Checked, check, check_batches, default_engine

ENGINES = ("duckdb", "python")

URLS = [
    "http://www.example.com:8080/a%20b?q=rfc",
    "ftp://@host.com/pub;type=i",
    "http://user@host/",
    "HTTP://192.0.2.300/",
    None,
    "prospero://h/p;version=2;type=x",
    "http://a\n",
    "x:y",
    "",
    "http://\udcff",
]


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    if request.param == "duckdb":
        pytest.importorskip("duckdb", reason="duckdb is not installed (rfc1738[duckdb])")
        pytest.importorskip("pyarrow", reason="pyarrow is not installed (rfc1738[duckdb])")
    return str(request.param)


def verdicts(urls: list[str | None]) -> list[bool | None]:
    return [None if u is None else rfc1738.is_valid(u) for u in urls]


def test_a_list_gives_the_library_s_verdicts_errors_and_schemes(engine: str) -> None:
    found = check(URLS, errors=True, schemes=True, engine=engine)  # type: ignore[arg-type]
    assert found.engine == engine and found.start == 0 and len(found) == len(URLS)
    assert found.valid == verdicts(URLS)
    assert found.schemes == [
        None if u is None else rfc1738.load().scheme_file(u).scheme for u in URLS
    ]
    assert found.errors is not None
    rejected = [i for i, v in enumerate(found.valid) if v is False]
    assert sorted(found.errors) == rejected
    for index in rejected:
        text = URLS[index]
        assert text is not None
        with pytest.raises(rfc1738.URLSyntaxError) as raised:
            rfc1738.parse(text)
        error = found.errors[index]
        assert (str(error), error.position, error.rule) == (
            str(raised.value),
            raised.value.position,
            raised.value.rule,
        )
    assert found.invalid == len(rejected)


def test_both_engines_give_the_same_table() -> None:
    pytest.importorskip("duckdb", reason="duckdb is not installed (rfc1738[duckdb])")
    tables = [
        check(URLS, errors=True, schemes=True, struct=True, engine=e).to_arrow()  # type: ignore[arg-type]
        for e in ENGINES
    ]
    assert tables[0].schema == tables[1].schema
    assert tables[0].to_pylist() == tables[1].to_pylist()
    assert tables[0].column_names == ["valid", "scheme", "url", "error"]


def test_struct_fields_are_the_struct_column_flattened(engine: str) -> None:
    pytest.importorskip("pyarrow", reason="pyarrow is not installed")
    found = check(URLS, struct=True, engine=engine)  # type: ignore[arg-type]
    fields = found.struct_fields()
    whole = found.struct_column()
    assert [f.to_pylist() for f in fields] == [f.to_pylist() for f in whole.flatten()]
    assert [f.type for f in fields] == [whole.type.field(i).type for i in range(len(fields))]


def test_without_host_checks_the_bare_grammar(engine: str) -> None:
    urls = ["http://h:65536/", "http://1.2.3.256/", "http://" + "a" * 64 + "/"]
    found = check(urls, host_checks=False, errors=True, engine=engine)  # type: ignore[arg-type]
    assert found.valid == [True, True, True] and found.errors == {}
    assert check(urls, engine=engine).valid == [False, False, False]  # type: ignore[arg-type]


def test_columns_of_other_libraries(engine: str) -> None:
    pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed")
    pd = pytest.importorskip("pandas", reason="pandas is not installed")
    pl = pytest.importorskip("polars", reason="polars is not installed")
    storable = [u for u in URLS if u is None or "\udcff" not in u]
    want = verdicts(storable)
    columns = {
        "tuple": tuple(storable),
        "pyarrow": pa.array(storable),
        "pyarrow large": pa.array(storable, pa.large_string()),
        "chunked": pa.chunked_array([storable[:3], storable[3:]]),
        "pandas": pd.Series(storable),
        "pandas NaN": pd.Series([float("nan") if u is None else u for u in storable]),
        "polars": pl.Series(storable),
    }
    for name, column in columns.items():
        assert check(column, engine=engine).valid == want, name  # type: ignore[arg-type]


def test_what_is_not_a_column_of_strings_is_refused(engine: str) -> None:
    for wrong in ("http://h/", b"http://h/", ["http://h/", 7], 7):
        with pytest.raises(TypeError):
            check(wrong, engine=engine)  # type: ignore[arg-type]
    pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed")
    if engine == "duckdb":
        with pytest.raises(TypeError):
            check(pa.array([1, 2]), engine=engine)  # type: ignore[arg-type]


#: Files as check_lines reads them: CRLF, a CR alone, bytes not UTF-8 (split in
#: Python); plain UTF-8 lines (split by the DuckDB runner in Arrow); no last newline.
FILES = (
    b"http://h/\r\nftp://x y\n\nnews:a\xffb\nhttp://h/a\rb\nx:y",
    "http://h/\nftp://x y\n\nnews:caf\u00e9\n\n\u212a:y\nx:y\nhttp://h:65536/\nhttp://h:6/\n"
    "http://1.2.3.256/\nhttp://1.2.3.255/\n".encode(),
    b"x:y",
    b"\n\n",
)


@pytest.fixture(params=range(len(FILES)))
def lines_file(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    path = tmp_path / "urls.txt"
    path.write_bytes(FILES[request.param])
    return path


def test_a_file_s_lines_are_the_lines_check_lines_reads(engine: str, lines_file: Path) -> None:
    results = list(rfc1738.check_lines(lines_file.open("rb")))
    found = check(lines_file, schemes=True, errors=True, engine=engine)  # type: ignore[arg-type]
    assert found.valid == [r.valid for r in results]
    assert found.schemes == [r.scheme for r in results]
    batches = list(check_batches(str(lines_file), schemes=True, engine=engine, batch_bytes=8))  # type: ignore[arg-type]
    assert len(batches) >= 1
    assert [b.start for b in batches] == [
        sum(len(x) for x in batches[:i]) for i in range(len(batches))
    ]
    assert [v for b in batches for v in b.valid] == [r.valid for r in results]
    with lines_file.open("rb") as stream:
        again = list(check_batches(stream, engine=engine))  # type: ignore[arg-type]
    assert [v for b in again for v in b.valid] == [r.valid for r in results]


def test_batches_of_an_iterable_of_lines(engine: str) -> None:
    def lines() -> Iterator[str]:
        yield from ("http://h/\n", "ftp://x y\r\n", "x:y")

    found = [b.valid for b in check_batches(lines(), engine=engine)]  # type: ignore[arg-type]
    assert found == [[True, False, True]]
    with pytest.raises(TypeError):
        list(check_batches([b"http://h/"], engine=engine))  # type: ignore[arg-type, list-item]


def test_streams_read_at_once_and_checks_between_keep_their_answers(engine: str) -> None:
    """On DuckDB a stream holds its connection: another stream, or a check, gets another."""
    many = [f"http://h/{i}" if i % 3 else f"x y{i}" for i in range(3000)]
    # An iterable's lines: no None, and a line's "\n" is its end.
    urls = [u for u in URLS if u is not None and "\n" not in u] * 300
    want_many, want_urls = verdicts(many), verdicts(urls)  # type: ignore[arg-type]
    first = check_batches(many, struct=True, engine=engine, batch_bytes=64)  # type: ignore[arg-type]
    second = check_batches(urls, errors=True, engine=engine, batch_bytes=64)  # type: ignore[arg-type]
    got_many: list[bool | None] = []
    got_urls: list[bool | None] = []
    for one, other in zip(first, second, strict=False):
        got_many += one.valid
        got_urls += other.valid
        assert check(urls[:5], engine=engine).valid == want_urls[:5]  # type: ignore[arg-type]
        assert other.errors is not None and set(other.errors) == {
            i for i, v in enumerate(other.valid) if v is False
        }
    got_many += [v for b in first for v in b.valid]
    got_urls += [v for b in second for v in b.valid]
    assert (got_many, got_urls) == (want_many, want_urls)


def test_a_stream_given_back_out_of_order_is_an_error() -> None:
    """The check on DuckDB's order (``preserve_insertion_order``): rows out of order raise."""
    pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (rfc1738[duckdb])")
    from rfc1738.columns.runners import _in_order

    _in_order(pa.table({"number": pa.chunked_array([[3, 4], [5]])}), 3)
    _in_order(pa.table({"number": pa.array([], pa.int64())}), 7)
    for numbers, start in [([3, 5, 4], 3), ([4, 5, 6], 3)]:
        with pytest.raises(RuntimeError, match="out of order"):
            _in_order(pa.table({"number": numbers}), start)


def test_counts_are_check_s(engine: str, lines_file: Path) -> None:
    results = list(rfc1738.check_lines(lines_file.open("rb")))
    found = check(lines_file, schemes=True, engine=engine)  # type: ignore[arg-type]
    want: dict[str, list[int]] = {}
    for r in results:
        want.setdefault(r.scheme, [0, 0])[0 if r.valid else 1] += 1
    assert found.counts() == {s: tuple(c) for s, c in sorted(want.items())}
    with pytest.raises(ValueError):
        check(["x:y"], engine=engine).counts()  # type: ignore[arg-type]


def test_the_python_runner_serves_without_duckdb(monkeypatch: pytest.MonkeyPatch) -> None:
    """``engine=None`` is DuckDB when it imports, the library otherwise: the same answers."""
    if "duckdb" in sys.modules or default_engine() == "duckdb":
        assert default_engine() == "duckdb"
        assert check(["x:y"]).engine == "duckdb"
    monkeypatch.setitem(sys.modules, "duckdb", None)  # import duckdb raises ImportError
    assert default_engine() == "python"
    found = check(URLS, errors=True)
    assert found.engine == "python" and found.valid == verdicts(URLS)


def test_an_engine_by_another_name_is_refused() -> None:
    with pytest.raises(ValueError):
        check(["x:y"], engine="spark")  # type: ignore[arg-type]


def test_repr_and_types() -> None:
    found = check(["x:y", "a b"], engine="python")
    assert isinstance(found, Checked)
    assert repr(found) == "<Checked 2 URLs from 0, 1 invalid, on python>"


def test_plain_utf8_lines_are_split_in_arrow(tmp_path: Path) -> None:
    """The DuckDB runner's file blocks: Arrow arrays over the file's bytes, the same lines."""
    pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed")
    pytest.importorskip("numpy", reason="numpy is not installed")
    from rfc1738.columns.lines import line_batches

    path = tmp_path / "urls.txt"
    path.write_bytes(FILES[1])
    blocks = list(line_batches(path, 1 << 20, arrow=True))
    assert all(isinstance(block, pa.Array) for block in blocks)
    lines = [line for block in blocks for line in block.to_pylist()]
    assert lines == [r.text for r in rfc1738.check_lines(path.open("rb"))]
    assert all(isinstance(block, list) for block in line_batches(path, 1 << 20))
