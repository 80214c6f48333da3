"""Run the installed ``rfc1738`` console script (or ``python -m rfc1738``) in a subprocess."""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import rfc1738
from rfc1738 import URLSyntaxError
from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.cli.check import installed_engine

__all__ = [
    "ENGINE",
    "PAUSE",
    "SCRIPT",
    "Result",
    "edit",
    "edited_grammar",
    "error_of",
    "on_terminal",
    "run",
]

#: The last line of ``rfc1738 check``'s summary here: the engine that judged the lines.
ENGINE = f"\nengine: {installed_engine()}\n"

#: The console script pip installed next to the interpreter running the tests.
SCRIPT = shutil.which("rfc1738", path=Path(sys.executable).parent)
TIMEOUT = 300


@dataclass(frozen=True)
class Result:
    status: int
    out: str
    err: str


def run(
    *args: str | Path,
    input: str | bytes = b"",
    cwd: Path | None = None,
    module: bool = False,
) -> Result:
    """Run ``rfc1738 ARGS`` (``python -m rfc1738 ARGS`` with ``module``); what it wrote."""
    assert SCRIPT is not None, "the rfc1738 console script is not installed"
    command = [sys.executable, "-m", "rfc1738"] if module else [SCRIPT]
    done = subprocess.run(
        [*command, *(str(a) for a in args)],
        input=input.encode() if isinstance(input, str) else input,
        capture_output=True,
        cwd=cwd,
        env={k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")},
        timeout=TIMEOUT,
    )
    return Result(done.returncode, done.stdout.decode(), done.stderr.decode())


def on_terminal(
    *args: str | Path, input: bytes = b"", pause_at: int | None = None
) -> tuple[int, bytes, bytes]:
    """``rfc1738 ARGS`` with stderr on a terminal (a pty): status, stdout, what the pty got.

    With ``pause_at``, the first ``pause_at`` bytes of ``input`` are written,
    then nothing for :data:`PAUSE` seconds, then the rest: a run that has read
    the first part cannot end before the pause does, however fast it is.
    """
    assert SCRIPT is not None, "the rfc1738 console script is not installed"
    leader, follower = pty.openpty()
    try:
        child = subprocess.Popen(
            [SCRIPT, *(str(a) for a in args)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=follower,
        )
        os.close(follower)
        parts = [input] if pause_at is None else [input[:pause_at], input[pause_at:]]
        writer = threading.Thread(target=_write_paused, args=(child.stdin, parts))
        writer.start()
        assert child.stdout is not None
        out = child.stdout.read()
        child.wait(timeout=TIMEOUT)
        writer.join()
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal's other end is closed
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(leader)
    return child.returncode, out, shown


#: How long :func:`on_terminal` waits between the parts of its input (seconds).
PAUSE = 0.5


def _write_paused(stdin: IO[bytes] | None, parts: list[bytes]) -> None:
    assert stdin is not None
    with stdin:
        for index, part in enumerate(parts):
            if index:
                time.sleep(PAUSE)
            stdin.write(part)
            stdin.flush()


def error_of(text: str, parse: Callable[[str], object] = rfc1738.parse) -> URLSyntaxError:
    """The error the library raises for ``text``."""
    try:
        parse(text)
    except URLSyntaxError as error:
        return error
    raise AssertionError(f"{text!r} is valid")


def edit(path: Path, old: str, new: str) -> None:
    """Replace ``old`` (which must occur) by ``new`` in the file at ``path``."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def edited_grammar(directory: Path) -> Path:
    """A copy of the shipped grammar in which http URLs may have a user and password.

    Section 3.3 has ``"http://" hostport``; the copy says ``"http://" login``,
    so ``http://user@host/`` is valid under it and invalid under the shipped
    grammar.
    """
    copy = directory / "grammar"
    shutil.copytree(shipped_grammar_dir(), copy)
    http = copy / "http.lark"
    edit(http, "%import .common (hostport,", "%import .common (login, user, password, hostport,")
    edit(http, 'httpurl: "http://"i hostport', 'httpurl: "http://"i login')
    return copy


def first_line_then_gone(
    child: subprocess.Popen[bytes], before: Callable[[], object] = lambda: None
) -> tuple[bytes, int, bytes]:
    """What ``| head -1`` leaves: read ``child``'s first line of output, then close it.

    ``before``: called first (once the child is under way). The line, the
    child's exit status and what it wrote on stderr.
    """
    assert child.stdout is not None and child.stderr is not None
    try:
        before()
        first = child.stdout.readline()
        child.stdout.close()  # head -1 exits
        err = child.stderr.read()
        status = child.wait(timeout=TIMEOUT)
    finally:
        child.kill()
    return first, status, err
