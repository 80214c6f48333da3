"""The disk cache of compiled grammars: an edited grammar is compiled once.

The tables of a grammar directory (:mod:`rfc1738.runtime.tables`) are kept in
one file per content key, ``<cache dir>/<key>.tables``, where the cache
directory is ``$RFC1738_CACHE_DIR`` if set (set and empty: no cache at all),
else ``$XDG_CACHE_HOME/rfc1738``, else ``~/.cache/rfc1738``.

A cache file is never trusted. It must be a regular file of at most
:data:`MAX_CACHE_FILE` bytes, opened without blocking (a FIFO in its place
does not wait for a writer). :func:`encode` writes it: a first line with the
SHA-256 of the rest, then the tables' plain data
(:func:`~rfc1738.runtime.tables.tables_data`) in :mod:`marshal`'s format,
which builds values and runs nothing. :func:`decode` checks the digest
before anything else is read (no damaged data reaches :mod:`marshal`), then
reads the data with :func:`~rfc1738.runtime.tables.read_checked`: nothing but
dicts, tuples, strings, integers, booleans and ``None``, where the writer
puts them, every table's parts agreeing. Anything else (a stale file, a
truncated or corrupt one, one rewritten with a digest of its own that does
not hold together, one that cannot be read, one of another key) is a miss,
and the grammar is compiled again; a scheme whose expression does not compile
with the groups its table lists is compiled again when it is first used
(:class:`~rfc1738.runtime.store.GrammarTables`). A cache that cannot be
written is no error: the tables are used from memory.
"""

from __future__ import annotations

import contextlib
import marshal
import os
from pathlib import Path

from ..bnf.files import read_regular_file
from .tables import Tables, digest, read_checked, tables_data

__all__ = [
    "ENVIRONMENT",
    "MAX_CACHE_FILE",
    "cache_dir",
    "decode",
    "encode",
    "read_cached",
    "write_cached",
    "write_whole",
]

#: The environment variable that names the cache directory ("" turns the cache off).
ENVIRONMENT = "RFC1738_CACHE_DIR"

_HEADER = b"# rfc1738 compiled grammar tables (marshal), sha256="

#: The marshal format written: version 4 reads the same from Python 3.4 on.
_MARSHAL_VERSION = 4

#: The most bytes a cache file is read to (64 MiB; the shipped grammar's tables take 57 kB).
MAX_CACHE_FILE = 64 << 20


def cache_dir() -> Path | None:
    """Where compiled tables are cached, or ``None`` when caching is off."""
    chosen = os.environ.get(ENVIRONMENT)
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rfc1738"


def _path(key: str) -> Path | None:
    found = cache_dir()
    return None if found is None else found / f"{key}.tables"


def encode(tables: Tables) -> bytes:
    """``tables`` as a cache file holds them: the digest line, then the data in marshal's format."""
    body = marshal.dumps(tables_data(tables), _MARSHAL_VERSION)
    return _HEADER + digest(body).encode() + b"\n" + body


def decode(data: bytes) -> Tables | None:
    """The tables of a cache file's bytes; ``None`` unless its digest and its data are good."""
    header, _, body = data.partition(b"\n")
    if header != _HEADER + digest(body).encode():
        return None
    try:
        return read_checked(marshal.loads(body))
    except (ValueError, TypeError, EOFError, MemoryError, RecursionError):
        return None


def read_cached(key: str) -> Tables | None:
    """The cached tables of content key ``key``, or ``None`` (missing, stale or corrupt)."""
    path = _path(key)
    if path is None:
        return None
    try:
        data = read_regular_file(path, MAX_CACHE_FILE)
    except OSError:  # missing, unreadable, not a regular file, too big
        return None
    tables = decode(data)
    return tables if tables is not None and tables.key == key else None


def write_cached(tables: Tables) -> bool:
    """Keep ``tables`` under their key; ``False`` if the cache is off or cannot be written.

    The file is written aside and renamed into place, so a reader never sees
    half of it, and two processes writing at once leave one whole file.
    """
    path = _path(tables.key)
    if path is None:
        return False
    return write_whole(path, encode(tables))


def write_whole(path: Path, data: bytes) -> bool:
    """Write ``data`` as ``path``, whole or not at all; ``False`` if it cannot be written.

    Written aside under a name no other writer uses, then renamed into place:
    a reader never sees half of it, and two processes writing at once leave
    one whole file.
    """
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{id(data):x}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(temporary, "xb") as out:
            out.write(data)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return False
    return True
