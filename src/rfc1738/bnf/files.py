"""Where the grammar files are, and which file serves which scheme.

A grammar directory holds ``common.lark`` (shared productions), ``generic.lark``
(``genericurl``, for every scheme without a file of its own) and one
``<scheme>.lark`` per predefined scheme whose start rule is ``<scheme>url``.
Dropping a new ``<scheme>.lark`` into a copy of the directory is how a scheme
is added.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from .._records import Record

__all__ = [
    "GENERIC",
    "GrammarDirectory",
    "SchemeFile",
    "lark_files",
    "package_data",
    "scheme_files",
    "shipped_grammar_dir",
    "w3_1994_grammar_dir",
]

#: The file, and its start rule, that serves every scheme without a file.
GENERIC = "generic"


class SchemeFile(Record):
    """One grammar file and the start rule a URL of its scheme is parsed with."""

    _fields = ("scheme", "path", "start")
    __slots__ = _fields
    scheme: str
    path: Path
    start: str

    def __init__(self, scheme: str, path: Path, start: str) -> None:
        self._fill(scheme, path, start)


class GrammarDirectory(Protocol):
    """A grammar directory and its scheme files: what the readers of this layer need.

    :class:`rfc1738.Grammar` is one; so is anything with these two attributes.
    """

    @property
    def directory(self) -> Path:
        """The directory the ``.lark`` files are in."""
        ...

    @property
    def files(self) -> Mapping[str, SchemeFile]:
        """Each scheme's file, ``generic`` included (see :func:`scheme_files`)."""
        ...


#: The installed package's directory, where its package data is. (What
#: ``importlib.resources.files("rfc1738")`` gives for an installed package,
#: without importing ``importlib.resources``, which would cost ``import rfc1738``
#: about a tenth of its time; the grammar files are read as files either way.)
_PACKAGE = Path(__file__).resolve().parent.parent


def package_data(*parts: str) -> Path:
    """A file or directory of the package's data (``grammar``, ``grammars/...``)."""
    return _PACKAGE.joinpath(*parts)


def shipped_grammar_dir() -> Path:
    """The grammar directory installed with the package (package data)."""
    return package_data("grammar")


def w3_1994_grammar_dir() -> Path:
    """The 1994 W3 URL grammar, shipped as a second grammar directory.

    Its rules are recursive, so only the reference parser serves it (see
    ``docs/w3-1994.md``).

    >>> sorted(p.name for p in w3_1994_grammar_dir().glob("*.lark"))[:3]
    ['common.lark', 'ftp.lark', 'generic.lark']
    """
    return package_data("grammars", "w3-1994")


def lark_files(directory: Path) -> list[Path]:
    """The ``.lark`` files of ``directory``, by name; none if it cannot be listed.

    What ``sorted(directory.glob("*.lark"))`` gives, without the pattern
    ``glob`` compiles on first use (a fifth of a millisecond of the first parse).
    """
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    return [directory / name for name in sorted(names) if name.endswith(".lark")]


def scheme_files(directory: Path) -> dict[str, SchemeFile]:
    """Map each scheme of ``directory`` to its file; ``generic`` is included.

    >>> sorted(scheme_files(shipped_grammar_dir()))[:3]
    ['file', 'ftp', 'generic']
    """
    found: dict[str, SchemeFile] = {}
    for path in lark_files(directory):
        name = path.stem
        if name == "common":
            continue
        start = "genericurl" if name == GENERIC else f"{name}url"
        found[name] = SchemeFile(name, path, start)
    return found
