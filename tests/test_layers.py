"""The package's layers: imports go one way, and no module imports itself back.

Every import of every module under ``src/rfc1738`` is read with ``ast``,
imports inside functions included (a deferred import is still a
dependency); only ``if TYPE_CHECKING:`` blocks are left out, since they never
run. The layers, bottom to top, are those of ``docs/architecture.md``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "rfc1738"

#: Bottom to top. A module may import its own layer and the layers below it.
#: ``compile`` sits above ``runtime`` (it builds the data ``runtime`` reads),
#: yet ``runtime``, ``urls``, ``output`` and ``text`` run without it: see RUN_TIME.
LAYERS = (
    ("rfc1738.errors", "rfc1738.version", "rfc1738._records"),
    ("rfc1738.bnf",),
    ("rfc1738.runtime",),
    ("rfc1738.compile",),
    ("rfc1738.urls",),
    ("rfc1738.output", "rfc1738.text"),
    (
        "rfc1738.tools",
        "rfc1738.spark",
        "rfc1738.pydantic",
        "rfc1738.strategies",
        "rfc1738.columns",
        "rfc1738.duckdb",
        "rfc1738.polars",
    ),
    ("rfc1738.cli",),
    ("rfc1738", "rfc1738.__main__"),
)

#: What runs to parse, validate and explain: it never imports compile time...
RUN_TIME = ("rfc1738.runtime", "rfc1738.urls", "rfc1738.output", "rfc1738.text")
COMPILE_TIME = "rfc1738.compile"
#: ... but through the one entry, for an edited grammar without compiled tables
#: (docs/architecture.md): deferred, and commented.
ENTRY = ("rfc1738.runtime.store", "rfc1738.compile.pipeline")
#: Imports from run time into compile time still to be routed through the entry:
#: none since issue 20, and :func:`test_nothing_is_pending` keeps it so.
PENDING: frozenset[tuple[str, str]] = frozenset()

#: What an import inside a function may keep out of its module's import: Lark,
#: and the optional extras. Anything else is imported at the top.
HEAVY = frozenset(
    {
        "lark",
        "railroad",
        "pyspark",
        "pandas",
        "pyarrow",
        "pydantic",
        "pydantic_core",
        "hypothesis",
        "duckdb",
        "polars",
        "numpy",
    }
)


def modules() -> dict[str, Path]:
    found = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = modules()


def layer_of(module: str) -> int:
    best, depth = -1, -1
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            matches = module == prefix or module.startswith(prefix + ".")
            if (
                matches
                and prefix.count(".") > depth
                and not (prefix == "rfc1738" and module != prefix)
            ):
                best, depth = index, prefix.count(".")
    assert best >= 0, f"{module} is in no layer: add it to LAYERS and docs/architecture.md"
    return best


def imports(module: str, path: Path) -> Iterator[tuple[str, bool, int]]:
    """(imported module, whether inside a function, line) for each import.

    The module is one of rfc1738's, or the top-level name of another package.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def targets(node: ast.Import | ast.ImportFrom) -> Iterator[str]:
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
            return
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        for alias in node.names:
            yield f"{target}.{alias.name}" if f"{target}.{alias.name}" in MODULES else target

    def visit(body: list[ast.stmt], deferred: bool) -> Iterator[tuple[str, bool, int]]:
        for node in body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                yield from visit(node.orelse, deferred)
                continue
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in targets(node):
                    if target in MODULES and target != module:
                        yield target, deferred, node.lineno
                    elif not target.startswith("rfc1738"):
                        yield target.split(".")[0], deferred, node.lineno
                continue
            inner = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or deferred
            for field in ("body", "orelse", "finalbody", "handlers"):
                for child in getattr(node, field, []) or []:
                    block = child.body if isinstance(child, ast.ExceptHandler) else [child]
                    if isinstance(child, (ast.stmt, ast.ExceptHandler)):
                        yield from visit(block, inner)

    yield from visit(tree.body, False)


GRAPH = {
    name: [(t, d, line) for t, d, line in imports(name, path) if t in MODULES or t in HEAVY]
    for name, path in MODULES.items()
}


def needs_heavy(module: str, seen: frozenset[str] = frozenset()) -> bool:
    """Whether importing ``module`` imports Lark or an extra (through its top-level imports)."""
    if module in HEAVY:
        return True
    return any(
        needs_heavy(target, seen | {module})
        for target, deferred, _line in GRAPH[module]
        if not deferred and target not in seen
    )


def in_package(module: str, packages: str | tuple[str, ...]) -> bool:
    prefixes = (packages,) if isinstance(packages, str) else packages
    return any(module == p or module.startswith(p + ".") for p in prefixes)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down(module: str) -> None:
    own = layer_of(module)
    upward = [
        f"line {line}: {target}"
        for target, _deferred, line in GRAPH[module]
        if target in MODULES
        and layer_of(target) > own
        and (module, target) not in PENDING
        and (module, target) != ENTRY
    ]
    assert not upward, f"{module} imports a higher layer: {upward}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if in_package(m, RUN_TIME)))
def test_run_time_imports_no_compile_time(module: str) -> None:
    """Run time reaches the compiler only through the one entry, deferred."""
    found = [
        (target, deferred, line)
        for target, deferred, line in GRAPH[module]
        if in_package(target, COMPILE_TIME) and (module, target) not in PENDING
    ]
    for target, deferred, line in found:
        assert (module, target) == ENTRY, f"{module} line {line} imports {target}"
        assert deferred, f"the entry ({module} line {line}) must be imported inside a function"


def test_the_entry_is_used() -> None:
    assert any(target == ENTRY[1] for target, _d, _l in GRAPH[ENTRY[0]])


def test_nothing_is_pending() -> None:
    assert not PENDING


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_inside_functions_have_a_reason(module: str) -> None:
    unexplained = [
        f"line {line}: {target}"
        for target, deferred, line in GRAPH[module]
        if deferred and not needs_heavy(target)
    ]
    assert not unexplained, f"{module} imports inside a function without a reason: {unexplained}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_inside_functions_say_why(module: str) -> None:
    """A deferred import carries its reason: a comment on its line or the line above."""
    # Directives for the tools (type: ignore, noqa) are no reason.
    lines = [
        re.sub(r"#\s*(type:\s*ignore\S*|noqa\S*)", "", line)
        for line in MODULES[module].read_text(encoding="utf-8").splitlines()
    ]
    silent = [
        f"line {line}: {target}"
        for target, deferred, line in GRAPH[module]
        if deferred and "#" not in lines[line - 1] and not lines[line - 2].lstrip().startswith("#")
    ]
    assert not silent, f"{module} imports inside a function without a comment: {silent}"


def test_no_cycles() -> None:
    edges = {name: {t for t, _d, _l in found if t in MODULES} for name, found in GRAPH.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in sorted(edges[node]):
            if state.get(target) == 1:
                cycle = [*stack[stack.index(target) :], target]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if target not in state:
                walk(target)
        stack.pop()
        state[node] = 2

    for name in sorted(edges):
        if name not in state:
            walk(name)


def test_every_module_is_in_a_layer() -> None:
    for name in MODULES:
        layer_of(name)


def test_import_rfc1738_needs_no_lark() -> None:
    """What ``import rfc1738`` runs imports neither Lark nor an extra."""
    assert not needs_heavy("rfc1738")


def test_the_layering_test_sees_imports_inside_functions() -> None:
    """A guard on the guard: the walker must see a deferred import, and Lark behind it."""
    found = {t: d for t, d, _l in GRAPH[ENTRY[0]]}
    assert found.get(ENTRY[1]) is True
    assert needs_heavy(ENTRY[1])


#: The most methods a class may have (issue 20: no hub). A method is a function
#: defined in the class's body, properties and ``__dunder__`` methods included.
MOST_METHODS = 20
#: The one class allowed more: the public URL base, whose API is what users call.
WIDE = frozenset({"rfc1738.urls.base.URL"})


def classes() -> Iterator[tuple[str, int]]:
    """Each class under ``src/rfc1738`` (module.name) with how many methods it defines."""
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                methods = [
                    item
                    for item in node.body
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                ]
                yield f"{module}.{node.name}", len(methods)


def test_no_class_but_url_has_more_than_20_methods() -> None:
    found = dict(classes())
    assert found["rfc1738.runtime.dispatch.Dispatch"] > 0  # the walker sees the classes
    wide = {name: count for name, count in found.items() if count > MOST_METHODS}
    assert wide.keys() <= WIDE, f"classes with more than {MOST_METHODS} methods: {wide}"
