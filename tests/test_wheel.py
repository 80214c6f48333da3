"""The wheel carries the grammar files and works without the checkout.

Builds the wheel (``pip wheel``, as docs/index.md says: hatchling in an
isolated environment), checks what it holds, installs it into a fresh
virtual environment and parses a URL of each scheme there, from a working
directory outside the checkout.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from rfc1738.runtime.cache import ENVIRONMENT
from rfc1738.runtime.tables import content_key, module_text
from rfc1738.text import fragments
from rfc1738.tools.generator import tables_module
from tests.cases import ACCEPT, SCHEMES, START

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[1]
GRAMMAR_DIR = ROOT / "grammar"
TIMEOUT = 600

# Run in the fresh environment: parse each URL, print where rfc1738 came from
# and the root of each tree.
PROGRAM = """
import json, sys
import rfc1738
urls = json.loads(sys.argv[1])
print(json.dumps({"module": rfc1738.__file__,
                  "roots": [str(rfc1738.parse_tree(url).data) for url in urls]}))
"""


def clean_env() -> dict[str, str]:
    """The environment without anything that would find the checkout's modules."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def run(*args: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    outdir = tmp_path_factory.mktemp("dist")
    # As docs/index.md says to build it.
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", outdir, ROOT, cwd=ROOT)
    (built,) = outdir.glob("rfc1738-*.whl")
    return built


def test_the_docs_name_the_wheel_that_is_built(wheel: Path) -> None:
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert f"dist/{wheel.name}" in index
    for page in sorted((ROOT / "docs").rglob("*.md")):
        named = set(re.findall(r"dist/(rfc1738-[^\s'\[]+\.whl)", page.read_text(encoding="utf-8")))
        assert named <= {wheel.name}, page


def test_wheel_holds_the_grammar_files_and_py_typed(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for path in sorted(GRAMMAR_DIR.glob("*.lark")):
            member = f"rfc1738/grammar/{path.name}"
            assert member in names
            assert archive.read(member) == path.read_bytes()
    assert "rfc1738/py.typed" in names


def test_wheel_holds_the_tables_compiled_from_the_grammar_files(
    wheel: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hatch_build.py wrote the compiled grammars: equal to a fresh compile of grammar/,
    and of grammars/fragment (the fragment grammar's, under their own key)."""
    with zipfile.ZipFile(wheel) as archive:
        built = archive.read("rfc1738/runtime/_tables.py").decode("utf-8")
    # Compiled again here: neither the installed wheel's tables nor the disk cache.
    monkeypatch.setattr(fragments, "_BUILT", None)
    monkeypatch.setenv(ENVIRONMENT, "")
    fragment = fragments.fragment_tables(ROOT / "grammars" / "fragment")
    assert fragment.key == content_key(fragments.fragment_grammar_file().parent)
    assert built == tables_module(GRAMMAR_DIR) + "\n" + module_text(fragment, "FRAGMENT")


def test_installed_wheel_parses_every_scheme_outside_the_checkout(
    wheel: Path, tmp_path: Path
) -> None:
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel)
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    urls = [ACCEPT[scheme][0].url for scheme in SCHEMES]
    result = json.loads(run(python, "-c", PROGRAM, json.dumps(urls), cwd=workdir))
    assert Path(result["module"]).is_relative_to(venv)
    assert result["roots"] == [START[scheme] for scheme in SCHEMES]
