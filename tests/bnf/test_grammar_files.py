"""Grammar directories hold regular files of bounded size (issue 19, reproducer 8).

Every ``.lark`` file of a directory is read to key its compiled tables, and
Lark reads the scheme files: a FIFO named ``p.lark`` used to hang the
process, a link to ``/dev/zero`` to fill the memory, a directory named
``x.lark`` or a link loop to escape as a bare ``OSError`` from ``is_valid()``.
Each is now a :class:`rfc1738.GrammarError` naming the path, raised by
``rfc1738.load()`` before any file is read.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

import rfc1738
from rfc1738.bnf.files import MAX_GRAMMAR_FILE, read_grammar_file, shipped_grammar_dir
from rfc1738.runtime.tables import content_key

#: Long enough for any load on a busy machine; a hang is what it catches.
PATIENCE = 60


def grammar_copy(tmp_path: Path) -> Path:
    directory = tmp_path / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    return directory


def fifo(path: Path) -> None:
    os.mkfifo(path)


def dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def directory(path: Path) -> None:
    path.mkdir()


def link_loop(path: Path) -> None:
    path.symlink_to(path.name)


def dangling(path: Path) -> None:
    path.symlink_to("nowhere.lark")


def too_big(path: Path) -> None:
    with open(path, "wb") as out:  # sparse: no disk space taken
        out.truncate(MAX_GRAMMAR_FILE + 1)


NOT_GRAMMAR_FILES: dict[str, tuple[Callable[[Path], None], str]] = {
    "a FIFO": (fifo, "not a grammar file: a FIFO, not a regular file"),
    "a link to /dev/zero": (dev_zero, "not a grammar file: a device, not a regular file"),
    "a directory": (directory, "not a grammar file: a directory, not a regular file"),
    "a link loop": (link_loop, "cannot read the grammar file: Too many levels of symbolic links"),
    "a dangling link": (dangling, "cannot read the grammar file: No such file or directory"),
    "a file past the bound": (too_big, f"not a grammar file: more than {MAX_GRAMMAR_FILE} bytes"),
}


def finished(call: Callable[[], object]) -> BaseException | None:
    """What ``call`` raised (``None``: nothing), failing the test if it does not return."""
    raised: list[BaseException | None] = []

    def run() -> None:
        try:
            call()
        except BaseException as error:  # handed to the test
            raised.append(error)
        else:
            raised.append(None)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(PATIENCE)
    assert not thread.is_alive(), "still running: it hangs"
    return raised[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and symbolic links are POSIX's")
@pytest.mark.parametrize("kind", NOT_GRAMMAR_FILES)
@pytest.mark.parametrize("name", ["p.lark", "http.lark"])
def test_anything_but_a_regular_file_is_a_grammar_error_naming_it(
    tmp_path: Path, kind: str, name: str
) -> None:
    grammar = grammar_copy(tmp_path)
    make, message = NOT_GRAMMAR_FILES[kind]
    path = grammar / name
    path.unlink(missing_ok=True)
    make(path)
    error = finished(lambda: rfc1738.load(grammar).is_valid("http://h/"))
    assert isinstance(error, rfc1738.GrammarError), error
    assert error.file == str(path) and message in str(error)
    assert isinstance(finished(lambda: content_key(grammar)), rfc1738.GrammarError)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and symbolic links are POSIX's")
@pytest.mark.parametrize("kind", NOT_GRAMMAR_FILES)
def test_the_reader_refuses_it_too(tmp_path: Path, kind: str) -> None:
    # The reader checks what it opened: no wait on a FIFO, no read past the bound.
    make, message = NOT_GRAMMAR_FILES[kind]
    path = tmp_path / "x.lark"
    make(path)
    error = finished(lambda: read_grammar_file(path))
    assert isinstance(error, rfc1738.GrammarError) and message in str(error), error


def test_a_link_to_a_regular_file_is_read(tmp_path: Path) -> None:
    grammar = grammar_copy(tmp_path)
    elsewhere = tmp_path / "http-elsewhere.lark"
    (grammar / "http.lark").rename(elsewhere)
    (grammar / "http.lark").symlink_to(elsewhere)
    assert rfc1738.load(grammar).is_valid("http://h/")
    assert read_grammar_file(grammar / "http.lark") == elsewhere.read_bytes()


def test_other_names_are_never_read(tmp_path: Path) -> None:
    grammar = grammar_copy(tmp_path)
    os.mkfifo(grammar / "notes.txt")
    assert rfc1738.load(grammar).is_valid("http://h/")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX's")
def test_the_command_line_says_which_file(tmp_path: Path) -> None:
    grammar = grammar_copy(tmp_path)
    os.mkfifo(grammar / "p.lark")
    done = subprocess.run(
        [sys.executable, "-m", "rfc1738", "parse", "--grammar", str(grammar), "http://h/"],
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )
    assert done.returncode == 2
    assert f"{grammar / 'p.lark'}: not a grammar file: a FIFO, not a regular file" in done.stderr
    assert "Traceback" not in done.stderr
