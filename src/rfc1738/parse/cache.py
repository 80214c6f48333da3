"""The disk cache of compiled grammars: an edited grammar is compiled once.

The tables of a grammar directory (:mod:`rfc1738.parse.tables`) are kept in
one file per content key, ``<cache dir>/<key>.tables``, where the cache
directory is ``$RFC1738_CACHE_DIR`` if set (set and empty: no cache at all),
else ``$XDG_CACHE_HOME/rfc1738``, else ``~/.cache/rfc1738``.

A cache file is never trusted: it is read as a literal (``ast.literal_eval``,
nothing is run), its first line holds the SHA-256 of the rest, and the tables
must have the shape :func:`~rfc1738.parse.tables.read_tables` checks and the
key asked for. Anything else (a stale file, a truncated or corrupt one, one
that cannot be read) is a miss, and the grammar is compiled again. A cache
that cannot be written is no error: the tables are used from memory.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import os
from pathlib import Path

from .tables import Tables, read_tables, write_tables

__all__ = ["ENVIRONMENT", "cache_dir", "read_cached", "write_cached"]

#: The environment variable that names the cache directory ("" turns the cache off).
ENVIRONMENT = "RFC1738_CACHE_DIR"

_HEADER = "# rfc1738 compiled grammar tables, sha256="


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


def read_cached(key: str) -> Tables | None:
    """The cached tables of content key ``key``, or ``None`` (missing, stale or corrupt)."""
    path = _path(key)
    if path is None:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    header, _, body = text.partition("\n")
    if header != _HEADER + hashlib.sha256(body.encode()).hexdigest():
        return None
    try:
        tables = read_tables(ast.literal_eval(body))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return tables if tables.key == key else None


def write_cached(tables: Tables) -> bool:
    """Keep ``tables`` under their key; ``False`` if the cache is off or cannot be written.

    The file is written aside and renamed into place, so a reader never sees
    half of it, and two processes writing at once leave one whole file.
    """
    path = _path(tables.key)
    if path is None:
        return False
    body = write_tables(tables)
    text = _HEADER + hashlib.sha256(body.encode()).hexdigest() + "\n" + body
    # Written aside under a name no other writer uses, then renamed into place.
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{id(text):x}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(temporary, "x", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return False
    return True
