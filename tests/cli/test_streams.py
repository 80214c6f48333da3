"""The command line at its edges: closed streams, a reader gone away, bytes that are not
UTF-8, lines too long for the reference parser (issue 19 item 8, issue 22 item 4).

Every exit status is docs/cli.md's: 0 valid, 1 invalid, 2 usage (a closed
stdin or stdout among them), 3 too long for the reference parser to judge,
141 when the reader of stdout went away.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

import rfc1738
from rfc1738.cli.output import (
    BROKEN_PIPE,
    INVALID,
    OK,
    TOO_LONG,
    USAGE,
    not_utf8,
    not_utf8_message,
)

from .helpers import ENGINE, SCRIPT, TIMEOUT, Result, edited_grammar, run

#: One invocation of every command, each of which does its work with stdin open.
COMMANDS = [
    ["parse", "http://h/"],
    ["check"],
    ["check", "--jsonl"],
    ["find"],
    ["tree", "http://h/"],
    ["grammar", "list"],
    ["grammar", "show", "hpath"],
    ["grammar", "deps", "hpath"],
    ["grammar", "lint"],
    ["grammar", "diagram", "hpath", "-o", "-"],
    ["grammar", "export", "--dialect", "re2", "--scheme", "nntp"],
    ["generate", "-o", "out.py"],
    ["--version"],
]

#: The commands that read stdin (FILE defaults to -).
READ_STDIN = {"check", "find"}


def closed(args: list[str], fd: int, cwd: Path) -> Result:
    """Run ``rfc1738 ARGS`` with file descriptor ``fd`` closed, as ``<&-`` or ``>&-`` does."""
    assert SCRIPT is not None
    done = subprocess.run(
        [SCRIPT, *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        cwd=cwd,
        preexec_fn=lambda: os.close(fd),  # in the child, before it runs
        timeout=TIMEOUT,
    )
    return Result(done.returncode, done.stdout.decode(), done.stderr.decode())


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_closed_stdout_is_a_message_and_exit_status_2(args: list[str], tmp_path: Path) -> None:
    result = closed(args, 1, tmp_path)
    assert (result.status, result.out) == (2, "")
    assert result.err == "rfc1738: cannot write the output: standard output is closed\n"


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_closed_stdin_stops_only_a_command_that_reads_it(args: list[str], tmp_path: Path) -> None:
    result = closed(args, 0, tmp_path)
    if args[0] in READ_STDIN:
        assert (result.status, result.out) == (2, "")
        assert result.err == "rfc1738: cannot read <stdin>: standard input is closed\n"
    else:
        assert result.status == 0, result.err
        assert "Traceback" not in result.err


def test_closed_streams_by_the_shell(tmp_path: Path) -> None:
    """The reproducers as typed: ``rfc1738 check <&-`` and ``rfc1738 parse URL >&-``."""
    script = f"{SCRIPT} check <&-; echo $?; {SCRIPT} parse http://h/ >&-; echo $? >&2"
    done = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=TIMEOUT
    )
    assert done.stdout == "2\n"
    assert done.stderr == (
        "rfc1738: cannot read <stdin>: standard input is closed\n"
        "rfc1738: cannot write the output: standard output is closed\n"
        "2\n"
    )


def test_stdout_open_for_reading_only_is_exit_status_2(tmp_path: Path) -> None:
    done = subprocess.run(
        ["bash", "-c", f"{SCRIPT} parse http://h/ 1</dev/null"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=TIMEOUT,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("rfc1738: ") and "Traceback" not in done.stderr
    assert "Exception ignored" not in done.stderr


# ---- a reader gone away ----


def many_urls(tmp_path: Path, count: int = 20_000) -> Path:
    path = tmp_path / "many.txt"
    path.write_text("".join(f"http://h{i}.example/p?{i}\n" for i in range(count)))
    return path


def test_a_reader_gone_away_ends_quietly_with_141(tmp_path: Path) -> None:
    """``check --jsonl FILE | head -1``: not 1 (an invalid URL), and no message."""
    assert SCRIPT is not None
    # Every line valid: an exit status of 1 could only be the pipe.
    args = [SCRIPT, "check", "--jsonl", str(many_urls(tmp_path))]
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    first = child.stdout.readline()
    child.stdout.close()  # head -1 exits
    err = child.stderr.read()
    status = child.wait(timeout=TIMEOUT)
    assert json.loads(first)["line"] == 1
    assert (status, err) == (BROKEN_PIPE, b"")
    assert BROKEN_PIPE == 128 + 13  # SIGPIPE


def test_a_reader_gone_away_in_the_shell(tmp_path: Path) -> None:
    script = f"{SCRIPT} check --jsonl many.txt | head -1 > /dev/null; echo ${{PIPESTATUS[0]}}"
    many_urls(tmp_path)
    done = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=TIMEOUT
    )
    assert (done.stdout, done.stderr) == ("141\n", "")


# ---- bytes that are not UTF-8 ----

LATIN1 = b"http://h/caf\xe9\n"
MIXED = "http://h/caf\u00e9/\udcff".encode("utf-8", "surrogateescape") + b"\n"


def test_not_utf8_finds_the_byte_and_its_offset() -> None:
    assert not_utf8("http://h/caf\udce9") == (12, 12, 0xE9)
    # é is two bytes in UTF-8: the byte offset runs ahead of the position.
    assert not_utf8("http://h/caf\u00e9/\udcff") == (14, 15, 0xFF)
    assert not_utf8("http://h/caf\u00e9") is None
    assert not_utf8("") is None


def test_check_names_the_byte_not_a_character(tmp_path: Path) -> None:
    result = run("check", input=LATIN1 + MIXED)
    assert result.status == 1
    assert "U+DC" not in result.out and "udc" not in result.out
    assert result.out.endswith(
        "first 2 errors:\n"
        "<stdin>:1: byte 0xE9 at byte offset 12 is not UTF-8 "
        "(a URL writes such an octet as %E9, RFC 1738 section 2.2)\n"
        "  http://h/caf\\xe9\n"
        "              ^\n"
        "<stdin>:2: byte 0xFF at byte offset 15 is not UTF-8 "
        "(a URL writes such an octet as %FF, RFC 1738 section 2.2)\n"
        # é is a character (shown \u00e9), 0xFF a byte (shown \xff).
        "  http://h/caf\\u00e9/\\xff\n"
        "                     ^\n" + ENGINE
    )


def test_check_jsonl_gives_the_byte_and_its_offset() -> None:
    result = run("check", "--jsonl", input=LATIN1 + b"http://h/a b\xe9\n")
    assert result.status == 1
    first, second = (json.loads(line) for line in result.out.splitlines())
    assert first == {
        "line": 1,
        "text": "http://h/caf\udce9",
        "valid": False,
        "error": {
            "position": 12,
            "expected": [],
            "rule": None,
            "reason": "byte 0xE9 at byte offset 12 is not UTF-8 "
            "(a URL writes such an octet as %E9, RFC 1738 section 2.2)",
            "byte_offset": 12,
            "byte": 0xE9,
        },
    }
    # A line that is not UTF-8 is not text: that comes before where its URL fails.
    assert (second["error"]["byte_offset"], second["error"]["byte"]) == (12, 0xE9)


def test_parse_and_tree_name_the_byte_of_an_argument() -> None:
    assert SCRIPT is not None
    argument = os.fsdecode(b"http://h/\xe9")  # what Python makes of such an argv
    done = subprocess.run([SCRIPT, "parse", argument], capture_output=True, timeout=TIMEOUT)
    assert done.returncode == 1
    error = json.loads(done.stdout)["error"]
    assert (error["position"], error["byte_offset"], error["byte"]) == (9, 9, 0xE9)
    done = subprocess.run([SCRIPT, "tree", argument], capture_output=True, timeout=TIMEOUT)
    assert done.returncode == 1
    assert done.stderr.decode() == f"rfc1738: {not_utf8_message(argument)}\n"
    assert "byte 0xE9 at byte offset 9 is not UTF-8" in done.stderr.decode()


def test_find_names_the_byte_of_a_delimited_url() -> None:
    result = run("find", input=b"see <URL:http://h/\xe9> and http://h/\xe9 here\n")
    assert result.status == 1
    found = [json.loads(line) for line in result.out.splitlines()]
    # The bare URL ends before the byte; the delimited one holds it.
    assert [(f["url"], f["valid"]) for f in found] == [
        ("http://h/\udce9", False),
        ("http://h/", True),
    ]
    assert (found[0]["error"]["byte_offset"], found[0]["error"]["byte"]) == (9, 0xE9)


# ---- too long for the reference parser ----

LONG = "http://h/" + "a" * rfc1738.MAX_REFERENCE_LENGTH


def test_check_by_the_reference_parser_counts_a_line_too_long_apart() -> None:
    result = run("check", "--parser", "reference", input=f"http://h/\n{LONG}\n")
    assert result.status == TOO_LONG == 3
    assert result.out == (
        "2 lines: 1 valid, 0 invalid, 1 too long for the reference parser\n"
        "\n"
        "scheme    valid  invalid  too long\n"
        "http          1        0         1\n"
        "\n"
        "first line too long for the reference parser:\n"
        f"<stdin>:2: the reference parser takes at most {rfc1738.MAX_REFERENCE_LENGTH} "
        f"characters and this URL has {len(LONG)}\n"
        "\nengine: python\n"  # (the reference parser runs in Python)
    )
    # The fast parser judges any length.
    assert run("check", input=f"http://h/\n{LONG}\n").status == 0


def test_an_invalid_line_outweighs_a_line_too_long() -> None:
    result = run("check", "--parser", "reference", input=f"{LONG}\nhttp://h/a b\n")
    assert result.status == 1
    assert result.out.startswith("2 lines: 0 valid, 1 invalid, 1 too long for the reference")


def test_check_jsonl_and_parse_say_not_judged() -> None:
    result = run("check", "--jsonl", "--parser", "reference", input=f"{LONG}\nhttp://h/\n")
    assert result.status == TOO_LONG
    first, second = (json.loads(line) for line in result.out.splitlines())
    assert (first["line"], first["valid"], second["valid"]) == (1, None, True)
    assert first["error"]["reason"].startswith("the reference parser takes at most")
    result = run("parse", "--parser", "reference", LONG)
    assert result.status == TOO_LONG
    assert json.loads(result.out)["valid"] is None
    assert run("parse", LONG).status == 0


def test_tree_of_a_url_too_long_is_exit_status_3() -> None:
    result = run("tree", LONG)
    assert (result.status, result.out) == (TOO_LONG, "")
    assert result.err.startswith("rfc1738: the reference parser takes at most")


def test_a_scheme_only_earley_serves_is_too_long_by_either_parser(tmp_path: Path) -> None:
    """A grammar that refers back to itself has no expression: Earley judges its URLs."""
    directory = edited_grammar(tmp_path)
    (directory / "nest.lark").write_text(
        'nesturl: "nest:" item\nitem: "(" item ")" | "x"\n', encoding="utf-8"
    )
    long = "nest:" + "(" * 1100 + "x" + ")" * 1100
    lines = f"nest:((x))\nnest:((x)\n{long}\n"
    result = run("check", "--grammar", directory, input=lines)
    assert result.status == 1
    assert result.out.startswith("3 lines: 1 valid, 1 invalid, 1 too long for the reference")
    result = run("check", "--jsonl", "--grammar", directory, input=lines)
    assert [json.loads(line)["valid"] for line in result.out.splitlines()] == [True, False, None]
    result = run("parse", "--grammar", directory, long)
    assert (result.status, json.loads(result.out)["valid"]) == (TOO_LONG, None)


def test_the_module_entry_point_has_the_same_statuses() -> None:
    assert run("check", "--parser", "reference", input=LONG, module=True).status == TOO_LONG


def test_every_status_is_documented() -> None:
    """docs/cli.md's table of exit statuses has a row for each status the commands use."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    section = page.split("\n## Exit status\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")][1:]
    documented = {
        int(row.split("|")[1].strip()) for row in rows if row.split("|")[1].strip().isdigit()
    }
    assert documented == {OK, INVALID, USAGE, TOO_LONG, BROKEN_PIPE}
