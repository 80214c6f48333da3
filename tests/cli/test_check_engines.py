"""``rfc1738 check`` on DuckDB and on the library in Python: the same summary, table, status.

Each file is checked with ``--engine duckdb`` and ``--engine python`` (the
DuckDB runs skip where duckdb or pyarrow is not installed); the outputs must
be the same but for the summary's last line, which names the engine. The
tables of ``--format`` are read back and held to :func:`rfc1738.parse` and
the struct the library's match gives (:func:`tests.columns.backends.library`).
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rfc1738
from rfc1738.cli.check import BATCH_BYTES, Progress, installed_engine
from rfc1738.cli.output import not_utf8_dict
from tests.cases import ACCEPT, GRAMMAR_ONLY, REJECT
from tests.columns.backends import library

from .helpers import TIMEOUT, Result, error_of, on_terminal, run

HAS_DUCKDB = installed_engine() == "duckdb"
ENGINES = [
    "python",
    pytest.param(
        "duckdb",
        marks=pytest.mark.skipif(not HAS_DUCKDB, reason="duckdb or pyarrow is not installed"),
    ),
]


def _lines(texts: list[str], end: bytes = b"\n") -> bytes:
    return b"".join(t.encode("utf-8", "surrogateescape") + end for t in texts)


VALID = [case.url for cases in ACCEPT.values() for case in cases]
INVALID = [case.url for cases in (*REJECT.values(), *GRAMMAR_ONLY.values()) for case in cases]

#: Each file, as bytes: what the two engines must agree on.
FILES = {
    "valid": _lines(VALID),
    "invalid": _lines(INVALID),
    "mixed": _lines([t for pair in zip(VALID, INVALID, strict=False) for t in pair]),
    "empty lines": b"\n\nhttp://h/\n\n\nftp://h/a b\n\n",
    "not UTF-8": b"http://h/caf\xe9\nhttp://h/\nmailto:joe\xffx@example.com\n\xff\xfe\n",
    "CRLF": b"http://h/\r\nhttp://h/a b\r\nftp://h/x;type=a\r\n\r\n",
    "no final newline": b"http://h/\nhttp://h/a b\nnews:comp.lang",
    "empty": b"",
    # DuckDB reads none of these itself (columns/files.py): the batches do.
    "a byte order mark and a lone CR": b"\xef\xbb\xbfhttp://h/\nhttp://h/a\rb\nhttp://h/\n",
}


def without_engine(result: Result) -> Result:
    """The result with the summary's last line (the engine) taken off."""
    out = result.out
    for engine in ("duckdb", "python"):
        out = out.removesuffix(f"\nengine: {engine}\n")
    return Result(result.status, out, result.err)


def both(*args: str | Path, input: bytes = b"") -> Result:
    """``rfc1738 check ARGS`` on each engine: the one result both give."""
    found = {}
    for engine in ("python", "duckdb") if HAS_DUCKDB else ("python",):
        result = run("check", "--engine", engine, *args, input=input)
        assert result.out.endswith(f"\nengine: {engine}\n") or "--format" in args
        found[engine] = without_engine(result)
    assert len(set(found.values())) == 1, found
    return found["python"]


@pytest.mark.parametrize("name", sorted(FILES))
def test_the_engines_give_the_same_summary(tmp_path: Path, name: str) -> None:
    path = tmp_path / "urls.txt"
    path.write_bytes(FILES[name])
    result = both(path, "--show", "1000")
    assert result.status == (1 if name != "valid" and name != "empty" else 0)
    assert result.err == ""
    # Python's own summary: the lines judged one by one, as before the engine.
    texts = FILES[name].decode("utf-8", "surrogateescape").split("\n")
    texts = [t.removesuffix("\r") for t in texts]
    if texts[-1] == "":
        texts.pop()
    invalid = sum(1 for t in texts if not rfc1738.is_valid(t))
    assert result.out.startswith(
        f"{len(texts)} line{'' if len(texts) == 1 else 's'}: "
        f"{len(texts) - invalid} valid, {invalid} invalid\n"
    )
    # And read from stdin, the same but for the name.
    assert both("--show", "1000", input=FILES[name]) == Result(
        result.status, result.out.replace(f"{path}:", "<stdin>:"), ""
    )


def test_the_engines_agree_across_batches(tmp_path: Path) -> None:
    """Lines over several batches, CRLF and bytes not UTF-8 in some only: the same errors."""
    lines = []
    count = 0
    while count < 3 * BATCH_BYTES:
        number = len(lines)
        if number % 9973 == 0:
            line = b"http://h/a b%d\n" % number
        elif number % 31337 == 0:
            line = b"http://h/caf\xe9%d\r\n" % number
        else:
            line = b"http://host%d.example.com/p/%d?q\n" % (number, number)
        lines.append(line)
        count += len(line)
    path = tmp_path / "many.txt"
    path.write_bytes(b"".join(lines))
    result = both(path, "--show", "100")
    assert result.status == 1
    numbers = [i + 1 for i in range(len(lines)) if i % 9973 == 0 or i % 31337 == 0]
    for number in numbers:
        assert f"{path}:{number}: " in result.out


LONG = "http://h/" + "a" * rfc1738.MAX_REFERENCE_LENGTH


def test_the_reference_parser_runs_in_python_whatever_is_installed() -> None:
    data = f"http://h/\n{LONG}\nhttp://h/a b\n".encode()
    default = run("check", "--parser", "reference", input=data)
    python = run("check", "--parser", "reference", "--engine", "python", input=data)
    assert default == python
    assert default.status == 1
    assert default.out.endswith("\nengine: python\n")
    assert "1 too long for the reference parser" in default.out


@pytest.mark.skipif(not HAS_DUCKDB, reason="duckdb or pyarrow is not installed")
def test_the_default_is_duckdb_when_installed_and_help_says_so() -> None:
    assert run("check", input=b"http://h/\n").out.endswith("\nengine: duckdb\n")
    assert "default: duckdb here" in " ".join(run("check", "--help").out.split())


#: Runs the command line with duckdb and pyarrow made impossible to import.
WITHOUT_EXTRAS = """
import sys
sys.modules["duckdb"] = sys.modules["pyarrow"] = None
from rfc1738.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def without_extras(*args: str, input: bytes = b"") -> Result:
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_EXTRAS, *args],
        input=input,
        capture_output=True,
        timeout=TIMEOUT,
    )
    return Result(done.returncode, done.stdout.decode(), done.stderr.decode())


def test_without_the_extra_python_runs_and_says_so(tmp_path: Path) -> None:
    data = FILES["mixed"]
    result = without_extras("check", input=data)
    assert result.out.endswith("\nengine: python\n")
    assert without_engine(result) == without_engine(run("check", input=data))
    assert "default: python here" in " ".join(without_extras("check", "--help").out.split())
    # Asked for by name, or for Parquet: what is missing, and exit status 2.
    result = without_extras("check", "--engine", "duckdb", input=data)
    assert (result.status, result.out) == (2, "")
    assert "--engine duckdb needs duckdb and pyarrow" in result.err
    out = tmp_path / "out.parquet"
    result = without_extras("check", "--format", "parquet", "--output", str(out), input=data)
    assert (result.status, result.out) == (2, "")
    assert result.err == "rfc1738: --format parquet needs pyarrow: pip install 'rfc1738[duckdb]'\n"
    assert not out.exists()
    # JSON lines and CSV need nothing more.
    result = without_extras("check", "--format", "csv", input=data)
    assert result.status == 1
    assert result.out == run("check", "--format", "csv", "--engine", "python", input=data).out


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--output", "x.txt"], "--output is for --format"),
        (["--format", "parquet"], "--format parquet needs --output PATH"),
        (["--format", "csv", "--parser", "reference"], "--format judges with the fast parser"),
        (["--engine", "duckdb", "--jsonl"], "--jsonl and --parser reference run in Python"),
        (["--jsonl", "--format", "csv"], "not allowed with argument"),
    ],
)
def test_options_that_do_not_go_together_exit_2(tmp_path: Path, args: list[str], said: str) -> None:
    result = run("check", *args, input=b"http://h/\n", cwd=tmp_path)
    assert (result.status, result.out) == (2, "")
    assert said in result.err
    assert not (tmp_path / "x.txt").exists()


# ---- the tables of --format ----

#: A file with every kind of line: valid of each scheme, invalid, CRLF, not UTF-8, empty.
TABLE = FILES["mixed"] + FILES["not UTF-8"] + FILES["CRLF"] + FILES["no final newline"]


def table_texts() -> list[str]:
    texts = TABLE.decode("utf-8", "surrogateescape").split("\n")
    return [t.removesuffix("\r") for t in texts]


def expected_rows(texts: list[str]) -> list[dict[str, object]]:
    """Each line's row, from the library: the verdict, the struct, the error."""
    answers = library(texts)
    missing = dict.fromkeys(library(["http://h/"]).structs[0] or {})
    rows = []
    for number, (text, valid, struct) in enumerate(
        zip(texts, answers.checked, answers.structs, strict=True), 1
    ):
        shown = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        row: dict[str, object] = {"line": number, "text": shown, "valid": valid}
        row.update(struct or missing)
        error = {"position": None, "rule": None, "reason": None}
        if not valid:
            encoding = not_utf8_dict(text)
            if encoding is not None:
                error = {"position": encoding["position"], "rule": None}
                error["reason"] = encoding["reason"]
            else:
                found = error_of(text)
                error = {"position": found.position, "rule": found.rule, "reason": found.reason}
        row.update(error)
        rows.append(row)
    return rows


@pytest.mark.parametrize("engine", ENGINES)
def test_format_jsonl_is_the_library_row_by_row(tmp_path: Path, engine: str) -> None:
    out = tmp_path / "out.jsonl"
    result = run("check", "--engine", engine, "--format", "jsonl", "--output", out, input=TABLE)
    assert result.status == 1
    assert result.out.startswith(f"{len(table_texts())} lines: ")
    assert result.out.endswith(f"\nengine: {engine}\n")
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows == expected_rows(table_texts())


@pytest.mark.parametrize("engine", ENGINES)
def test_format_csv_holds_the_same_rows(tmp_path: Path, engine: str) -> None:
    out = tmp_path / "out.csv"
    run("check", "--engine", engine, "--format", "csv", "--output", out, input=TABLE)
    written = out.read_text(encoding="utf-8")
    header, *cells = list(csv.reader(io.StringIO(written, newline="")))
    expected = expected_rows(table_texts())
    assert header == list(expected[0])

    def cell(value: object) -> str:
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        return value if isinstance(value, str) else json.dumps(value)

    assert cells == [[cell(v) for v in row.values()] for row in expected]
    # A null is an empty cell, an empty string a quoted one: an http URL's hpath.
    assert '\n1,"http://ds.internic.net/instructions/overview.html",true,"http",' in "\n" + written


@pytest.mark.skipif(not HAS_DUCKDB, reason="duckdb or pyarrow is not installed")
def test_format_jsonl_and_csv_are_the_same_bytes_from_either_engine(tmp_path: Path) -> None:
    for name in ("jsonl", "csv"):
        python = run("check", "--engine", "python", "--format", name, input=TABLE)
        duckdb = run("check", "--engine", "duckdb", "--format", name, input=TABLE)
        assert python == duckdb
        assert python.status == 1 and python.out


@pytest.mark.parametrize("engine", ENGINES)
def test_format_parquet_reads_back_as_the_library(tmp_path: Path, engine: str) -> None:
    parquet = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed")
    out = tmp_path / "out.parquet"
    result = run("check", "--engine", engine, "--format", "parquet", "--output", out, input=TABLE)
    assert result.status == 1
    table = parquet.read_table(out)
    assert table.to_pylist() == expected_rows(table_texts())
    assert str(table.schema.field("line").type) == "int64"
    assert str(table.schema.field("fieldspecs").type) == (
        "list<element: struct<name: string, value: string>>"
    )


@pytest.mark.skipif(not HAS_DUCKDB, reason="duckdb or pyarrow is not installed")
def test_format_parquet_of_a_plain_file_is_the_library(tmp_path: Path) -> None:
    """A plain UTF-8 file, no CR (which DuckDB reads itself for the summary): the library's rows."""
    parquet = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed")
    data = FILES["mixed"] + FILES["empty lines"] + FILES["no final newline"]
    path = tmp_path / "urls.txt"
    path.write_bytes(data)
    texts = data.decode("utf-8").split("\n")
    tables = {}
    for engine in ("python", "duckdb"):
        out = tmp_path / f"{engine}.parquet"
        result = run("check", "--engine", engine, "--format", "parquet", "--output", out, path)
        assert result.status == 1
        assert result.out == both(path).out + f"\nengine: {engine}\n"
        tables[engine] = parquet.read_table(out)
    assert tables["duckdb"].to_pylist() == expected_rows(texts)
    assert tables["python"].equals(tables["duckdb"])


@pytest.mark.skipif(not HAS_DUCKDB, reason="duckdb or pyarrow is not installed")
def test_format_parquet_over_batches_is_the_same_from_either_engine(tmp_path: Path) -> None:
    parquet = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed")
    lines = b"".join(
        b"http://h/a b%d\n" % i if i % 101 == 0 else b"ftp://u:p@h%d/x;type=i\n" % i
        for i in range(2 * BATCH_BYTES // 24)
    )
    path = tmp_path / "many.txt"
    path.write_bytes(lines)
    tables = {}
    for engine in ("python", "duckdb"):
        out = tmp_path / f"{engine}.parquet"
        result = run("check", "--engine", engine, "--format", "parquet", "--output", out, path)
        assert result.status == 1
        tables[engine] = parquet.read_table(out)
    assert tables["python"].equals(tables["duckdb"])
    lines_column = tables["duckdb"].column("line").to_pylist()
    assert lines_column == list(range(1, len(lines_column) + 1))
    assert tables["duckdb"].num_rows == lines.count(b"\n")


#: Seconds of a run of ``check`` long enough that its progress must have been drawn.
A_LONG_RUN = 1.0


@pytest.mark.skipif(not HAS_DUCKDB, reason="duckdb or pyarrow is not installed")
def test_a_file_duckdb_reads_shows_the_share_read_on_a_terminal(tmp_path: Path) -> None:
    import duckdb

    if duckdb.__version__.split(".")[0] == "1":
        pytest.skip(f"duckdb {duckdb.__version__} reports no progress while a query runs")
    # Enough lines for the counting query to run past the first redraw
    # (Progress.INTERVAL): 2,000,000 take DuckDB 0.3 s here. A machine fast
    # enough to count them before that gets four times as many; a run of
    # A_LONG_RUN seconds that showed nothing fails.
    path = tmp_path / "many.txt"
    for lines in (2_000_000, 8_000_000):
        path.write_bytes(b"".join(b"http://h/%d\n" % i for i in range(lines)))
        start = time.monotonic()
        status, out, shown = on_terminal("check", path)
        took = time.monotonic() - start
        assert status == 0
        assert out.startswith(b"%d lines: %d valid, 0 invalid\n" % (lines, lines))
        assert out.endswith(b"\nengine: duckdb\n")
        if b"% of the file read" in shown or took >= A_LONG_RUN:
            break
    assert b"% of the file read" in shown, f"nothing shown in {took:.2f} s"
    assert took > Progress.INTERVAL
    assert shown.startswith(b"\r") and shown.endswith(b"\r\x1b[K")


def _many_lines(size: int) -> bytes:
    """Some ``size`` bytes of lines (every 101st not valid)."""
    return b"".join(
        b"http://h/a b%d\n" % i if i % 101 == 0 else b"ftp://u:p@h%d/x;type=i\n" % i
        for i in range(size // 24)
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_format_to_a_reader_gone_away_ends_quietly_with_141(tmp_path: Path, engine: str) -> None:
    """``| head -1``: the batches judged ahead are dropped, the thread ends, no traceback."""
    from rfc1738.cli.output import BROKEN_PIPE

    from .helpers import SCRIPT, first_line_then_gone

    path = tmp_path / "many.txt"
    # A batch and some: its rows fill the pipe many times, the next is judged ahead.
    path.write_bytes(_many_lines(BATCH_BYTES + BATCH_BYTES // 4))
    assert SCRIPT is not None
    child = subprocess.Popen(
        [SCRIPT, "check", "--engine", engine, "--format", "csv", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    header, status, err = first_line_then_gone(child)
    assert header.startswith(b'"line","text","valid",')
    assert (status, err) == (BROKEN_PIPE, b"")


def test_an_error_judging_ahead_is_raised_in_the_writer_s_thread_and_the_thread_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the judging thread raises reaches the loop that writes, which stops the thread."""
    import threading

    from rfc1738.cli import check
    from rfc1738.columns.runners import runner

    monkeypatch.setattr(check, "BATCH_BYTES", 16 << 10)  # (many small batches)

    judge = runner("python", rfc1738.shipped())
    calls = []

    def run(rows: object, *args: object) -> object:
        calls.append(rows)
        if len(calls) == 2:
            raise OSError("the disk went away")
        return type(judge).run(judge, rows, *args)  # type: ignore[arg-type]

    judge.run = run  # type: ignore[method-assign]
    batches = check._ahead(io.BytesIO(_many_lines(256 << 10)), judge, True, False)
    rows, found = next(batches)
    assert len(found) == len(rows) > 0
    with pytest.raises(OSError, match="the disk went away"):
        next(batches)
    assert not [t for t in threading.enumerate() if t.name == "rfc1738-judge"]
    # Left early: the thread stops too, its batches judged ahead dropped.
    batches = check._ahead(
        io.BytesIO(_many_lines(256 << 10)), runner("python", rfc1738.shipped()), True, False
    )
    next(batches)
    batches.close()
    assert not [t for t in threading.enumerate() if t.name == "rfc1738-judge"]
