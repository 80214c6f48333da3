"""The shipped grammar runs from the tables built into the wheel: no Lark at start-up.

Each check runs in a fresh interpreter (the installed package, as users get
it), since a test process has imported Lark long before.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import rfc1738
from rfc1738.runtime import store
from rfc1738.tools.generator import tables_module
from tests.cases import ACCEPT, GRAMMAR_ONLY, REJECT

ROOT = Path(__file__).parents[2]

#: Parse and validate the URLs of argv[1]; print which modules of Lark were imported.
PROGRAM = """
import json, sys
import rfc1738
accept, reject = json.loads(sys.argv[1])
for url in accept:
    rfc1738.parse(url)
    assert rfc1738.is_valid(url), url
for url in reject:
    assert not rfc1738.is_valid(url), url
    try:
        rfc1738.parse(url)
    except rfc1738.URLSyntaxError as error:
        if sys.argv[2] == "details":
            str(error), error.position, error.expected, error.rule
    else:
        raise AssertionError(url)
url = rfc1738.parse("ftp://u@h.example/a%20b;type=i").replace(path="c d")
url.normalize()
print(json.dumps(sorted(name for name in sys.modules if name.split(".")[0] == "lark")))
"""


def lark_modules(details: bool) -> list[str]:
    accept = [case.url for cases in ACCEPT.values() for case in cases]
    reject = [case.url for cases in (*REJECT.values(), *GRAMMAR_ONLY.values()) for case in cases]
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, json.dumps([accept, reject]), str(details and "details")],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT.parent,
    )
    found: list[str] = json.loads(done.stdout)
    return found


def test_parse_and_is_valid_import_no_lark() -> None:
    assert lark_modules(details=False) == []


def test_error_details_import_no_lark() -> None:
    """Position, expected, rule and message come from the wheel's error automata."""
    assert lark_modules(details=True) == []


#: What ``import rfc1738``, ``parse``, ``is_valid`` and an error's details leave
#: out, each for what it cost at start-up (docs/architecture.md, "Start-up"):
#: standard modules, and the library's own that only compile a grammar.
LEFT_OUT = (
    "dataclasses",  # with inspect, dis, tokenize: records are rfc1738._records.Record
    "inspect",
    "dis",
    "tokenize",
    "ast",  # the disk cache is read with marshal, the AST types never made
    "hashlib",  # OpenSSL: SHA-256 comes from the lean _sha256/_sha2 where there is one
    "_hashlib",
    "rfc1738.compile.pipeline",  # and what only compiling needs:
    "rfc1738.compile.ir",
    "rfc1738.compile.glushkov",
    "rfc1738.compile.thompson",
    "rfc1738.compile.limits",
    "rfc1738.compile.emit",
    "rfc1738.compile.dialects",
    "rfc1738.tools.generator",
)

#: The same run, with the modules of LEFT_OUT it imported and the calls of
#: compile() it made (typing compiles each string annotation of a NamedTuple
#: field, and the first compile() in a process sets up the AST types).
LEAN_PROGRAM = (
    """
import builtins, json, sys
compiled = []
real_compile = builtins.compile
def counting_compile(*args, **kwargs):
    compiled.append(str(args[0])[:60])
    return real_compile(*args, **kwargs)
builtins.compile = counting_compile
"""
    + PROGRAM.replace("import json, sys\n", "").replace("print(", "lark = (")
    + """
left_out = json.loads(sys.argv[3])
print(json.dumps([sorted(name for name in left_out if name in sys.modules), compiled]))
"""
)


def test_start_up_leaves_out_what_only_compiling_needs() -> None:
    accept = [case.url for cases in ACCEPT.values() for case in cases]
    reject = [case.url for cases in (*REJECT.values(), *GRAMMAR_ONLY.values()) for case in cases]
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            LEAN_PROGRAM,
            json.dumps([accept, reject]),
            "details",
            json.dumps(LEFT_OUT),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT.parent,
    )
    imported, compiled = json.loads(done.stdout)
    assert imported == []
    assert compiled == []


def test_the_installed_tables_are_a_fresh_compile_of_the_grammar_files() -> None:
    """What the build hook wrote into the installed wheel is what grammar/ compiles to now."""
    installed = Path(rfc1738.__file__).parent / "runtime" / "_tables.py"
    # The fragment grammar's tables follow (tests/test_wheel.py compiles those again).
    built = installed.read_text(encoding="utf-8").partition("\nFRAGMENT = ")[0]
    assert built == tables_module(ROOT / "grammar")


def test_the_shipped_grammar_is_served_by_the_installed_tables() -> None:
    shipped = store.shipped_tables()
    assert shipped is not None
    assert rfc1738.shipped().tables.tables is shipped
