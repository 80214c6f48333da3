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
- the source of the library's run-time modules, as they are installed: the
  fixed list :data:`RUNTIME_MODULES` (the URL classes, the errors,
  :class:`~rfc1738.Grammar` and its hot path, the error explanation), which
  imports neither Lark nor :mod:`rfc1738.compile`; where the library would
  reach those (an edited grammar's compiler, the Earley parser), the run
  time itself says that a standalone module has none
  (:meth:`~rfc1738.runtime.store.GrammarTables._compiler`,
  :class:`~rfc1738.runtime.unavailable.Unavailable`);
- a loader that installs those modules, when the file is imported, as the
  private package ``<module>._rfc1738``, whose root exports the classes of
  :data:`~rfc1738.urls.grammar.CLASSES`.

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
from pathlib import Path

from ..bnf.files import package_data, shipped_grammar_dir
from ..compile import pipeline
from ..errors import GrammarError
from ..runtime.store import shipped_tables
from ..runtime.tables import Tables, module_text
from ..urls import CLASSES, URL, Grammar, load
from ..version import __version__

__all__ = [
    "RUNTIME_MODULES",
    "NotRegularWarning",
    "generate",
    "package_sources",
    "render",
    "root_source",
    "tables_module",
]

#: The modules of rfc1738 a standalone module embeds, as installed: what the
#: root (:func:`root_source`) reaches through relative imports, but
#: :mod:`rfc1738.compile`, the modules that import Lark, and the wheel's own
#: tables (``runtime._tables``: the module carries its own).
#: ``tests/test_generate.py`` derives the list so and holds it to this one.
RUNTIME_MODULES = (
    "_records",
    "bnf",
    "bnf.files",
    "bnf.names",
    "errors",
    "runtime",
    "runtime.automaton",
    "runtime.cache",
    "runtime.dispatch",
    "runtime.engines",
    "runtime.explain",
    "runtime.facts",
    "runtime.hooks",
    "runtime.hosts",
    "runtime.layout",
    "runtime.linear",
    "runtime.numbers",
    "runtime.possessive",
    "runtime.sha",
    "runtime.spans",
    "runtime.store",
    "runtime.tables",
    "runtime.unavailable",
    "runtime.visit",
    "tools",
    "tools.standalone",
    "urls",
    "urls._fields",
    "urls._hooks",
    "urls._login",
    "urls._text",
    "urls.base",
    "urls.checks",
    "urls.file",
    "urls.ftp",
    "urls.generic",
    "urls.gopher",
    "urls.grammar",
    "urls.http",
    "urls.mailto",
    "urls.news",
    "urls.nntp",
    "urls.prospero",
    "urls.telnet",
    "urls.wais",
    "version",
)


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


def root_source() -> str:
    """The package root of a standalone module: the errors, the URL classes, parse and is_valid.

    The classes are those of :data:`~rfc1738.urls.grammar.CLASSES`, and their base.
    """
    classes = sorted({URL.__name__, *(cls.__name__ for cls in CLASSES.values())})
    exported = sorted([*_ROOT_ERRORS, *classes, "is_valid", "parse"])
    return _ROOT.format(
        errors=", ".join(_ROOT_ERRORS),
        classes="".join(f"    {name},\n" for name in classes),
        exported="".join(f'    "{name}",\n' for name in exported),
    )


#: The errors a standalone module exports.
_ROOT_ERRORS = ("GrammarError", "RFC1738Error", "URLSyntaxError")

_ROOT = '''\
"""The private package of a standalone RFC 1738 module (see the module that holds it)."""

from .errors import {errors}
from .tools.standalone import is_valid, parse
from .urls import (
{classes})

__all__ = [
{exported}]
'''


def package_sources() -> dict[str, str]:
    """The modules of a standalone package by dotted name (``""`` the root), as source.

    The root is :func:`root_source`; the rest are :data:`RUNTIME_MODULES`, as installed.
    """
    return {"": root_source(), **{name: _source(name) for name in sorted(RUNTIME_MODULES)}}


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
