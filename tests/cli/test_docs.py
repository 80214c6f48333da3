"""docs/cli.md shows real output: every ``$`` line of its ``console`` blocks runs here.

The commands run in order, with bash, in one directory that holds a copy of
the shipped grammar as ``grammar/`` (as a checkout does), with the installed
``rfc1738`` and ``python`` first on ``PATH``; stdout and stderr together must
be the lines under the command (trailing spaces aside).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from rfc1738.bnf.files import shipped_grammar_dir

from .helpers import TIMEOUT

PAGE = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def commands(text: str) -> list[tuple[str, list[str]]]:
    """Each ``$`` command of the console blocks, and the lines it must print."""
    found: list[tuple[str, list[str]]] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("```"):
            inside = line.startswith("```console")
        elif inside and line.startswith("$ "):
            found.append((line[2:], []))
        elif inside:
            found[-1][1].append(line)
    return found


def test_the_page_has_commands() -> None:
    found = commands(PAGE.read_text(encoding="utf-8"))
    assert len(found) > 20
    for name in ("parse", "check", "tree", "grammar list", "grammar show", "grammar deps"):
        assert any(f"rfc1738 {name}" in command for command, _ in found), name
    for name in ("grammar lint", "grammar diagram", "generate", "--grammar"):
        assert any(name in command for command, _ in found), name


def test_every_command_prints_what_the_page_shows(tmp_path: Path) -> None:
    shutil.copytree(shipped_grammar_dir(), tmp_path / "grammar")
    bin_dir = str(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PATH"] = os.pathsep.join([bin_dir, env.get("PATH", "")])
    for command, expected in commands(PAGE.read_text(encoding="utf-8")):
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=TIMEOUT,
        )
        printed = [line.rstrip() for line in done.stdout.splitlines()]
        assert printed == [line.rstrip() for line in expected], command
