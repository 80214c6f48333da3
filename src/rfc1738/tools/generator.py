"""Write a standalone Python module: a grammar's parsers, without Lark.

:func:`generate` writes one ``.py`` file that parses URLs with the compiled
expressions of a grammar directory and builds the same objects as the
library, where neither ``lark`` nor ``rfc1738`` is installed. The file holds:

- the tables of :mod:`rfc1738.runtime.tables`, written by its one writer (the
  wheel's built-in tables are written by the same, through
  :func:`tables_module`): per scheme file, the expression the compiler writes
  for its start rule (with the groups its class and the host checks read) and
  the prefix expression errors are located with; the character sets the URL
  classes escape and normalize with (the shipped grammar's);
- the source of the library's own modules that need no Lark, as they are
  installed (the URL classes, the errors, :class:`~rfc1738.Grammar` and its
  hot path, the error diagnosis), found by following their relative imports;
  the modules that would read grammar files or run Lark are replaced by the
  stand-ins of :mod:`rfc1738.tools.stand_ins`;
- a loader that installs those modules, when the file is imported, as the
  private package ``<module>._rfc1738``.

Nothing of the library is written again here: the generated module runs the
library's own code. See ``docs/generate.md`` for what differs (errors have no
``expected`` set: there is no Earley parser to compute it).

What comes from outside the library (the grammar directory's name, its
files' names, the compiled tables) reaches the module only as a Python
literal written by ``repr`` or checked to read back as the same value
(:func:`_shown`, :func:`_docstring`, :func:`_string`), and the module's text
is parsed once written to check that its docstring is the one meant: a
directory named ``x\nimport os`` cannot add a statement to it.
"""

from __future__ import annotations

import ast
import os
import warnings
from collections.abc import Iterator
from pathlib import Path

from ..bnf.files import package_data, shipped_grammar_dir
from ..compile import pipeline
from ..errors import GrammarError
from ..runtime.store import shipped_tables
from ..runtime.tables import Tables, module_text
from ..urls import Grammar, load
from ..version import __version__

__all__ = [
    "NotRegularWarning",
    "generate",
    "package_sources",
    "render",
    "tables_module",
]

#: The package root of a standalone module: what it exports.
ROOT = '''\
"""The private package of a standalone RFC 1738 module (see the module that holds it)."""

from .errors import GrammarError, RFC1738Error, URLSyntaxError
from .tools.standalone import is_valid, parse
from .urls import (
    URL,
    FileURL,
    FtpURL,
    GenericURL,
    GopherURL,
    HttpURL,
    MailtoURL,
    NewsURL,
    NntpURL,
    ProsperoURL,
    TelnetURL,
    WaisURL,
)

__all__ = [
    "URL",
    "FileURL",
    "FtpURL",
    "GenericURL",
    "GopherURL",
    "GrammarError",
    "HttpURL",
    "MailtoURL",
    "NewsURL",
    "NntpURL",
    "ProsperoURL",
    "RFC1738Error",
    "TelnetURL",
    "URLSyntaxError",
    "WaisURL",
    "is_valid",
    "parse",
]
'''

#: Modules of the library replaced in a standalone module, and by what.
STAND_INS = {
    "compile.pipeline": "from ..tools.stand_ins import CompiledFile, NotRegularError\n",
    "runtime.reference": "from ..tools.stand_ins import ReferenceParser\n",
    # The module gets its tables from install(), not from the wheel's module.
    "runtime._tables": "TABLES = None\n",
}

#: Functions of a module that a standalone module takes from the stand-ins instead.
OVERRIDES = {
    "bnf.files": (
        "from ..tools.stand_ins import scheme_files, shipped_grammar_dir  # noqa: E402\n"
    ),
    "runtime.store": "from ..tools.stand_ins import shipped_tables  # noqa: E402\n",
}


def generate(
    grammar_dir: str | os.PathLike[str] | None, output_path: str | os.PathLike[str]
) -> Path:
    """Write the standalone module of a grammar directory (the shipped one for ``None``).

    Returns the path written. The module's name is the file's stem; import it
    as any module and call its ``parse`` and ``is_valid``. A scheme whose
    grammar is not regular gets no expression: its URLs raise
    :class:`~rfc1738.GrammarError` in the generated module, and a
    :class:`NotRegularWarning` says so here.
    """
    grammar = load(grammar_dir)
    output = Path(output_path)
    found = pipeline.compile_directory(grammar)
    shipped = shipped_tables() or pipeline.compile_directory(Grammar(shipped_grammar_dir()))
    output.write_text(render(grammar, found, shipped, package_sources()), encoding="utf-8")
    not_regular = [scheme for scheme, table in found.schemes.items() if table.problem]
    if not_regular:
        warnings.warn(
            f"{', '.join(not_regular)}: not regular, so {output.name} cannot parse their URLs "
            "(it has no Earley parser)",
            NotRegularWarning,
            stacklevel=2,
        )
    return output


class NotRegularWarning(UserWarning):
    """Schemes a generated module cannot parse: their grammar is not regular."""


# ---- the tables ----


def tables_module(grammar_dir: str | os.PathLike[str]) -> str:
    """The wheel's tables module of a grammar directory (:func:`.pipeline.tables_module`)."""
    return pipeline.tables_module(Grammar(grammar_dir))


# ---- the library's own modules ----


def package_sources() -> dict[str, str]:
    """The modules of a standalone package by dotted name (``""`` the root), as source.

    The root is :data:`ROOT`; the stand-ins are :data:`STAND_INS`; the rest
    is every module of rfc1738 the root reaches through relative imports
    (inside functions too), as installed, except those that need Lark when
    imported. A module of :data:`OVERRIDES` gets its line appended.
    """
    sources = {"": ROOT, **STAND_INS}
    todo = list(_relative_imports("", ROOT))
    needs_lark: dict[str, bool] = {}
    while todo:
        name = todo.pop()
        if name in sources or _needs_lark(name, needs_lark):
            continue
        source = _source(name)
        sources[name] = source + OVERRIDES.get(name, "")
        todo.extend(_relative_imports(name, source))
        # A module's packages are imported before it: bring each along.
        todo.extend(name.rsplit(".", depth)[0] for depth in range(1, name.count(".") + 1))
    return dict(sorted(sources.items()))


def _module_file(name: str) -> Path | None:
    root = package_data()  # the installed package's own directory
    place = root.joinpath(*name.split(".")) if name else root
    if place.is_dir():
        place = place / "__init__.py"
        return place if place.is_file() else None
    parts = name.split(".")
    module = root.joinpath(*parts[:-1], f"{parts[-1]}.py")
    return module if module.is_file() else None


def _source(name: str) -> str:
    found = _module_file(name)
    if found is None:
        raise GrammarError(f"rfc1738 has no module {name!r} to put in a standalone module")
    return found.read_text(encoding="utf-8")


def _is_package(name: str) -> bool:
    found = _module_file(name)
    return found is not None and found.name == "__init__.py"


def _relative_imports(name: str, source: str, *, top_level: bool = False) -> Iterator[str]:
    """The modules of rfc1738 that ``name`` imports relatively (the root as ``""``).

    ``top_level``: only the imports that run when the module is imported.
    """
    tree = ast.parse(source)
    package = name.split(".") if name and _is_package(name) else name.split(".")[:-1]
    package = [part for part in package if part]
    for node in _top_level_imports(tree.body) if top_level else ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or not node.level:
            continue
        base = package[: len(package) - (node.level - 1)]
        if node.module:
            yield ".".join([*base, node.module])
            continue
        for alias in node.names:
            target = ".".join([*base, alias.name])
            yield target if _module_file(target) is not None else ".".join(base)


def _top_level_imports(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The import statements that run on import (``if TYPE_CHECKING:`` blocks aside)."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                yield from _top_level_imports(node.body)
                yield from _top_level_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from _top_level_imports(block)
            for handler in node.handlers:
                yield from _top_level_imports(handler.body)


def _needs_lark(name: str, known: dict[str, bool]) -> bool:
    """Whether importing module ``name`` imports Lark (directly or through its imports)."""
    if name in known:
        return known[name]
    if name == "" or name in STAND_INS:
        return False
    known[name] = False  # an import cycle does not make a module need Lark
    source = _source(name)
    tree = ast.parse(source)
    direct = any(
        (isinstance(node, ast.Import) and any(a.name.split(".")[0] == "lark" for a in node.names))
        or (
            isinstance(node, ast.ImportFrom)
            and not node.level
            and (node.module or "").split(".")[0] == "lark"
        )
        for node in _top_level_imports(tree.body)
    )
    known[name] = direct or any(
        _needs_lark(target, known)
        for target in _relative_imports(name, source, top_level=True)
        if target != name
    )
    return known[name]


# ---- the module's text ----


def render(grammar: Grammar, found: Tables, shipped: Tables, sources: dict[str, str]) -> str:
    """The standalone module: ``found`` the grammar's tables, ``shipped`` the shipped ones."""
    out: list[str] = []
    regular = [_shown(s) for s, t in found.schemes.items() if t.problem is None]
    not_regular = [_shown(s) for s, t in found.schemes.items() if t.problem is not None]
    directory = _shown(grammar.directory.name)
    docstring = _DOCSTRING.format(
        version=__version__,
        directory=directory,
        schemes=", ".join(regular) or "none",
        not_regular=(
            f"\nNo expression (the grammar is not regular; their URLs raise GrammarError):\n"
            f"{', '.join(not_regular)}.\n"
            if not_regular
            else ""
        ),
    )
    out.append(
        _HEADER.format(version=__version__, directory=directory, docstring=_docstring(docstring))
    )
    out.append("#: The package's modules, by dotted name within it ('' is the package itself).\n")
    out.append("_SOURCES = {\n")
    for name, source in sources.items():
        out.append(f"    {name!r}: {_string(source)},\n")
    out.append("}\n")
    out.append(f"_PACKAGES = {sorted(n for n in sources if n == '' or _is_package(n))!r}\n")
    out.append(_LOADER)
    out.append("#: The compiled tables of the grammar (rfc1738.runtime.tables).\n")
    out.append(module_text(found, "_TABLES"))
    if shipped.key == found.key:
        out.append("_SHIPPED = _TABLES\n")
    else:
        out.append("#: The shipped grammar's, whose character sets the URL classes escape with.\n")
        out.append(module_text(shipped, "_SHIPPED"))
    out.append(_FOOTER)
    text = "".join(out)
    if ast.get_docstring(ast.parse(text), clean=False) != docstring:
        # Not reached: every text above is a checked literal; a module that
        # says otherwise is not written.
        raise GrammarError("the standalone module's text does not read back as written")
    return text


def _shown(name: str) -> str:
    r"""A name from the grammar directory (its own, a file's) as the module's comments show it.

    As itself where it is printable and holds no quote or backslash; else as
    ``repr`` writes it, on one line, so that it stays inside its comment.

    >>> print(_shown("my-grammar"))
    my-grammar
    >>> print(_shown("x\nimport os"))
    'x\nimport os'
    """
    if name.isprintable() and not any(quote in name for quote in "\\'\""):
        return name
    return repr(name)


def _docstring(text: str) -> str:
    """``text`` as a string literal: triple-quoted where that reads back the same, else repr."""
    literal = '"""' + text.replace("\\", "\\\\") + '"""'
    if '"""' not in text and not text.endswith('"') and _reads(literal, text):
        return literal
    return repr(text)


def _string(source: str) -> str:
    """``source`` as a Python literal: a raw triple-quoted string where it can be one."""
    literal = "r'''" + source + "'''"
    if "'''" not in source and "\r" not in source and _reads(literal, source):
        return literal
    return repr(source)


def _reads(literal: str, value: str) -> bool:
    """Whether ``literal`` is one Python string literal whose value is ``value``."""
    try:
        tree = ast.parse(literal, mode="eval")
    except (SyntaxError, ValueError):  # ValueError: a NUL, before Python 3.12
        return False
    return isinstance(tree.body, ast.Constant) and tree.body.value == value


_HEADER = """\
# Generated by rfc1738 {version} (rfc1738 generate) from the grammar directory
# {directory}/. Do not edit: generate it again from the grammar files.
{docstring}

import importlib.abc
import importlib.util
import linecache
import sys
from pathlib import Path

"""

_DOCSTRING = """\
Parse URLs strictly by the RFC 1738 grammar, without lark or rfc1738 installed.

This module holds the compiled expressions of the grammar directory
``{directory}/`` and the URL classes of rfc1738 {version}; it needs only the
Python standard library.

    parse(text, *, host_checks=True)     the typed URL object, or URLSyntaxError
    is_valid(text, *, host_checks=True)  whether parse would return an object

The objects are those of rfc1738 (HttpURL, FtpURL, ..., GenericURL: see
``__all__``), with ``to_dict()``, ``normalize()`` and ``replace()``. Errors
have the library's position, rule and reason where the library's own search
for a long URL's error would give them; ``expected`` is empty (there is no
Earley parser here to compute it).

Schemes: {schemes}.
{not_regular}"""

_LOADER = '''
_PACKAGE = __name__ + "._rfc1738"


class _Loader(importlib.abc.Loader):
    """Runs an embedded module's source; its tracebacks show that source."""

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        name = module.__name__[len(_PACKAGE) + 1 :]
        source = _SOURCES[name]
        where = name.replace(".", "/") + ("/__init__" if name in _PACKAGES else "")
        filename = f"{__file__}/_rfc1738/{where.strip('/')}.py"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        module.__file__ = filename
        exec(compile(source, filename, "exec"), module.__dict__)


class _EmbeddedModuleFinder(importlib.abc.MetaPathFinder):
    """Finds the embedded modules, and only those, under ``<this module>._rfc1738``."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != _PACKAGE and not fullname.startswith(_PACKAGE + "."):
            return None
        name = fullname[len(_PACKAGE) + 1 :]
        if name not in _SOURCES:
            return None
        return importlib.util.spec_from_loader(fullname, _Loader(), is_package=name in _PACKAGES)


sys.meta_path.append(_EmbeddedModuleFinder())
_spec = sys.meta_path[-1].find_spec(_PACKAGE)
_package = importlib.util.module_from_spec(_spec)
sys.modules[_PACKAGE] = _package
_spec.loader.exec_module(_package)
_runtime = sys.modules[_PACKAGE + ".tools.standalone"]

'''

_FOOTER = """
_runtime.install(_TABLES, _SHIPPED, Path(__file__).resolve().parent)

__all__ = list(_package.__all__)
globals().update({name: getattr(_package, name) for name in __all__})
"""
