"""``rfc1738 generate -o PATH``: the standalone module (without lark: tests/test_generate.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import rfc1738

from .helpers import TIMEOUT, edited_grammar, run

#: Imports the generated module (from the current directory) and parses its arguments.
PROGRAM = """
import json, sys
import {name} as m
print(json.dumps([m.is_valid(url) for url in sys.argv[1:]]))
print(json.dumps(m.parse(sys.argv[1]).to_dict()))
"""


def use(module: Path, *urls: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM.format(name=module.stem), *urls],
        capture_output=True,
        text=True,
        cwd=module.parent,
        timeout=TIMEOUT,
        check=True,
    )
    return done.stdout.splitlines()


def test_generate_writes_an_importable_module(tmp_path: Path) -> None:
    module = tmp_path / "urls1738.py"
    result = run("generate", "-o", module, cwd=tmp_path)
    assert (result.status, result.out, result.err) == (0, f"wrote {module}\n", "")
    assert module.read_bytes() == rfc1738.generate(None, tmp_path / "again.py").read_bytes()
    valid, fields = use(module, "http://h:81/a", "http://u@h/")
    assert json.loads(valid) == [True, False]
    assert json.loads(fields) == rfc1738.parse("http://h:81/a").to_dict()


def test_generate_from_an_edited_grammar(tmp_path: Path) -> None:
    grammar = edited_grammar(tmp_path)
    module = tmp_path / "edited.py"
    result = run("generate", "--grammar", grammar, "--output", module)
    assert result.status == 0
    valid, fields = use(module, "http://u@h/", "http://h/a b")
    assert json.loads(valid) == [True, False]
    assert json.loads(fields)["host"] == "h"


def test_usage_and_unwritable_output(tmp_path: Path) -> None:
    assert run("generate").status == 2
    result = run("generate", "-o", tmp_path / "no" / "such" / "dir.py")
    assert (result.status, result.out) == (2, "")
    assert result.err.startswith("rfc1738: ") and "No such file or directory" in result.err
    result = run("generate", "--grammar", tmp_path / "nowhere", "-o", tmp_path / "x.py")
    assert result.status == 2
    assert not (tmp_path / "x.py").exists()


def test_schemes_that_are_not_regular_are_named_on_stderr(tmp_path: Path) -> None:
    grammar = edited_grammar(tmp_path)
    (grammar / "nest.lark").write_text(
        "// Refers back to itself. Start rule: nesturl.\n"
        'nesturl: "nest:" item\nitem: "(" item ")" | "x"\n',
        encoding="utf-8",
    )
    module = tmp_path / "nested.py"
    result = run("generate", "--grammar", grammar, "-o", module)
    assert (result.status, result.out) == (0, f"wrote {module}\n")
    assert result.err == (
        "rfc1738: warning: nest: not regular, so nested.py cannot parse their URLs "
        "(it has no Earley parser)\n"
    )
    assert json.loads(use(module, "http://u@h/")[0]) == [True]
