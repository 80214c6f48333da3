"""Where a grammar's column plan comes from: memory, the disk cache, or the compiler.

Computing a plan (:func:`rfc1738.compile.columns.plan_data`) reads the
grammar files with Lark and writes three exports: about half a second, and
the imports, the first time in a process. So the plan of each grammar is
kept in memory, for as long as the :class:`~rfc1738.Grammar` lives, and on
disk, in the cache directory of the compiled tables
(:func:`rfc1738.runtime.cache.cache_dir`: ``$RFC1738_CACHE_DIR``, set and
empty for none), one file per key: ``<key>.columns``. The key is a SHA-256
of the plan's format, the package's version, the source of the modules
that write and read a plan (:func:`compiler_digest`), the grammar files'
content key and what the URL classes read (each grammar file's class, its
productions and hook exports), so an edited grammar, another class,
another release or a checkout whose compiler changed without a new format
number never reads a plan made for another.

A cache file is never trusted, as the tables' are not: a regular file of at
most :data:`MAX_PLAN_FILE` bytes whose first line is the SHA-256 of the
rest, which is JSON that :func:`~rfc1738.columns.plan.read_plan` checks
field by field; anything else is a miss, and the plan is computed again.
The plan's patterns run in RE2 or Rust's ``regex``, in time linear in the
text, whatever they are.
"""

from __future__ import annotations

import json
import weakref
from functools import cache
from pathlib import Path
from threading import Lock

from ..bnf.files import read_regular_file
from ..runtime.cache import cache_dir, write_whole
from ..runtime.sha import sha256
from ..runtime.tables import content_key
from ..urls import Grammar, shipped
from ..version import __version__
from .plan import FORMAT, ColumnPlan, read_plan

__all__ = ["MAX_PLAN_FILE", "column_plan", "compiler_digest", "plan_key"]

#: The most bytes a cached plan is read to (the shipped grammar's takes 28 kB).
MAX_PLAN_FILE = 4 << 20

_HEADER = b"# rfc1738 column plan (JSON), sha256="

_plans: weakref.WeakKeyDictionary[Grammar, ColumnPlan] = weakref.WeakKeyDictionary()
_lock = Lock()


def column_plan(grammar: Grammar | None = None) -> ColumnPlan:
    """The column plan of ``grammar`` (the shipped one by default), made once per grammar."""
    chosen = shipped() if grammar is None else grammar
    found = _plans.get(chosen)
    if found is not None:
        return found
    with _lock:
        found = _plans.get(chosen)
        if found is None:
            found = _plans[chosen] = _load(chosen)
    return found


@cache
def compiler_digest() -> str:
    """A SHA-256 of the source of the modules that write a plan and of the one that reads it.

    The compiler (``rfc1738/compile/*.py``) and :mod:`rfc1738.columns.plan`,
    as installed: two checkouts of one version whose compilers differ (a
    format number bumped on two branches alike) key their plans apart. ``""``
    where the source cannot be read (the package in a zip file).
    """
    package = Path(__file__).resolve().parents[1]
    found = sha256()
    try:
        for path in sorted([*(package / "compile").glob("*.py"), package / "columns" / "plan.py"]):
            found.update(f"{path.name}\0".encode())
            found.update(path.read_bytes())
    except OSError:
        return ""
    digest: str = found.hexdigest()
    return digest


def plan_key(grammar: Grammar) -> str:
    """The key of ``grammar``'s plan: format, version, grammar files, and what the classes read."""
    classes = []
    for scheme in sorted(grammar.files):
        cls = grammar.url_class(scheme)
        classes.append(
            [
                scheme,
                f"{cls.__module__}.{cls.__qualname__}",
                sorted(cls.PRODUCTIONS),
                repr(getattr(cls, "HOOK_EXPORTS", ())),
            ]
        )
    identity = [FORMAT, __version__, compiler_digest(), content_key(grammar.directory), classes]
    key: str = sha256(json.dumps(identity).encode()).hexdigest()
    return key


def _load(grammar: Grammar) -> ColumnPlan:
    key = plan_key(grammar)
    cached = _read(key)
    if cached is not None:
        return cached
    # Lark: the plan is written from the grammar's exported patterns.
    from ..compile.columns import plan_data

    data = plan_data(grammar)
    plan = read_plan(data)
    _write(key, data)
    return plan


def _path(key: str) -> Path | None:
    found = cache_dir()
    return None if found is None else found / f"{key}.columns"


def _read(key: str) -> ColumnPlan | None:
    path = _path(key)
    if path is None:
        return None
    try:
        data = read_regular_file(path, MAX_PLAN_FILE)
    except OSError:  # missing, unreadable, not a regular file, too big
        return None
    header, _, body = data.partition(b"\n")
    if header != _HEADER + sha256(body).hexdigest().encode():
        return None
    try:
        return read_plan(json.loads(body))
    except (ValueError, TypeError, RecursionError):
        return None


def _write(key: str, data: object) -> bool:
    """Keep ``data`` under ``key``; ``False`` when the cache is off or cannot be written."""
    path = _path(key)
    if path is None:
        return False
    body = json.dumps(data, sort_keys=True).encode()
    content = _HEADER + sha256(body).hexdigest().encode() + b"\n" + body
    return write_whole(path, content)
