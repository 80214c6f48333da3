"""Where the grammar files are, and which file serves which scheme.

A grammar directory holds ``common.lark`` (shared productions), ``generic.lark``
(``genericurl``, for every scheme without a file of its own) and one
``<scheme>.lark`` per predefined scheme whose start rule is ``<scheme>url``.
Dropping a new ``<scheme>.lark`` into a copy of the directory is how a scheme
is added.

Every ``.lark`` name of a directory must be a regular file (or a link to one)
of at most :data:`MAX_GRAMMAR_FILE` bytes: a FIFO would hang the reader, a
link to ``/dev/zero`` never end, a directory or a link loop fail to be read.
:func:`lark_files` refuses anything else with a
:class:`~rfc1738.errors.GrammarError` naming the path, before any file is
read, and :func:`read_grammar_file` reads one without blocking on what is not
a regular file and without reading past the bound.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from .._records import Record
from ..errors import GrammarError

__all__ = [
    "GENERIC",
    "MAX_GRAMMAR_FILE",
    "GrammarDirectory",
    "SchemeFile",
    "UnfitFileError",
    "lark_files",
    "package_data",
    "read_grammar_file",
    "read_regular_file",
    "scheme_files",
    "scheme_key",
    "shipped_grammar_dir",
    "start_rule",
    "w3_1994_grammar_dir",
]

#: The file, and its start rule, that serves every scheme without a file.
GENERIC = "generic"

#: The most bytes a grammar file may hold (1 MiB; the largest shipped file holds 4 KB).
MAX_GRAMMAR_FILE = 1 << 20


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


def lark_files(directory: Path, *, check: bool = True) -> list[Path]:
    """The ``.lark`` files of ``directory``, by name; none if it cannot be listed.

    What ``sorted(directory.glob("*.lark"))`` gives, without the pattern
    ``glob`` compiles on first use (a fifth of a millisecond of the first parse).
    A ``.lark`` name that is not a regular file of at most
    :data:`MAX_GRAMMAR_FILE` bytes (a FIFO, a device, a directory, a link
    that leads nowhere or in a loop) raises :class:`~rfc1738.errors.GrammarError`;
    ``check=False`` leaves that to the reader of each (:func:`read_grammar_file`).
    """
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    found = [directory / name for name in sorted(names) if name.endswith(".lark")]
    for path in found if check else ():
        try:
            _check_status(os.stat(path), MAX_GRAMMAR_FILE)
        except (OSError, ValueError) as error:
            raise _grammar_error(path, error) from None
    return found


def read_grammar_file(path: Path) -> bytes:
    """The bytes of grammar file ``path``; :class:`~rfc1738.errors.GrammarError` if it is not one.

    See :func:`read_regular_file`; the bound is :data:`MAX_GRAMMAR_FILE`.
    """
    try:
        return read_regular_file(path, MAX_GRAMMAR_FILE)
    except (OSError, ValueError) as error:
        raise _grammar_error(path, error) from None


class UnfitFileError(OSError):
    """A file that is not a regular file, or holds more bytes than the reader takes."""


def read_regular_file(path: Path, limit: int) -> bytes:
    """The bytes of ``path``, a regular file (or a link to one) of at most ``limit`` bytes.

    Opened without blocking (a FIFO does not wait for a writer), checked on
    what was opened, and read no further than the bound: anything else raises
    :class:`UnfitFileError`, and a file that cannot be opened or read
    ``OSError``.
    """
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        status = os.fstat(descriptor)
        _check_status(status, limit)
        size = status.st_size
        chunks: list[bytes] = []
        got = 0
        # What the file held when it was opened, in one read as a rule; one
        # that says it holds nothing (as /proc's do) in pieces to its end.
        # Never past the bound.
        while got <= limit:
            chunk = os.read(descriptor, min(size - got if size else _PIECE, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
            if got == size:
                break
    finally:
        os.close(descriptor)
    if got > limit:
        raise UnfitFileError(f"more than {limit} bytes")
    return b"".join(chunks)


#: How much a file that gives no size is read at a time.
_PIECE = 1 << 16


def _check_status(status: os.stat_result, limit: int) -> None:
    mode = status.st_mode
    if not stat.S_ISREG(mode):
        kinds = (
            (stat.S_ISDIR, "a directory"),
            (stat.S_ISFIFO, "a FIFO"),
            (stat.S_ISSOCK, "a socket"),
        )
        kind = next((name for test, name in kinds if test(mode)), "a device")
        raise UnfitFileError(f"{kind}, not a regular file")
    if status.st_size > limit:
        raise UnfitFileError(f"more than {limit} bytes")


def _grammar_error(path: Path, error: Exception) -> GrammarError:
    if isinstance(error, UnfitFileError):
        return GrammarError(f"not a grammar file: {error}", str(path))
    reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    return GrammarError(f"cannot read the grammar file: {reason}", str(path))


def start_rule(scheme: str) -> str:
    """The start rule of ``<scheme>.lark``: ``<scheme>url`` (``genericurl`` for the generic file).

    >>> start_rule("http"), start_rule(GENERIC)
    ('httpurl', 'genericurl')
    """
    return f"{scheme}url"


def scheme_key(written: str) -> str | None:
    """The scheme as grammar files name theirs: ``written`` in lower case, if it is ASCII.

    Schemes compare without case, ASCII letters only (section 2.1); a
    scheme written with other characters names no file (``None``).

    >>> scheme_key("HTTP"), scheme_key("\u0130")
    ('http', None)
    """
    return written.lower() if written.isascii() else None


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
        found[name] = SchemeFile(name, path, start_rule(name))
    return found
