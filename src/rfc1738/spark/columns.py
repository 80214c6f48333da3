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
  that is never empty (:func:`rfc1738.compile.emit.write`), so an empty
  field (``ftp://@host/``'s user) is ``""`` and an absent one null, as in
  the library;
- the fields a URL class's hook reads beyond the grammar are cut out of the
  group the export gives for them (:mod:`rfc1738.runtime.hooks`) with
  ``split``, as the hook cuts them: gopher's selector, search and gopher+
  string out of the text after gtype, at the first and second ``%09``
  (section 3.4); prospero's fieldspecs, ``;name=value`` pairs, out of the
  text after ppath (section 3.11). nntp's article number has a group of its
  own (section 3.7);
- the host checks the patterns leave out (label, name, hostnumber part and
  port limits of :mod:`rfc1738.runtime.hosts`) are SQL on the host, hostnumber
  and port fields, with ``when`` and ``forall``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache

from pyspark.sql import Column
from pyspark.sql import functions as F

from ..compile.dialects import JAVA
from ..compile.export import export_grammar
from ..runtime.hooks import Derived
from ..runtime.hosts import MAX_HOST, MAX_LABEL, MAX_OCTET, MAX_PORT
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
    #: Production → its index among the written parts (its marker follows it).
    index: dict[str, int]
    #: The struct's fields after ``scheme``, in order.
    fields: tuple[str, ...]
    #: Field → the cuts that give it out of a group's text (one per scheme that cuts it).
    derived: dict[str, tuple[Derived, ...]]


@cache
def _patterns(grammar_dir: str | None) -> _Patterns:
    exported = export_grammar(load(grammar_dir), "java", mark_empty=True)
    found = exported.any_groups
    # Field → its cuts (one per scheme that cuts it); group → the fields cut from it.
    derived: dict[str, dict[Derived, None]] = {}
    cut_from: dict[str, dict[str, None]] = {}
    for scheme in exported.schemes.values():
        for name, cut in scheme.derived.items():
            derived.setdefault(name, {})[cut] = None
            cut_from.setdefault(cut.source, {})[name] = None
    template: list[str] = []
    index: dict[str, int] = {}
    fields: dict[str, None] = {}
    for production, numbers in found.fields().items():
        if production == SCHEME:
            continue  # the struct's scheme is the text before the first ":"
        groups = [g for g, p in found.groups.items() if p == production]
        index[production] = len(template)
        # At most one of a production's groups takes part (one per scheme that
        # has it, one per alternative); the others write "".
        template.append("".join(f"${n}" for n in numbers))
        template.append("".join(f"${found.markers[g]}" for g in groups if g in found.markers))
        # A group that fields are cut from stands in the struct as those fields.
        fields.update(cut_from.get(production, {production: None}))
    return _Patterns(
        exported.any,
        found.pattern,
        SEPARATOR.join(template),
        index,
        tuple(fields),
        {name: tuple(cuts) for name, cuts in derived.items()},
    )


def _key(grammar_dir: str | os.PathLike[str] | None) -> str | None:
    return None if grammar_dir is None else os.fspath(grammar_dir)


def _column(col: ColumnOrName) -> Column:
    return F.col(col) if isinstance(col, str) else col


def fields(grammar_dir: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
    """The fields of :func:`url_struct` after ``scheme``.

    Every production any scheme's pattern captures, and the fields cut out
    of a group's text (gopher's ``selector``, ``search``, ``gopher_plus``,
    prospero's ``fieldspecs``) in place of that group.
    """
    return _patterns(_key(grammar_dir)).fields


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


def _java_literal(text: str) -> str:
    """``text`` as a Java pattern that matches it literally (``split`` takes a pattern)."""
    return "".join(JAVA.literal_char(char) for char in text)


def _cut(text: Column, cut: Derived) -> Column:
    """What :meth:`Derived.apply` does, in SQL: a part of ``text``, or its (name, value) pairs.

    The cut is the hook's (:attr:`Derived.rule` says which rule of section 3
    it follows): gopher's selector, search and gopher+ string are the parts
    of the text after gtype split at ``%09`` into at most three, the last
    keeping the rest (section 3.4); prospero's fieldspecs are the parts of
    the text after ppath split at every ``;``, after the first (empty) one,
    each split at its first ``=`` (section 3.11). ``split`` gives ``[""]``
    for an empty text and ``get`` null past the end, as ``str.split`` and
    the hooks do; a null text (the group took no part) gives null.
    """
    separator = _java_literal(cut.separator)
    if not cut.pair:
        return F.get(F.split(text, separator, cut.parts or -1), cut.part)
    pair = _java_literal(cut.pair)

    def name_value(spec: Column) -> Column:
        halves = F.split(spec, pair, 2)
        return F.struct(F.get(halves, 0).alias("name"), F.get(halves, 1).alias("value"))

    specs = F.filter(F.split(text, separator, -1), lambda _spec, at: at > 0)
    return F.transform(specs, name_value)


def _struct_fields(production: dict[str, Column], patterns: _Patterns) -> dict[str, Column]:
    """The struct's fields: each production's text, or what is cut out of a group's."""
    columns: dict[str, Column] = {}
    for name in patterns.fields:
        found = [production[name]] if name in production else []
        # One group per scheme: at most one of them, and so of these, is not null.
        found.extend(_cut(production[cut.source], cut) for cut in patterns.derived.get(name, ()))
        columns[name] = found[0] if len(found) == 1 else F.coalesce(*found)
    return columns


def _within(digits: Column, limit: int) -> Column:
    """Whether a run of digits writes a number of at most ``limit`` (any length)."""
    significant = F.regexp_replace(digits, "^0+", "")
    width = len(str(limit))
    return (F.length(significant) < width) | (
        (F.length(significant) == width) & (significant <= F.lit(str(limit)))
    )


def _host_checks(field: dict[str, Column]) -> Column:
    """The checks of :func:`rfc1738.runtime.hosts.check_spans`, as SQL on the fields."""
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

    The fields (:func:`fields`) are the productions the URL classes read
    (``host``, ``port``, ``user``, ``hpath``, ``search``, ``fpath``, ...,
    nntp's ``article_number``) and the fields their hooks cut further
    (gopher's ``selector``, ``search``, ``gopher_plus``; prospero's
    ``fieldspecs``, an array of ``(name, value)`` structs), as written in
    the URL (not decoded). A field the URL's scheme does not have, or that
    the URL leaves out, is null; an empty one is ``""``. The struct is null
    for a string :func:`rfc1738.is_valid` rejects.
    """
    url = _column(col)
    patterns = _patterns(_key(grammar_dir))
    field = _field_columns(url, patterns)
    valid = url.rlike(patterns.pattern)
    if host_checks:
        valid = valid & _host_checks(field)
    scheme = F.substring_index(url, ":", 1)
    parts = _struct_fields(field, patterns)
    return F.when(valid, F.struct(scheme.alias("scheme"), *(c.alias(n) for n, c in parts.items())))
