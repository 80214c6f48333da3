"""``rfc1738.generate``: one module that parses without lark, with the library's objects and errors.

The slow tests create a virtual environment with no packages at all, copy
only the generated module into it, and run it from an unrelated directory;
the others import the module in this process.

What the generated module cannot do the way the library does: it has no
Earley parser, so every error is located as the library locates the error of
a URL too long for Earley (the longest prefix some URL begins with, found
with the prefix expression), with an empty ``expected`` and the start rule
as ``rule``. The tests check that its errors equal exactly the library's
errors from that same search, and that the library's own errors (from
Earley, for URLs within its bound) have the same position.
"""

from __future__ import annotations

import ast
import doctest
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

import rfc1738
from rfc1738.tools.generator import NotRegularWarning
from tests.cases import ACCEPT, GRAMMAR_ONLY, REJECT, SCHEMES
from tests.cli.helpers import SCRIPT, edited_grammar
from tests.doc_examples import pycon_blocks

TIMEOUT = 600
MODULE = "rfc1738_standalone"

#: What each side reports for one URL: its object, its normal form and what
#: replace() gives back with each field's own value; or its error.
JUDGE = r"""
def error_dict(error):
    return {
        "position": error.position,
        "expected": sorted(error.expected),
        "rule": error.rule,
        "reason": error.reason,
    }


def judge(module, text, host_checks=True, rewrite=True):
    try:
        url = module.parse(text, host_checks=host_checks)
    except module.URLSyntaxError as error:
        return {"valid": False, "is_valid": module.is_valid(text, host_checks=host_checks),
                "error": error_dict(error)}
    found = {"valid": True, "is_valid": module.is_valid(text, host_checks=host_checks),
             "object": url.to_dict(), "class": type(url).__name__}
    if rewrite:
        found["normalize"] = str(url.normalize())
        found["replace"] = {}
        for name in sorted(type(url).FIELDS):
            try:
                found["replace"][name] = str(url.replace(**{name: getattr(url, name)}))
            except ValueError as error:
                found["replace"][name] = type(error).__name__
    return found
"""

#: Run in the fresh environment: judge each URL of the request (JSON on stdin).
PROGRAM = (
    JUDGE
    + r"""
import importlib, importlib.util, json, sys

module = importlib.import_module(sys.argv[1])
request = json.load(sys.stdin)
print(json.dumps({
    "module": module.__file__,
    "lark": importlib.util.find_spec("lark") is not None,
    "rfc1738": importlib.util.find_spec("rfc1738") is not None,
    "results": [judge(module, text, checks, rewrite) for text, checks, rewrite in request],
}))
"""
)

_judge_namespace: dict[str, object] = {}
exec(JUDGE, _judge_namespace)


#: Run in the fresh environment with the module of the edited grammar.
NOT_REGULAR = """
import edited_rfc1738 as m
try:
    m.parse("nest:(x)")
except m.GrammarError as error:
    print("GrammarError", error)
try:  # nor a Lark grammar for a tool that asks for one
    m.parse("http://h/").grammar.dispatch.reference_parser("nest").lark("nesturl")
except m.GrammarError as error:
    print("GrammarError", error)
print(m.parse("http://h/").host)
"""


def shown(text: str) -> str:
    return text if len(text) < 100 else text[:60] + f"... ({len(text)} characters)"


def judge(module: object, text: str, host_checks: bool = True, rewrite: bool = True) -> object:
    return _judge_namespace["judge"](module, text, host_checks, rewrite)  # type: ignore[operator]


#: URLs longer than the reference parser's bound: the library finds their
#: errors with the prefix expression too, so the errors must be identical.
LONG = [
    "http://h/" + "a" * 3000 + " b",
    "http://h/" + "a/" * 1500 + "%4",
    "ftp://u@h/" + "a" * 3000 + ";type=x",
    "gopher://h/1" + "s" * 3000 + "\x00",
    "mailto:" + "a" * 3000 + "<",
    "news:" + "g." * 1500 + "/",
    "x-y://h/" + "p" * 3000 + "#frag",
    "wais://h/db/" + "t" * 3000,
    "http://h" + "/x" * 1500 + "?a?b",
    "http://" + "h." * 1500 + "-",
]

ALL_ACCEPTED = [case.url for scheme in SCHEMES for case in ACCEPT[scheme]]
ALL_REJECTED = [case.url for scheme in SCHEMES for case in REJECT[scheme]]
HOST_CHECKED = [case.url for scheme in SCHEMES for case in GRAMMAR_ONLY.get(scheme, [])]


# ---- in this process ----


def load_module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("generated") / f"{MODULE}.py"
    assert rfc1738.generate(None, path) == path
    return path


def test_generation_is_deterministic(generated: Path, tmp_path: Path) -> None:
    again = rfc1738.generate(None, tmp_path / "again.py")
    assert again.read_bytes() == generated.read_bytes()


def test_the_module_holds_no_lark_module(generated: Path) -> None:
    from rfc1738.tools.generator import package_sources

    sources = package_sources()
    assert not any(name == "compile" or name.startswith("compile.") for name in sources)
    assert "runtime.reference" not in sources and "runtime._tables" not in sources
    for name, source in sources.items():
        assert "\nfrom lark" not in source and "\nimport lark" not in source, name
    assert {
        "runtime.dispatch",
        "urls.base",
        "errors",
        "runtime.explain",
        "runtime.spans",
    } <= sources.keys()
    assert "tools.treeview" not in sources and "bnf.inspection" not in sources
    for name, source in sources.items():
        if name:
            assert source == (package_root() / module_path(name)).read_text(encoding="utf-8")


def test_the_module_list_is_what_the_run_time_imports() -> None:
    """RUNTIME_MODULES: what the root reaches through relative imports (inside functions too),
    less the compiler, what imports Lark, and the wheel's tables."""
    from rfc1738.tools.generator import RUNTIME_MODULES, root_source

    found: set[str] = set()
    todo = list(relative_imports("", root_source()))
    needs_lark: dict[str, bool] = {}
    while todo:
        name = todo.pop()
        if name in found or name.split(".")[0] == "compile" or name == "runtime._tables":
            continue
        if imports_lark(name, needs_lark):
            continue
        found.add(name)
        todo.extend(relative_imports(name, module_source(name)))
        # A module's packages are imported before it: each comes along.
        todo.extend(name.rsplit(".", depth)[0] for depth in range(1, name.count(".") + 1))
    assert sorted(RUNTIME_MODULES) == sorted(found)
    assert len(set(RUNTIME_MODULES)) == len(RUNTIME_MODULES)


# ---- the walk over the installed package's imports ----


def package_root() -> Path:
    return Path(rfc1738.__file__).parent


def module_path(name: str) -> Path:
    """The file of module ``name`` (dotted, within rfc1738), relative to the package."""
    place = Path(*name.split("."))
    if (package_root() / place).is_dir():
        return place / "__init__.py"
    return place.with_suffix(".py")


def module_source(name: str) -> str:
    return (package_root() / module_path(name)).read_text(encoding="utf-8")


def relative_imports(name: str, source: str, *, top_level: bool = False) -> Iterator[str]:
    """The modules of rfc1738 that ``name`` imports relatively (the root as ``""``).

    ``top_level``: only the imports that run when the module is imported.
    """
    tree = ast.parse(source)
    is_package = not name or module_path(name).name == "__init__.py"
    package = [part for part in (name.split(".") if is_package else name.split(".")[:-1]) if part]
    for node in top_level_imports(tree.body) if top_level else ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or not node.level:
            continue
        base = package[: len(package) - (node.level - 1)]
        if node.module:
            yield ".".join([*base, node.module])
            continue
        for alias in node.names:
            target = ".".join([*base, alias.name])
            yield target if (package_root() / module_path(target)).is_file() else ".".join(base)


def top_level_imports(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The import statements that run on import (``if TYPE_CHECKING:`` blocks aside)."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                yield from top_level_imports(node.body)
                yield from top_level_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from top_level_imports(block)
            for handler in node.handlers:
                yield from top_level_imports(handler.body)


def imports_lark(name: str, known: dict[str, bool]) -> bool:
    """Whether importing module ``name`` imports Lark (directly or through its imports)."""
    if name in known:
        return known[name]
    known[name] = False  # an import cycle does not make a module need Lark
    source = module_source(name)
    direct = any(
        (isinstance(node, ast.Import) and any(a.name.split(".")[0] == "lark" for a in node.names))
        or (
            isinstance(node, ast.ImportFrom)
            and not node.level
            and (node.module or "").split(".")[0] == "lark"
        )
        for node in top_level_imports(ast.parse(source).body)
    )
    known[name] = direct or any(
        imports_lark(target, known)
        for target in relative_imports(name, source, top_level=True)
        if target != name
    )
    return known[name]


def test_in_process(generated: Path) -> None:
    module = load_module(generated, "rfc1738_standalone_in_process")
    try:
        exported = ["GrammarError", "RFC1738Error", "URLSyntaxError", "is_valid", "parse"]
        classes = ["URL", *(cls.__name__ for cls in rfc1738.CLASSES.values())]
        assert sorted(module.__all__) == sorted([*exported, *classes])
        for text in ALL_ACCEPTED:
            assert judge(module, text) == judge(rfc1738, text), shown(text)
        # The module's tables carry the error automata: its errors are the library's.
        for text in ALL_REJECTED + LONG:
            assert judge(module, text) == judge(rfc1738, text), shown(text)
        url = module.parse("http://h/")
        assert type(url).__name__ == "HttpURL" and type(url) is not rfc1738.HttpURL
        with pytest.raises(TypeError):
            module.parse(b"http://h/")
    finally:
        for name in [n for n in sys.modules if n.startswith("rfc1738_standalone_in_process")]:
            del sys.modules[name]


def test_the_examples_of_docs_generate_md(generated: Path) -> None:
    page = Path(__file__).resolve().parents[1] / "docs" / "generate.md"
    source = pycon_blocks(page.read_text(encoding="utf-8"))
    module = load_module(generated, "urls1738")
    try:
        test = doctest.DocTestParser().get_doctest(source, {}, page.name, None, 0)
        assert test.examples
        runner = doctest.DocTestRunner()
        runner.run(test)
        assert runner.failures == 0
    finally:
        for name in [n for n in sys.modules if n.startswith("urls1738")]:
            del sys.modules[name]
    assert module.__name__ == "urls1738"


# ---- in a fresh environment, without lark or rfc1738 ----


def clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def run_python(python: Path, *args: str, stdin: str = "", cwd: Path) -> str:
    done = subprocess.run(
        [str(python), *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=clean_env(),
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """A virtual environment with no packages, and its site-packages directory."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)],
        check=True,
        env=clean_env(),
        timeout=TIMEOUT,
    )
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = Path(
        run_python(
            python,
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['purelib'])",
            cwd=venv,
        ).strip()
    )
    yield python, site


def run_standalone(
    bare_python: tuple[Path, Path],
    module: Path,
    request: list[tuple[str, bool, bool]],
    workdir: Path,
) -> list[dict[str, object]]:
    python, site = bare_python
    shutil.copy(module, site / module.name)
    try:
        workdir.mkdir(exist_ok=True)
        out = json.loads(
            run_python(python, "-c", PROGRAM, module.stem, stdin=json.dumps(request), cwd=workdir)
        )
    finally:
        (site / module.name).unlink()
    assert Path(out["module"]) == site / module.name
    assert out["lark"] is False and out["rfc1738"] is False
    results: list[dict[str, object]] = out["results"]
    return results


@pytest.mark.slow
def test_fresh_environment_every_scheme(
    generated: Path, bare_python: tuple[Path, Path], tmp_path: Path
) -> None:
    request = (
        [(text, True, True) for text in ALL_ACCEPTED]
        + [(text, True, False) for text in HOST_CHECKED]
        + [(text, False, True) for text in HOST_CHECKED]
        + [(text, True, False) for text in ALL_REJECTED + LONG]
    )
    results = run_standalone(bare_python, generated, request, tmp_path / "elsewhere")
    assert len(results) == len(request)
    found = dict(zip([(text, checks) for text, checks, _ in request], results, strict=True))

    # Every URL the grammar accepts: the same object, normal form and replace().
    assert {type(rfc1738.parse(text)).__name__ for text in ALL_ACCEPTED} == set(
        cls.__name__ for cls in rfc1738.CLASSES.values()
    )
    for text in ALL_ACCEPTED:
        assert found[(text, True)] == judge(rfc1738, text), shown(text)
    # Host checks: the same errors; without them, the same objects.
    for text in HOST_CHECKED:
        assert found[(text, True)] == judge(rfc1738, text, rewrite=False), shown(text)
        assert found[(text, False)] == judge(rfc1738, text, False), shown(text)

    # Rejected: the library's error exactly, long input too: the module's
    # tables carry the error automata the library's errors come from.
    for text in ALL_REJECTED + LONG:
        standalone = found[(text, True)]
        assert standalone["valid"] is False and standalone["is_valid"] is False, shown(text)
        library = judge(rfc1738, text, rewrite=False)["error"]  # type: ignore[index]
        assert standalone["error"] == library, shown(text)


@pytest.mark.slow
def test_fresh_environment_edited_grammar(bare_python: tuple[Path, Path], tmp_path: Path) -> None:
    grammar_dir = edited_grammar(tmp_path)  # http URLs with a login
    (grammar_dir / "afs.lark").write_text(
        "// AFS (RFC 1738 section 4 names it). Start rule: afsurl.\n"
        "%import .common (ip_schemepart, login, hostport, host, hostname, domainlabel,"
        " toplabel, alphadigit, hostnumber, port, user, password, urlpath, digits)\n"
        '// BNF: afsurl = "afs:" ip-schemepart   (not in RFC 1738)\n'
        'afsurl: "afs:"i ip_schemepart\n',
        encoding="utf-8",
    )
    (grammar_dir / "nest.lark").write_text(
        "// Refers back to itself. Start rule: nesturl.\n"
        'nesturl: "nest:" item\nitem: "(" item ")" | "x"\n',
        encoding="utf-8",
    )
    module = tmp_path / "edited_rfc1738.py"
    with pytest.warns(NotRegularWarning, match="^nest: not regular"):
        rfc1738.generate(grammar_dir, tmp_path / "in_process.py")
    result = subprocess.run(
        [
            str(SCRIPT),
            "generate",
            "--grammar",
            str(grammar_dir),
            "-o",
            str(module),
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=clean_env(),
    )
    assert result.returncode == 0, result.stderr
    assert "nest" in module.read_text(encoding="utf-8").split('"""')[1]

    urls = [
        "http://u:p@h/x",
        "afs://cell.example/usr/lib",
        "afs:opaque",
        "http://h/a b",
        "ftp://h/",
    ]
    request = [(url, True, False) for url in urls]
    results = run_standalone(bare_python, module, request, tmp_path / "elsewhere")
    library = rfc1738.load(grammar_dir)
    itself = SimpleNamespace(
        parse=library.parse, is_valid=library.is_valid, URLSyntaxError=rfc1738.URLSyntaxError
    )
    for url, found in zip(urls, results, strict=True):
        assert found == judge(itself, url, rewrite=False), url
    assert results[0]["object"]["host"] == "h"  # type: ignore[index]
    assert results[1]["class"] == "GenericURL"

    # A scheme that is not regular has no expression: its URLs raise GrammarError.
    shutil.copy(module, bare_python[1] / module.name)
    try:
        out = run_python(
            bare_python[0],
            "-c",
            NOT_REGULAR,
            cwd=tmp_path,
        )
    finally:
        (bare_python[1] / module.name).unlink()
    assert out.startswith("GrammarError ")
    assert "refers back to itself" in out and "no Earley parser" in out
    assert "a standalone module has no Lark grammar for nesturl\nh\n" in out
    assert out.endswith("\nh\n")
