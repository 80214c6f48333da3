"""``rfc1738 check [FILE|-]``: one URL a line, a summary or JSON lines, in constant memory."""

from __future__ import annotations

import gc
import json
import os
import pty
import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import rfc1738
from rfc1738.cli import records
from rfc1738.cli.check import BATCH_BYTES, Progress, installed_engine
from rfc1738.cli.output import error_dict, error_json, result_dict
from tests.cases import ACCEPT, GRAMMAR_ONLY, REJECT

from .helpers import (
    ENGINE,
    PAUSE,
    SCRIPT,
    TIMEOUT,
    edited_grammar,
    error_of,
    on_terminal,
    run,
)

#: Valid and invalid lines, with a CRLF ending and a space that belongs to the URL.
LINES = [
    b"http://www.example.com/\r\n",
    b"http://h/a b\n",
    b"ftp://@host.dom/pub\n",
    b"news:comp.lang.python \n",
    b"\n",
    b"x-cvs://anon@cvs.example.org/src\n",
    b"mailto:joe\xffx@example.com",
]
TEXTS = [
    "http://www.example.com/",
    "http://h/a b",
    "ftp://@host.dom/pub",
    "news:comp.lang.python ",
    "",
    "x-cvs://anon@cvs.example.org/src",
    "mailto:joe\udcffx@example.com",
]

SUMMARY = textwrap.dedent(
    """\
    7 lines: 3 valid, 4 invalid

    scheme     valid  invalid
    ftp            1        0
    generic        1        1
    http           1        1
    mailto         0        1
    news           0        1
    """
)


def encodable(text: str) -> bool:
    """Whether ``text`` is a line of some file (lone surrogates stand for bytes)."""
    try:
        text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return False
    return True


def write(tmp_path: Path) -> Path:
    path = tmp_path / "urls.txt"
    path.write_bytes(b"".join(LINES))
    return path


def test_summary_of_a_file(tmp_path: Path) -> None:
    path = write(tmp_path)
    result = run("check", path, cwd=tmp_path)
    assert result.status == 1
    assert result.err == ""
    assert result.out.startswith(SUMMARY)
    errors = result.out[len(SUMMARY) :]
    assert errors.startswith(f"\nfirst 4 errors:\n{path}:2: ")
    for line, text in [(2, TEXTS[1]), (4, TEXTS[3]), (5, TEXTS[4])]:
        assert f"{path}:{line}: {error_of(text)}\n" in errors
    # The caret pictures, with the offending characters made visible; a byte
    # that is not UTF-8 is named as such, not as the surrogate that stands for it.
    assert "  http://h/a b\n            ^\n" in errors
    assert (
        f"{path}:7: byte 0xFF at byte offset 10 is not UTF-8 "
        "(a URL writes such an octet as %FF, RFC 1738 section 2.2)\n"
        "  mailto:joe\\xffx@example.com\n            ^\n"
    ) in errors


def test_stdin_is_the_default_and_dash(tmp_path: Path) -> None:
    data = b"".join(LINES)
    default = run("check", input=data)
    dash = run("check", "-", input=data)
    assert default == dash
    assert default.status == 1
    assert default.out.startswith(SUMMARY)
    assert "\n<stdin>:2: " in default.out
    assert default.out == run("check", write(tmp_path)).out.replace(
        str(tmp_path / "urls.txt"), "<stdin>"
    )


def test_show_limits_the_errors_listed() -> None:
    data = b"".join(LINES)
    result = run("check", "--show", "1", input=data)
    assert result.status == 1
    assert "\nfirst error (of 4):\n<stdin>:2: " in result.out
    assert "<stdin>:4:" not in result.out
    result = run("check", "--show", "0", input=data)
    assert result.out == SUMMARY + ENGINE


def test_all_valid_exits_0() -> None:
    result = run("check", input="http://h/\nftp://h/\n")
    assert result.status == 0
    assert (
        result.out
        == textwrap.dedent(
            """\
        2 lines: 2 valid, 0 invalid

        scheme    valid  invalid
        ftp           1        0
        http          1        0
        """
        )
        + ENGINE
    )


def test_empty_input_is_zero_lines_and_valid(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    for result in (run("check", empty), run("check", input=b"")):
        assert (result.status, result.out, result.err) == (
            0,
            "0 lines: 0 valid, 0 invalid\n" + ENGINE,
            "",
        )


def test_jsonl_writes_the_objects_of_parse(tmp_path: Path) -> None:
    result = run("check", "--jsonl", write(tmp_path))
    assert result.status == 1
    found = [json.loads(line) for line in result.out.splitlines()]
    # Each record begins with its 1-based line number.
    assert [next(iter(item.items())) for item in found] == [
        ("line", number) for number in range(1, len(TEXTS) + 1)
    ]
    assert [item["text"] for item in found] == TEXTS
    assert [item["valid"] for item in found] == [True, False, True, False, False, True, False]
    # The same objects as `rfc1738 parse` prints for each URL.
    parsed = run("parse", "--", *TEXTS[:4], TEXTS[5])
    records = [{k: v for k, v in item.items() if k != "line"} for item in found]
    assert [json.loads(line) for line in parsed.out.splitlines()] == [*records[:4], records[5]]


def test_jsonl_line_numbers_count_every_line(tmp_path: Path) -> None:
    """Empty lines and CRLF endings are lines too; the numbers are those of an editor."""
    result = run("check", "--jsonl", input=b"http://h/\r\n\nftp://h/ x\n\nnews:*")
    found = [json.loads(line) for line in result.out.splitlines()]
    assert [(item["line"], item["text"], item["valid"]) for item in found] == [
        (1, "http://h/", True),
        (2, "", False),
        (3, "ftp://h/ x", False),
        (4, "", False),
        (5, "news:*", True),
    ]


def test_jsonl_all_valid_exits_0() -> None:
    result = run("check", "--jsonl", input="news:*\n")
    assert result.status == 0
    assert json.loads(result.out)["class"] == "NewsURL"


def expected_records(
    texts: list[str], grammar: rfc1738.Grammar, *, host_checks: bool = True
) -> str:
    """What ``check --jsonl`` printed when each record was ``json.dumps`` of a dictionary."""
    return "".join(
        json.dumps({"line": number} | result_dict(grammar, text, host_checks=host_checks)) + "\n"
        for number, text in enumerate(texts, 1)
    )


#: Every case of the test data that is one line of UTF-8 (or of bytes that are not).
ONE_LINE = [
    case.url
    for table in (ACCEPT, REJECT, GRAMMAR_ONLY)
    for cases in table.values()
    for case in cases
    if "\n" not in case.url and "\r" not in case.url and encodable(case.url)
]


@pytest.mark.parametrize("host_checks", [True, False])
def test_jsonl_is_json_dumps_of_each_record(tmp_path: Path, host_checks: bool) -> None:
    """Byte for byte, over every case and more than one block of records."""
    texts = [*TEXTS, *ONE_LINE, *(f"HTTP://h{i}.example/%7e{i}?q" for i in range(600))]
    path = tmp_path / "urls.txt"
    path.write_bytes("".join(f"{t}\n" for t in texts).encode("utf-8", "surrogateescape"))
    options = [] if host_checks else ["--no-host-checks"]
    result = run("check", "--jsonl", *options, path)
    assert result.status == 1
    assert result.err == ""
    assert result.out == expected_records(texts, rfc1738.shipped(), host_checks=host_checks)


def test_jsonl_with_the_reference_parser() -> None:
    texts = ["http://h/a%20b", "ftp://h/a b", "news:*", "gopher://h/1a%09b"]
    result = run("check", "--jsonl", "--parser", "reference", input="\n".join(texts))
    assert result.out == expected_records(texts, rfc1738.shipped())


def test_jsonl_by_an_edited_grammar_with_new_and_irregular_schemes(tmp_path: Path) -> None:
    directory = edited_grammar(tmp_path)
    (directory / "afs.lark").write_text(
        "%import .common (ip_schemepart, login, hostport, host, hostname, domainlabel,"
        " toplabel, alphadigit, hostnumber, port, user, password, urlpath, digits)\n"
        'afsurl: "afs:"i ip_schemepart\n',
        encoding="utf-8",
    )
    (directory / "nest.lark").write_text(
        'nesturl: "nest:" item\nitem: "(" item ")" | "x"\n', encoding="utf-8"
    )
    texts = [
        "afs://cell.example/usr",
        "afs://cell.example:99999/usr",
        "afs:opaque",
        "nest:((x))",
        "nest:((x)",
        "http://user@h/",
        "http://h/a b",
    ]
    result = run("check", "--jsonl", "--grammar", directory, input="\n".join(texts))
    assert result.out == expected_records(texts, rfc1738.load(directory))


def test_edited_grammar_judges_by_the_copy(tmp_path: Path) -> None:
    grammar = edited_grammar(tmp_path)
    data = "http://user@h/\n"
    assert run("check", input=data).status == 1
    result = run("check", "--grammar", grammar, input=data)
    assert result.status == 0
    assert result.out.startswith("1 line: 1 valid, 0 invalid\n")


def test_a_file_that_cannot_be_read_exits_2(tmp_path: Path) -> None:
    result = run("check", tmp_path / "missing.txt")
    assert result.status == 2
    assert (
        result.err
        == f"rfc1738: cannot read {tmp_path / 'missing.txt'}: No such file or directory\n"
    )


# ---- large input: constant memory, progress on a terminal ----

#: Runs `rfc1738 check` with N generated lines on its stdin (every 7th invalid)
#: and prints its exit status, the first line of its output and its peak
#: memory: the children of this small process are that one command alone.
FEEDER = """
import resource, subprocess, sys
script, count, engine = sys.argv[1], int(sys.argv[2]), sys.argv[3]
child = subprocess.Popen([script, "check", "-", "--engine", engine],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
for i in range(count):
    child.stdin.write(b"http://h%d.example.com/a b\\n" % i if i % 7 == 0 else
                      b"http://h%d.example.com/p/%d?q\\n" % (i, i))
child.stdin.close()
first = child.stdout.readline().decode().strip()
child.stdout.read()
status = child.wait()
print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, first, sep="|")
"""


def feed(count: int, engine: str = "python") -> tuple[int, int, str]:
    done = subprocess.run(
        [sys.executable, "-c", FEEDER, str(SCRIPT), str(count), engine],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=True,
    )
    status, peak_kib, first = done.stdout.strip().split("|")
    return int(status), int(peak_kib), first


def test_200k_lines_in_constant_memory() -> None:
    status, small_peak, first = feed(100)
    assert (status, first) == (1, "100 lines: 85 valid, 15 invalid")
    status, large_peak, first = feed(200_000)
    assert (status, first) == (1, "200000 lines: 171428 valid, 28572 invalid")
    # Keeping the lines (or their errors) would take tens of megabytes more.
    assert large_peak - small_peak < 8 * 1024, (small_peak, large_peak)


@pytest.mark.skipif(installed_engine() != "duckdb", reason="duckdb or pyarrow is not installed")
def test_on_duckdb_memory_does_not_grow_with_the_file() -> None:
    """A batch at a time: 8x the lines (24 batches, not 3) take less than 64 MiB more.

    One query reads every batch as DuckDB's threads ask for them: between
    two and four batches of 4 MiB are in flight at once, which moves the
    peak by some 20 MiB from run to run. 400,000 lines (three batches):
    fewer end before the command's memory is at its steady size.
    """
    status, peak, first = feed(400_000, "duckdb")
    assert (status, first) == (1, "400000 lines: 342857 valid, 57143 invalid")
    status, larger_peak, first = feed(3_200_000, "duckdb")
    assert (status, first) == (1, "3200000 lines: 2742857 valid, 457143 invalid")
    # Keeping 2,800,000 more lines would take some 110 MiB more as Arrow
    # strings, 250 as Python's.
    assert larger_peak - peak < 64 * 1024, (peak, larger_peak)


def test_progress_on_stderr_only_when_it_is_a_terminal() -> None:
    # More than one batch of lines: the first batch is written, then nothing for
    # PAUSE seconds (more than the 0.1 s before the first redraw), then the rest,
    # so the second batch is judged after a redraw is due on any machine.
    data = b"".join(b"http://h/%d\n" % i for i in range(BATCH_BYTES // 12 + 10_000))
    lines = data.count(b"\n")
    assert len(data) > BATCH_BYTES and PAUSE > Progress.INTERVAL
    # Not a terminal: nothing on stderr.
    assert run("check", "--engine", "python", input=data).err == ""
    # A terminal: a line redrawn with \r, then cleared.
    status, out, shown = on_terminal(
        "check", "--engine", "python", "-", input=data, pause_at=BATCH_BYTES
    )
    assert status == 0
    assert out.startswith(b"%d lines: %d valid, 0 invalid\n" % (lines, lines))
    assert b" lines/s" in shown
    assert shown.startswith(b"\r") and shown.endswith(b"\r\x1b[K")
    # At most about ten redraws a second, whatever the speed.
    assert shown.count(b"lines/s") <= 10 * 60


def test_error_json_is_json_dumps_of_error_dict() -> None:
    for text in [case.url for cases in REJECT.values() for case in cases]:
        error = error_of(text)
        assert error_json(error) == json.dumps(error_dict(error)), text


def test_jsonl_on_a_terminal_shows_each_record_as_its_line_comes() -> None:
    """Records go a block at a time to a file or a pipe, but not to a terminal."""
    leader, follower = pty.openpty()
    child = subprocess.Popen(
        [str(SCRIPT), "check", "--jsonl", "-"], stdin=subprocess.PIPE, stdout=follower
    )
    os.close(follower)
    try:
        assert child.stdin is not None
        child.stdin.write(b"news:*\n")
        child.stdin.flush()
        shown = b""
        deadline = time.monotonic() + TIMEOUT
        while b"\n" not in shown and time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 1)
            if ready:
                shown += os.read(leader, 65536)
        # The first record, while stdin is still open.
        assert json.loads(shown.split(b"\n")[0])["class"] == "NewsURL"
        child.stdin.close()
        assert child.wait(timeout=TIMEOUT) == 0
    finally:
        if child.poll() is None:
            child.kill()
        os.close(leader)


def test_the_jsonl_loop_runs_the_collector_less_often_and_puts_it_back() -> None:
    before = gc.get_threshold()
    with records._collected_less_often():
        assert gc.get_threshold() == (max(before[0], records._COLLECT_AFTER), *before[1:])
        assert gc.isenabled()
    assert gc.get_threshold() == before
    with pytest.raises(KeyError), records._collected_less_often():
        raise KeyError("a failure inside puts it back too")
    assert gc.get_threshold() == before


def test_ctrl_c_ends_the_command_by_sigint_without_a_traceback() -> None:
    # --jsonl from a pipe writes each record as its line comes: one record
    # read back says the command is in its loop when Ctrl-C comes.
    assert SCRIPT is not None
    child = subprocess.Popen(
        [SCRIPT, "check", "--jsonl", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a group of its own, as a terminal's job is
    )
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    try:
        child.stdin.write(b"http://h/\n")
        child.stdin.flush()
        assert json.loads(child.stdout.readline())["line"] == 1
        os.killpg(child.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        status = child.wait(timeout=TIMEOUT)
        err = child.stderr.read()
    finally:
        child.kill()
    assert (status, err) == (-signal.SIGINT, b"")
