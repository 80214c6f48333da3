"""Many URLs in one call: verdicts, and if asked the struct and the errors, at an engine's speed.

:func:`check` takes a list of strings, a file (a path), a pyarrow array, a
pandas or Polars Series; :func:`check_batches` a file or any iterable of
lines, a batch at a time, in constant memory. Both run on DuckDB when it
and pyarrow are installed (:mod:`rfc1738.duckdb`'s macros, the column plan
of :mod:`rfc1738.columns.plan`), and on the library in Python otherwise
(:func:`rfc1738.is_valid` for each URL): the same results either way,
which ``engine="python"`` or ``engine="duckdb"`` chooses outright.

- A verdict is :func:`rfc1738.is_valid`'s (``host_checks=False``: the bare
  grammar's); ``None`` for a missing value (``None``, a null, a NaN).
- ``schemes=True``: the grammar file that read each URL (its scheme's in
  lower case, or ``generic``), as ``rfc1738 check`` counts them.
- ``struct=True``: each valid URL's struct (:mod:`rfc1738.columns.plan`:
  ``scheme`` as written, then every field as written, ``None`` where it
  does not apply, ``""`` where it is empty), ``None`` for the others.
- ``errors=True``: for each URL that is not valid, the library's
  :class:`~rfc1738.URLSyntaxError` (position, rule, reason), worked out
  only for those rows, in Python (:mod:`rfc1738.columns.errors`).

DuckDB stores text as UTF-8 without lone surrogates: a string that holds
one (a line of a file that is not UTF-8, read with ``surrogateescape``) is
judged by the library, which rejects it, as no URL holds such a character.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import IO

from ..urls import Grammar, shipped
from .checked import Checked, Engine
from .lines import BATCH_BYTES, line_batches
from .runners import default_engine, runner

__all__ = ["BATCH_BYTES", "check", "check_batches", "default_engine"]


def check(
    urls: object,
    *,
    host_checks: bool = True,
    schemes: bool = False,
    struct: bool = False,
    errors: bool = False,
    grammar: Grammar | None = None,
    engine: Engine | None = None,
) -> Checked:
    """The verdicts on ``urls``, in one call (see the module's description).

    ``urls``: a list (or tuple) of strings and ``None``, a file's path (a
    :class:`pathlib.Path` or other path-like object: its lines, as
    :func:`rfc1738.check_lines` reads them), a pyarrow array or chunked
    array of strings, a pandas or Polars Series. A ``str`` alone is a
    ``TypeError`` (one URL is a list of one). ``grammar``: an edited
    grammar (:func:`rfc1738.load`). ``engine``: ``None`` for
    :func:`default_engine`.

    >>> found = check(["http://example.com/", "http://user@host/", None], errors=True)
    >>> found.valid, found.errors[1].rule
    ([True, False, None], 'httpurl')
    """
    chosen = shipped() if grammar is None else grammar
    if isinstance(urls, os.PathLike):
        found = check_batches(
            urls,
            host_checks=host_checks,
            schemes=schemes,
            struct=struct,
            errors=errors,
            grammar=chosen,
            engine=engine,
        )
        return _joined(list(found), schemes, struct, errors, runner(engine, chosen).engine)
    judge = runner(engine, chosen)
    return judge.run(judge.rows(urls), 0, host_checks, schemes, struct, errors)


def _joined(
    batches: list[Checked], schemes: bool, struct: bool, errors: bool, engine: Engine
) -> Checked:
    """One :class:`Checked` of the batches of one file."""
    valid: list[bool | None] = [v for b in batches for v in b.valid]
    files = [f for b in batches for f in (b.schemes or ())] if schemes else None
    structs = [s for b in batches for s in (b.structs or ())] if struct else None
    found = (
        {b.start + i: e for b in batches for i, e in (b.errors or {}).items()} if errors else None
    )
    plan = batches[0]._plan if batches else None
    return Checked(engine, 0, valid, files, structs, found, plan=plan)


def check_batches(
    source: str | os.PathLike[str] | IO[bytes] | Iterable[str],
    *,
    host_checks: bool = True,
    schemes: bool = False,
    struct: bool = False,
    errors: bool = False,
    grammar: Grammar | None = None,
    engine: Engine | None = None,
    batch_bytes: int = BATCH_BYTES,
) -> Iterator[Checked]:
    """:func:`check` a batch at a time, in constant memory: one :class:`Checked` a batch.

    ``source``: a file's path (``str`` or path-like), a binary file, or any
    iterable of lines (``str``, with or without their line endings). A
    file's lines are read as :func:`rfc1738.check_lines` reads them (split
    at ``\\n``, a ``\\r`` before it dropped, UTF-8 with ``surrogateescape``),
    ``batch_bytes`` at a time; an iterable's :data:`BATCH_LINES` at a time.
    Each batch's ``start`` says how many lines came before it. On DuckDB one
    query judges every batch, as the batches are asked for: reading a
    source that fails raises its error where the batch would come.
    """
    chosen = shipped() if grammar is None else grammar
    judge = runner(engine, chosen)
    blocks = line_batches(source, batch_bytes, arrow=judge.engine == "duckdb")
    for _, found in judge.stream(blocks, 0, host_checks, schemes, struct, errors):
        yield found
