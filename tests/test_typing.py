"""The typed API under ``mypy --strict``: tests/typing/usage.py checks as user code would."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

USAGE = Path(__file__).parent / "typing" / "usage.py"


def test_usage_passes_mypy_strict(tmp_path: Path) -> None:
    if shutil.which("mypy") is None and not (Path(sys.executable).parent / "mypy").exists():
        pytest.skip("mypy is not installed")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--config-file",
            "/dev/null",
            str(USAGE),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_type_error_is_found(tmp_path: Path) -> None:
    """The check is not vacuous: a wrong type in user code is reported."""
    wrong = tmp_path / "wrong.py"
    wrong.write_text(
        "from rfc1738 import HttpURL\n"
        "def f(text: str) -> int:\n"
        "    return HttpURL.parse(text).path\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--config-file", "/dev/null", str(wrong)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert result.returncode == 1
    assert 'Incompatible return value type (got "str | None", expected "int")' in result.stdout
