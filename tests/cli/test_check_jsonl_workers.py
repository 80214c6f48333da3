"""``rfc1738 check --jsonl`` on a large input: the records written by worker processes.

The records must be byte for byte those one process writes, in the order of
the lines, with the same exit status, however the input comes (a file, a
pipe) and whatever happens to a worker, to the reader of stdout or to the
command (Ctrl-C). The workers are seen as the command's child processes
(``/proc``).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rfc1738
from rfc1738.cli import records
from rfc1738.cli.output import BROKEN_PIPE, INVALID, Refusals, result_dict
from tests.budget import examples

from .helpers import SCRIPT, TIMEOUT, first_line_then_gone
from .test_check import ONE_LINE, TEXTS

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not hasattr(os, "memfd_create"),
    reason="worker processes run on Linux only (fork, memfd_create, /proc)",
)

#: Every case of the test data, some lines a worker's block splits, and more
#: than one kind of line ending.
KINDS = [*TEXTS, *ONE_LINE, "HTTP://h.example/%7e?q", "ftp://h/a;type=d", ""]


def many_lines(size: int) -> list[str]:
    """The kinds in turn until they hold ``size`` bytes."""
    lines: list[str] = []
    total = 0
    while total < size:
        lines.append(KINDS[len(lines) % len(KINDS)])
        total += len(lines[-1].encode("utf-8", "surrogateescape")) + 1
    return lines


def encoded(lines: list[str], ending: str = "\n") -> bytes:
    """The lines as a file holds them, each with its line ending."""
    return "".join(line + ending for line in lines).encode("utf-8", "surrogateescape")


def expected(lines: list[str]) -> bytes:
    """``json.dumps`` of each record, as ``check --jsonl`` wrote it before issue 21."""
    grammar = rfc1738.shipped()
    done: dict[str, str] = {}
    out = []
    for number, text in enumerate(lines, 1):
        rest = done.get(text)
        if rest is None:
            rest = done[text] = json.dumps(result_dict(grammar, text))[1:]
        out.append(f'{{"line": {number}, {rest}\n')
    return "".join(out).encode("ascii")


#: A little more than the workers start at: several blocks for each.
LINES = many_lines(records.PARALLEL_BYTES + 3 * records.CHUNK)
INPUT = encoded(LINES)


@pytest.fixture(scope="module")
def records_of_lines() -> bytes:
    return expected(LINES)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue  # ended meanwhile
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def group_is_gone(group: int) -> bool:
    """Whether no process is left in the process group ``group``."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def cores() -> int:
    return len(os.sched_getaffinity(0))


needs_two_cores = pytest.mark.skipif(cores() < 2, reason="the workers need 2 cores to run on")


def start(*args: str, stdout: object = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    """``rfc1738 check --jsonl ARGS`` in a process group of its own, reading a pipe."""
    assert SCRIPT is not None
    return subprocess.Popen(
        [SCRIPT, "check", "--jsonl", *args],
        stdin=subprocess.PIPE,
        stdout=stdout,  # type: ignore[arg-type]
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def workers_of(child: subprocess.Popen[bytes], count: int) -> list[int]:
    """The command's workers once ``count`` of them run."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        found = children(child.pid)
        if len(found) >= count:
            return found
        assert child.poll() is None, "the command ended"
        time.sleep(0.02)
    raise AssertionError(f"no {count} workers")


@needs_two_cores
def test_the_workers_write_the_records_of_one_process(
    tmp_path: Path, records_of_lines: bytes
) -> None:
    path = tmp_path / "urls.txt"
    path.write_bytes(INPUT)
    assert SCRIPT is not None
    done = subprocess.run(
        [SCRIPT, "check", "--jsonl", str(path)], capture_output=True, timeout=TIMEOUT
    )
    assert (done.returncode, done.stderr) == (INVALID, b"")
    assert done.stdout == records_of_lines


@needs_two_cores
def test_lines_from_a_pipe_with_crlf_endings(tmp_path: Path, records_of_lines: bytes) -> None:
    out = tmp_path / "out.jsonl"
    with out.open("wb") as sink:
        child = start("-", stdout=sink)
        assert child.stdin is not None and child.stderr is not None
        try:
            child.stdin.write(encoded(LINES, "\r\n"))
            # Before the input ends: one worker a core, started from what the pipe gave.
            assert len(workers_of(child, cores())) == cores()
            child.stdin.close()
            assert (child.wait(timeout=TIMEOUT), child.stderr.read()) == (INVALID, b"")
        finally:
            child.kill()
    assert out.read_bytes() == records_of_lines


@needs_two_cores
def test_a_worker_killed_is_said_and_its_records_written_all_the_same(
    tmp_path: Path, records_of_lines: bytes
) -> None:
    out = tmp_path / "out.jsonl"
    # Enough for the workers to start, then the rest once one of them is killed.
    first = len(many_lines(records.PARALLEL_BYTES + records.CHUNK // 2))
    with out.open("wb") as sink:
        child = start("-", stdout=sink)
        assert child.stdin is not None and child.stderr is not None
        try:
            child.stdin.write(encoded(LINES[:first]))
            child.stdin.flush()
            os.kill(workers_of(child, cores())[0], signal.SIGKILL)
            child.stdin.write(encoded(LINES[first:]))
            child.stdin.close()
            status = child.wait(timeout=TIMEOUT)
            err = child.stderr.read().decode()
        finally:
            child.kill()
    assert status == INVALID
    assert err == (
        "rfc1738: a worker process ended (signal 9): this process writes the rest of the records\n"
    )
    assert out.read_bytes() == records_of_lines
    assert group_is_gone(child.pid)


@needs_two_cores
def test_a_reader_gone_away_ends_the_workers_quietly_with_141(tmp_path: Path) -> None:
    path = tmp_path / "urls.txt"
    path.write_bytes(INPUT * 4)  # (numbered on: the records are not read)
    assert SCRIPT is not None
    child = subprocess.Popen(
        [SCRIPT, "check", "--jsonl", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    first, status, err = first_line_then_gone(child, lambda: workers_of(child, cores()))
    assert json.loads(first)["line"] == 1
    assert (status, err) == (BROKEN_PIPE, b"")
    assert group_is_gone(child.pid)


@needs_two_cores
def test_ctrl_c_ends_the_command_and_its_workers() -> None:
    child = start("-")
    assert child.stdin is not None and child.stderr is not None
    try:
        child.stdin.write(INPUT)
        child.stdin.flush()
        workers_of(child, cores())
        os.killpg(child.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        status = child.wait(timeout=TIMEOUT)
        err = child.stderr.read().decode()
    finally:
        child.kill()
    # As without workers: ended by SIGINT, as Python ends on Ctrl-C, and no traceback.
    assert status == -signal.SIGINT
    assert err == ""
    assert group_is_gone(child.pid)


@pytest.mark.skipif(shutil.which("taskset") is None, reason="taskset is not installed")
def test_on_one_core_no_worker_starts(tmp_path: Path, records_of_lines: bytes) -> None:
    assert SCRIPT is not None
    out = tmp_path / "out.jsonl"
    with out.open("wb") as sink:
        # taskset runs the command itself (exec): its children would be the workers.
        child = subprocess.Popen(
            ["taskset", "-c", "0", SCRIPT, "check", "--jsonl", "-"],
            stdin=subprocess.PIPE,
            stdout=sink,
            stderr=subprocess.PIPE,
        )
        assert child.stdin is not None
        try:
            child.stdin.write(INPUT)
            child.stdin.flush()
            _wait_for_records(out, records_of_lines)
            assert children(child.pid) == []
            child.stdin.close()
            assert child.wait(timeout=TIMEOUT) == INVALID
        finally:
            child.kill()
    assert out.read_bytes() == records_of_lines


def test_a_small_input_starts_no_worker(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    lines = many_lines(records.PARALLEL_BYTES // 4)
    with out.open("wb") as sink:
        child = start("-", stdout=sink)
        assert child.stdin is not None
        try:
            child.stdin.write(encoded(lines))
            child.stdin.flush()
            _wait_for_records(out, expected(lines))
            assert children(child.pid) == []
            child.stdin.close()
            assert child.wait(timeout=TIMEOUT) == INVALID
        finally:
            child.kill()
    assert out.read_bytes() == expected(lines)


def _wait_for_records(out: Path, wanted: bytes) -> None:
    """Until the command has written nearly all of ``wanted`` to ``out``, its input still open."""
    deadline = time.monotonic() + TIMEOUT
    # Its stdout is a file: the buffer may still hold up to 8 KiB of it.
    while out.stat().st_size < len(wanted) - 8192:
        assert time.monotonic() < deadline, "the records were not written"
        time.sleep(0.05)


# ---- the blocks ----


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(st.sampled_from(KINDS), max_size=60),
    st.lists(st.integers(min_value=1, max_value=200), min_size=1, max_size=8),
    st.booleans(),
)
def test_blocks_of_any_size_give_the_records_of_the_whole(
    kinds: list[str], sizes: list[int], last_ending: bool
) -> None:
    """Cut anywhere after a line ending, numbered on: the records of the input at once."""
    data = encoded(kinds)
    if not last_ending and kinds and kinds[-1]:
        data = data[:-1]  # a last line without its line ending
    grammar = rfc1738.shipped()
    writer = records.RecordWriter(grammar, True, Refusals(grammar, "fast", True))
    whole = "".join(writer.pieces(data, 1))
    assert whole.encode("ascii") == expected(kinds)
    cut = "".join(_pieces_cut(writer, data, sizes))
    assert cut == whole


def _pieces_cut(writer: records.RecordWriter, data: bytes, sizes: list[int]) -> Iterator[str]:
    """The records of ``data`` read by ``records._chunks`` with reads of ``sizes`` bytes."""
    reads = iter(sizes * (len(data) + 1))
    stream = io.BytesIO(data)

    class Reader:
        def read1(self, _size: int) -> bytes:
            return stream.read(next(reads))

    start = 1
    for chunk in records._chunks(Reader()):  # type: ignore[arg-type]
        assert chunk.endswith(b"\n") or stream.tell() == len(data)
        yield from writer.pieces(chunk, start)
        start += chunk.count(b"\n") + (not chunk.endswith(b"\n"))
