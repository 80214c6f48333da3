"""A file DuckDB reads itself (:mod:`rfc1738.columns.files`): the lines ``check_lines`` reads.

Where the reader would split the file otherwise (a ``\\r``, a byte order
mark, bytes that are not UTF-8, standard input), :func:`count_file` gives
``None`` and ``rfc1738 check`` reads the file in batches; where it reads it,
its counts and first lines not valid are the library's, line for line.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import rfc1738
from rfc1738.columns.files import (
    BUFFER_BYTES,
    DOUBT_CHARS,
    DOUBT_LINES,
    PREFIX_BYTES,
    engine_reads,
)
from rfc1738.runtime.hosts import MAX_LABEL, MAX_PORT

duckdb = pytest.importorskip("duckdb", reason="duckdb is not installed (rfc1738[duckdb])")
pytest.importorskip("pyarrow", reason="pyarrow is not installed (rfc1738[duckdb])")

from rfc1738.columns.runners import runner  # noqa: E402  (after the skip: it needs duckdb)

#: Files the reader must refuse: each would be split otherwise, or not read as the library reads it.
REFUSED = {
    "CRLF": b"http://h/\r\nhttp://h/a\r\n",
    "a lone CR": b"http://h/a\rb\nhttp://h/\n",
    "a CR at the end": b"http://h/\nhttp://h/\r",
    "a byte order mark": b"\xef\xbb\xbfhttp://h/\nhttp://h/\n",
    "not UTF-8": b"http://h/\nhttp://h/caf\xe9\n",
    # Which Python decodes with surrogateescape as bytes that are not UTF-8 too.
    "a surrogate written in UTF-8": b"http://h/\nhttp://h/a\xed\xa0\x80b\n",
    "an overlong form": b"http://h/\nhttp://h/a\xc0\x80b\n",
    "past U+10FFFF": b"http://h/\nhttp://h/a\xf4\x90\x80\x80b\n",
    "a line past the reader's buffer": b"http://h/" + b"a" * (BUFFER_BYTES + 1) + b"\n",
}

#: Files the reader reads: the counts and first errors are the library's.
READ = {
    "empty": b"",
    "empty lines": b"\n\nhttp://h/\n\n",
    "no final newline": b"http://h/\nftp://h/a b\nnews:x",
    "a NUL": b"http://h/\x00\nhttp://h/\n",
    "a line of 3 MiB": b"http://h/" + b"a" * (3 << 20) + b"\nhttp://h/ b\n",
    "quotes and separators": b'"http://h/"\nhttp://h/a,b;c\x01d\t\n#x\n',
    "spaces kept": b" http://h/\nhttp://h/ \n",
    "hosts in doubt": "\n".join(
        [
            f"http://h:{MAX_PORT}/",
            f"http://h:{MAX_PORT + 1}/",
            f"http://h:000{MAX_PORT}/",
            f"http://{'a' * MAX_LABEL}.com/",
            f"http://{'a' * (MAX_LABEL + 1)}.com/",
            "http://" + ".".join(["a" * 60] * 5) + "/",
            "http://192.0.2.300/",
            "http://192.0.2.255:8080/",
            f"ftp://u:p@{'b' * (MAX_LABEL + 1)}/f",
            f"telnet://h:{MAX_PORT + 1}",
            f"wais://h:{MAX_PORT}/db",
            f"x-new://{'a' * (MAX_LABEL + 1)}",
            f"//{'a' * (MAX_LABEL + 1)}:99999/",
        ]
    ).encode(),
    "not ASCII": "http://h/é\nhttp://h/\u2028x\nmailto:ü@example.com\n".encode(),
}


def library(data: bytes, host_checks: bool) -> tuple[int, Counter[tuple[str, bool]], list[int]]:
    """The lines, counts by (grammar file, verdict) and invalid line numbers the library gives."""
    results = list(rfc1738.check_lines(data.splitlines(keepends=True), host_checks=host_checks))
    counts = Counter((r.scheme, bool(r.valid)) for r in results)
    return len(results), counts, [r.number for r in results if not r.valid]


def by_verdict(counts: dict[str, tuple[int, int]]) -> dict[tuple[str, bool], int]:
    """``FileCounts.counts`` as :func:`library` counts: (grammar file, verdict) → lines, none 0."""
    return {
        (file, verdict): n
        for file, pair in counts.items()
        for verdict, n in ((True, pair[0]), (False, pair[1]))
        if n
    }


def counted(path: Path, host_checks: bool, show: int) -> object:
    judge = runner("duckdb", rfc1738.shipped())
    return judge.count_file(str(path), host_checks, show)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_file_the_reader_would_split_otherwise_is_left_to_the_batches(
    tmp_path: Path, name: str
) -> None:
    path = tmp_path / "urls.txt"
    path.write_bytes(REFUSED[name])
    assert counted(path, True, 10) is None


def test_a_file_past_the_limit_is_left_to_the_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader's memory grows with the lines it reads: past FILE_BYTES, batches, which do not."""
    from rfc1738.columns import files

    path = tmp_path / "urls.txt"
    path.write_bytes(b"http://h/\n" * 100)
    assert engine_reads(str(path))
    monkeypatch.setattr(files, "FILE_BYTES", path.stat().st_size - 1)
    assert not engine_reads(str(path))
    assert counted(path, True, 10) is None


@pytest.mark.parametrize("name", ["a[1].txt", "a?.txt", "a*.txt", "a{1}.txt"])
def test_a_name_duckdb_would_read_as_a_glob_is_left_to_the_batches(
    tmp_path: Path, name: str
) -> None:
    """``a[1].txt`` is, to DuckDB, the pattern that names ``a1.txt``: another file."""
    (tmp_path / "a1.txt").write_bytes(b"http://h/\nhttp://h/ b\n")
    path = tmp_path / name
    path.write_bytes(b"http://h/\n")
    assert not engine_reads(str(path))
    assert counted(path, True, 10) is None


@pytest.mark.parametrize("name", ["it's.txt", "~x", "a b.txt", "s3://x"])
def test_names_duckdb_might_read_otherwise_are_this_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """A quote, a leading ``~``, a name like a URL (here the file x in a directory s3:)."""
    monkeypatch.chdir(tmp_path)
    Path("s3:").mkdir()
    Path(name).write_bytes(b"http://h/\nhttp://h/ b\n")
    found = counted(Path(name), True, 10)
    assert found is not None
    assert found.counts == {"http": (1, 1)}
    assert found.first_invalid == [(2, "http://h/ b")]


def test_standard_input_and_pipes_are_left_to_the_batches(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert not engine_reads(str(fifo))
    assert not engine_reads(str(tmp_path / "missing.txt"))
    assert not engine_reads(str(tmp_path))


@pytest.mark.parametrize("host_checks", [True, False])
@pytest.mark.parametrize("name", sorted(READ))
def test_a_file_the_reader_reads_counts_as_the_library(
    tmp_path: Path, name: str, host_checks: bool
) -> None:
    path = tmp_path / "urls.txt"
    path.write_bytes(READ[name])
    found = counted(path, host_checks, 1000)
    assert found is not None
    lines, counts, invalid = library(READ[name], host_checks)
    assert found.lines == lines
    assert by_verdict(found.counts) == dict(counts)
    texts = READ[name].decode().split("\n")
    assert found.first_invalid == [(n, texts[n - 1]) for n in invalid]


@pytest.mark.parametrize("host_checks", [True, False])
@pytest.mark.parametrize(("held", "chars"), [(1, 1024), (4096, 30)])
def test_lines_in_doubt_past_what_the_count_holds_are_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, host_checks: bool, held: int, chars: int
) -> None:
    """More lines in doubt than DOUBT_LINES, or longer than DOUBT_CHARS: read again, same counts."""
    from rfc1738.columns import files

    monkeypatch.setattr(files, "DOUBT_LINES", held)
    monkeypatch.setattr(files, "DOUBT_CHARS", chars)
    data = READ["hosts in doubt"] * 3
    path = tmp_path / "urls.txt"
    path.write_bytes(data)
    found = counted(path, host_checks, 1000)
    assert found is not None
    lines, counts, invalid = library(data, host_checks)
    assert (found.lines, by_verdict(found.counts)) == (lines, dict(counts))
    assert [n for n, _ in found.first_invalid] == invalid


def test_first_lines_not_valid_past_the_prefix_are_numbered_by_duckdb(tmp_path: Path) -> None:
    """Lines not valid only after the first PREFIX_BYTES: the second query finds them, in order."""
    valid = b"http://example.com/a/b/c?q\n"
    before = PREFIX_BYTES // len(valid) + 1000
    wrong = [before + 1 + 7 * k for k in range(5)]
    lines = [valid] * (wrong[-1] + 50)
    for number in wrong:
        lines[number - 1] = b"http://h/a b%d\n" % number
    lines[wrong[1] - 1] = b"http://h:%d/\n" % (MAX_PORT + 1)  # one in doubt: the host checks
    path = tmp_path / "urls.txt"
    path.write_bytes(b"".join(lines))
    found = counted(path, True, 3)
    assert found is not None
    assert [n for n, _ in found.first_invalid] == wrong[:3]
    assert found.counts == {"http": (len(lines) - 5, 5)}
    # Fewer than asked in the prefix, the rest after it.
    lines[10] = b"ftp://h/a b\n"
    path.write_bytes(b"".join(lines))
    found = counted(path, True, 3)
    assert found is not None
    assert [n for n, _ in found.first_invalid] == [11, *wrong[:2]]


def test_progress_is_the_share_read_while_the_query_runs() -> None:
    """With a callback, the query runs in a thread and the share read is reported, 0 to 100."""
    from rfc1738.columns.files import _run

    con = duckdb.connect()
    shares: list[float] = []
    # A query long enough (about a second here) to be polled a few times.
    rows = _run(
        con,
        "SELECT count(*), sum(length(repeat('a', (i % 200)::INTEGER))), true "
        "FROM range(6000000) t(i)",
        shares.append,
    )
    assert rows[0][0] == 6_000_000
    if not shares and duckdb.__version__.split(".")[0] == "1":
        # (the oldest DuckDB the extra admits, 1.4.0, and 1.5.0 give -1 from
        # another thread while the query runs: no progress line, the count the same)
        pytest.skip(f"duckdb {duckdb.__version__} reports no progress while a query runs")
    assert shares, "never polled"
    assert all(0 <= share <= 100 for share in shares)
    assert shares == sorted(shares)


def test_an_error_in_the_query_s_thread_is_raised_in_the_caller_s() -> None:
    from rfc1738.columns.files import _run

    con = duckdb.connect()
    with pytest.raises(duckdb.Error):
        _run(con, "SELECT error('no')", lambda share: None)


#: Pieces of lines: URLs valid and not, and what a CSV reader might read otherwise.
_PIECES = [
    "http://h/",
    "ftp://u:p@h:21/a;type=i",
    "news:comp.x",
    "http://h:99999/",
    "mailto:a@b",
    "x-y:z",
    " ",
    ",",
    ";",
    '"',
    "'",
    "\\",
    "\t",
    "\x00",
    "\x01",
    "#",
    "é",
    "\u2028",
    "\ufeff",
]
_BYTES = [b"\r", b"\r\n", b"\xff", b"\xef\xbb\xbf", b"\xc3", b"\n"]


@given(
    st.lists(
        st.lists(
            # Mostly text: a file with one of _BYTES is most often left to the batches.
            st.sampled_from([piece.encode() for piece in _PIECES] * 4 + _BYTES),
            max_size=6,
        ).map(b"".join),
        max_size=12,
    ),
    st.booleans(),
    st.booleans(),
    st.sampled_from([0, 7, PREFIX_BYTES]),
    st.sampled_from([(1, 1024), (4096, 12), (DOUBT_LINES, DOUBT_CHARS)]),
)
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_what_the_reader_reads_is_what_check_lines_reads(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    lines: list[bytes],
    final: bool,
    host_checks: bool,
    prefix: int,
    doubt: tuple[int, int],
) -> None:
    """Any bytes: DuckDB's counts and first errors are the library's, or it leaves the file.

    The first errors from the file's start in Python, or numbered by DuckDB
    (a prefix of 0 or 7 bytes leaves most to its second query); the lines in
    doubt held by the count, or (bounds of 1 line or 12 characters) read again.
    """
    from rfc1738.columns import files

    monkeypatch.setattr(files, "PREFIX_BYTES", prefix)
    monkeypatch.setattr(files, "DOUBT_LINES", doubt[0])
    monkeypatch.setattr(files, "DOUBT_CHARS", doubt[1])
    data = b"\n".join(lines) + (b"\n" if final and lines else b"")
    path = tmp_path / "urls.txt"
    path.write_bytes(data)
    found = counted(path, host_checks, 5)
    event("left to the batches" if found is None else "read by DuckDB")
    if found is None:
        return
    total, counts, invalid = library(data, host_checks)
    assert found.lines == total
    assert by_verdict(found.counts) == dict(counts)
    assert [n for n, _ in found.first_invalid] == invalid[:5]
    texts = data.decode("utf-8").split("\n")
    assert [text for _, text in found.first_invalid] == [texts[n - 1] for n in invalid[:5]]


#: Reads a file as ``engine_reads`` does before DuckDB reads it, then prints
#: how much the process's peak resident set grew meanwhile (KiB).
_SCAN_PEAK = """
import resource, sys
from rfc1738.columns.files import engine_reads
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
assert engine_reads(sys.argv[1])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""


def test_looking_over_a_file_keeps_none_of_it_in_memory(tmp_path: Path) -> None:
    """The \\r scan reads a block at a time: mapping the file made all of it resident."""
    import subprocess
    import sys

    path = tmp_path / "large.txt"
    path.write_bytes(b"http://h.example/\n" * (4 << 20))  # 72 MiB
    done = subprocess.run(
        [sys.executable, "-c", _SCAN_PEAK, str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert int(done.stdout) < 8 << 10, done.stdout  # KiB: less than 8 MiB more
