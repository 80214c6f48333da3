"""How the ``rfc1738`` command ends (:func:`rfc1738.cli.main.run`): at once, where it may.

Each test runs a small script in a fresh interpreter: ``run`` ends that
process, so it cannot run in the tests' own.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

#: An exit handler that says it ran: the interpreter's teardown runs it, ``os._exit`` does not.
TEARDOWN = """
import atexit, sys
atexit.register(lambda: print("teardown", file=sys.stderr))
"""


def _script(body: str, *args: str) -> subprocess.CompletedProcess[str]:
    code = TEARDOWN + textwrap.dedent(body)
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120
    )


def _parse(url: str, before: str = "") -> subprocess.CompletedProcess[str]:
    """``rfc1738 parse URL`` through :func:`run`, after the code ``before``."""
    return _script(textwrap.dedent(before) + "\nfrom rfc1738.cli import run\nrun()\n", "parse", url)


def test_the_command_ends_at_once_with_its_output_written() -> None:
    done = _parse("http://h/")
    assert done.returncode == 0
    assert '"host": "h"' in done.stdout
    assert "teardown" not in done.stderr


def test_an_invalid_url_keeps_its_status_and_error() -> None:
    done = _parse("http://h/a b")
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"]["position"] == 10
    assert "teardown" not in done.stderr


def test_with_a_thread_still_running_it_ends_as_usual() -> None:
    done = _parse(
        "http://h/",
        """
        import threading, time
        threading.Thread(target=time.sleep, args=(0.2,)).start()
        """,
    )
    assert done.returncode == 0
    assert '"host": "h"' in done.stdout
    assert "teardown" in done.stderr


def test_what_duckdb_spilled_to_disk_is_removed(tmp_path: Path) -> None:
    pytest.importorskip("duckdb", reason="duckdb is not installed (rfc1738[duckdb])")
    pytest.importorskip("pyarrow", reason="pyarrow is not installed (rfc1738[duckdb])")
    spill = tmp_path / "spill"
    done = _script(
        f"""
        import os
        import rfc1738
        from rfc1738.columns.runners import runner
        from rfc1738.cli.main import _end
        con = runner("duckdb", rfc1738.load()).con
        con.execute("SET temp_directory = {str(spill)!r}")
        con.execute("SET memory_limit = '64MB'")
        con.execute("SET threads = 1")
        # A sort larger than the memory limit: DuckDB spills it to temp_directory.
        result = con.execute(
            "SELECT md5(i::VARCHAR) || md5((i + 1)::VARCHAR) AS s "
            "FROM range(2000000) t(i) ORDER BY s"
        )
        result.fetchmany(1)
        print(len(os.listdir({str(spill)!r})))
        _end(0)
        """
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 0, "nothing was spilled: the test shows nothing"
    assert not spill.exists() or not list(spill.iterdir())
    assert "teardown" not in done.stderr


def test_closed_runners_are_made_again() -> None:
    duckdb = pytest.importorskip("duckdb", reason="duckdb is not installed (rfc1738[duckdb])")
    pytest.importorskip("pyarrow", reason="pyarrow is not installed (rfc1738[duckdb])")
    import rfc1738
    from rfc1738.columns.runners import close_runners, runner

    grammar = rfc1738.load()
    first = runner("duckdb", grammar)
    con = first.con  # type: ignore[attr-defined]
    close_runners()
    with pytest.raises(duckdb.ConnectionException):
        con.execute("SELECT 1")
    again = runner("duckdb", grammar)
    assert again is not first
    assert again.run(["http://h/", "x y"], 0, True, False, False, False).valid == [True, False]


def test_a_connection_that_fails_to_close_ends_as_usual_without_a_traceback() -> None:
    done = _parse(
        "http://h/",
        """
        import rfc1738.columns.runners as runners
        def fails():
            raise RuntimeError("cannot close")
        runners.close_runners = fails
        """,
    )
    assert done.returncode == 0
    assert '"host": "h"' in done.stdout
    assert "Traceback" not in done.stderr
    assert "teardown" in done.stderr
