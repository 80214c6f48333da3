"""Column expressions that validate and take apart URLs inside the JVM: no Python UDF.

Built from the grammar exported in the Java dialect (:func:`rfc1738.export`)
and plain Spark SQL functions:

- ``rlike`` with the exported ``any`` pattern is the grammar's verdict: the
  pattern itself dispatches on the scheme (without case, section 2.1), as
  :meth:`rfc1738.Grammar.scheme_file` does;
- one ``regexp_replace`` per row, with the same pattern carrying every
  scheme's groups, writes every field separated by a control character no
  valid URL holds, and ``split`` takes them apart: one match per row, where
  a ``regexp_extract`` per field and a ``when`` per scheme would run the
  pattern once per field and per scheme (and, for the eleven schemes, make
  an expression too big for Spark's code generation: "Code grows beyond 64
  KB"). A production that may be empty has a marker group around a part
  that is never empty (:func:`rfc1738.parse.regex.write`), so an empty
  field (``ftp://@host/``'s user) is ``""`` and an absent one null, as in
  the library;
- the host checks the patterns leave out (label, name, hostnumber part and
  port limits of :mod:`rfc1738.parse.hosts`) are SQL on the host, hostnumber
  and port fields, with ``when`` and ``forall``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache

from pyspark.sql import Column
from pyspark.sql import functions as F

from ..parse.dialects import export_grammar
from ..parse.hosts import MAX_HOST, MAX_LABEL, MAX_OCTET, MAX_PORT
from ..urls import load

__all__ = ["fields", "is_valid_url", "url_struct"]

#: Separates the fields ``regexp_replace`` writes: a control character, which
#: section 2.2 keeps out of every URL (and so out of every valid field).
SEPARATOR = "\x01"

ColumnOrName = Column | str
#: The generic production's scheme: in the struct as the text before the first ":".
SCHEME = "scheme"


@dataclass(frozen=True, slots=True)
class _Patterns:
    """The dispatching pattern, and where each field lands among the written groups."""

    #: The full-match pattern of any URL (for ``rlike``).
    pattern: str
    #: The same with every scheme's groups and their markers, and the
    #: replacement that writes each field then its marker.
    marked: str
    template: str
    #: Field → its index among the written parts (its marker follows it).
    index: dict[str, int]


@cache
def _patterns(grammar_dir: str | None) -> _Patterns:
    exported = export_grammar(load(grammar_dir), "java", mark_empty=True)
    found = exported.any_groups
    template: list[str] = []
    index: dict[str, int] = {}
    for production, numbers in found.fields().items():
        if production == SCHEME:
            continue  # the struct's scheme is the text before the first ":"
        groups = [g for g, p in found.groups.items() if p == production]
        index[production] = len(template)
        # At most one of a production's groups takes part (one per scheme that
        # has it, one per alternative); the others write "".
        template.append("".join(f"${n}" for n in numbers))
        template.append("".join(f"${found.markers[g]}" for g in groups if g in found.markers))
    return _Patterns(exported.any, found.pattern, SEPARATOR.join(template), index)


def _key(grammar_dir: str | os.PathLike[str] | None) -> str | None:
    return None if grammar_dir is None else os.fspath(grammar_dir)


def _column(col: ColumnOrName) -> Column:
    return F.col(col) if isinstance(col, str) else col


def fields(grammar_dir: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
    """The fields of :func:`url_struct` after ``scheme``: every production any scheme captures."""
    return tuple(_patterns(_key(grammar_dir)).index)


def _field_columns(url: Column, patterns: _Patterns) -> dict[str, Column]:
    """Each field's text as written; null where the field took no part or the scheme has none.

    One match per row: ``regexp_replace`` writes every group, ``split`` takes
    them apart.
    """
    parts = F.split(F.regexp_replace(url, patterns.marked, patterns.template), SEPARATOR, -1)
    columns: dict[str, Column] = {}
    for production, index in patterns.index.items():
        # get() is null past the end (a URL the pattern did not match has one part).
        value, marker = F.get(parts, index), F.get(parts, index + 1)
        columns[production] = F.when((value != F.lit("")) | (marker != F.lit("")), value)
    return columns


def _within(digits: Column, limit: int) -> Column:
    """Whether a run of digits writes a number of at most ``limit`` (any length)."""
    significant = F.regexp_replace(digits, "^0+", "")
    width = len(str(limit))
    return (F.length(significant) < width) | (
        (F.length(significant) == width) & (significant <= F.lit(str(limit)))
    )


def _host_checks(field: dict[str, Column]) -> Column:
    """The checks of :func:`rfc1738.parse.hosts.check_spans`, as SQL on the fields."""
    ok = F.lit(True)
    host, number, port = field.get("host"), field.get("hostnumber"), field.get("port")
    if host is not None:
        parts = F.split(host, r"\.", -1)
        octets = F.forall(parts, lambda part: _within(part, MAX_OCTET))
        labels = F.forall(parts, lambda part: F.length(part) <= MAX_LABEL)
        shape = labels if number is None else F.when(number.isNotNull(), octets).otherwise(labels)
        ok = ok & (host.isNull() | ((F.length(host) <= MAX_HOST) & shape))
    if port is not None:
        ok = ok & (port.isNull() | _within(port, MAX_PORT))
    return ok


def is_valid_url(
    col: ColumnOrName,
    *,
    host_checks: bool = True,
    grammar_dir: str | os.PathLike[str] | None = None,
) -> Column:
    """A boolean column: :func:`rfc1738.is_valid` of each string, computed in the JVM.

    ``host_checks=False`` gives the bare grammar's verdict (one ``rlike`` per
    row); a null string gives null.

    >>> df.select(is_valid_url("url"))  # doctest: +SKIP
    """
    url = _column(col)
    patterns = _patterns(_key(grammar_dir))
    valid = url.rlike(patterns.pattern)
    if not host_checks:
        return valid
    return valid & _host_checks(_field_columns(url, patterns))


def url_struct(
    col: ColumnOrName,
    *,
    host_checks: bool = True,
    grammar_dir: str | os.PathLike[str] | None = None,
) -> Column:
    """A struct column: ``scheme`` and every field as written, null where it does not apply.

    The fields are the productions the URL classes read (:func:`fields`):
    ``host``, ``port``, ``user``, ``hpath``, ``search``, ``fpath``, ... as
    written in the URL (not decoded). A field the URL's scheme does not have,
    or that the URL leaves out, is null; an empty one is ``""``. The struct
    is null for a string :func:`rfc1738.is_valid` rejects.
    """
    url = _column(col)
    patterns = _patterns(_key(grammar_dir))
    field = _field_columns(url, patterns)
    valid = url.rlike(patterns.pattern)
    if host_checks:
        valid = valid & _host_checks(field)
    scheme = F.substring_index(url, ":", 1)
    return F.when(valid, F.struct(scheme.alias("scheme"), *(c.alias(n) for n, c in field.items())))
