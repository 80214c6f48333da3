"""A generated module runs nothing but its own code, whatever the grammar directory is called.

``rfc1738 generate --grammar DIR`` writes the directory's name (and its
files' names) into the module's comments and docstring. Before issue 19 it
wrote them as they were: a directory named ``g`` + newline + ``import os;
os.system(...)`` added that statement to the module, run when it was
imported. Each name below is written into a module that is then imported
here and run from the command line: the statement a name holds must not run,
and the module must still parse.
"""

from __future__ import annotations

import ast
import builtins
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir
from tests.cli.helpers import run

#: What each name would run if it escaped its comment or docstring: it marks builtins.
MARK = "rfc1738_generated_code_ran"
PAYLOAD = f"import builtins; builtins.{MARK} = True"

#: Directory names (no "/": one directory each) that break out of a comment
#: line, a triple-quoted docstring of either kind, or a raw string.
NAMES = [
    f"g\n{PAYLOAD}\n#",
    f'g"""\n{PAYLOAD}\n"""',
    f"g'''\n{PAYLOAD}\n'''",
    f'g\\"""\n{PAYLOAD}\n#\\',
    f'g\r{PAYLOAD}\r"',
    f"g\u2028{PAYLOAD}\"'",
    'g ""',
    "plain-name",
]


def load_module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


@pytest.fixture
def unmarked() -> None:
    if hasattr(builtins, MARK):
        delattr(builtins, MARK)
    yield
    ran = hasattr(builtins, MARK)
    if ran:
        delattr(builtins, MARK)
    assert not ran, "a name written into the generated module ran as code"


@pytest.mark.usefixtures("unmarked")
@pytest.mark.parametrize("name", NAMES, ids=range(len(NAMES)))
def test_a_directory_name_is_text_in_the_module(name: str, tmp_path: Path) -> None:
    directory = tmp_path / name
    shutil.copytree(shipped_grammar_dir(), directory)
    out = rfc1738.generate(directory, tmp_path / "standalone_names.py")
    text = out.read_text(encoding="utf-8")
    tree = ast.parse(text)
    # The name is in the docstring as written (or as repr writes it), and
    # the statements around it are the generator's: imports first.
    docstring = ast.get_docstring(tree, clean=False)
    assert docstring is not None
    assert name in docstring or repr(name) in docstring
    assert isinstance(tree.body[1], ast.Import)
    assert all(line.startswith("#") for line in text.splitlines()[:2])
    module = load_module(out, "standalone_names")
    assert module.parse("http://h/a?b").host == "h"
    assert module.__doc__ == docstring


@pytest.mark.usefixtures("unmarked")
def test_the_command_line_writes_the_same(tmp_path: Path) -> None:
    name = NAMES[1]
    directory = tmp_path / name
    shutil.copytree(shipped_grammar_dir(), directory)
    out = tmp_path / "standalone_cli.py"
    assert run("generate", "--grammar", directory, "-o", out).status == 0
    ran = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import builtins, standalone_cli; print(hasattr(builtins, {MARK!r}))",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert ran.stdout.strip() == "False"


def test_a_scheme_file_name_that_is_no_rule_name_is_refused(tmp_path: Path) -> None:
    """A file's name is a scheme, whose start rule ``<name>url`` must be a Lark rule
    name: a name with quotes or a newline has none, and nothing is written."""
    directory = tmp_path / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    odd = f'x"""\n{PAYLOAD}\n"""'
    (directory / f"{odd}.lark").write_text("%import .common (XCHAR)\nfoo: XCHAR*\n")
    out = tmp_path / "standalone_refused.py"
    with pytest.raises(rfc1738.GrammarError, match="no rule"):
        rfc1738.generate(directory, out)
    assert not out.exists()
