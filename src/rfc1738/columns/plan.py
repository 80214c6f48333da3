"""The column plan: what a column engine runs to validate URLs and take them apart.

One plan per grammar, computed by :func:`rfc1738.compile.columns.plan_data`
from the exported patterns and read here, checked, into records. Every
backend (:mod:`rfc1738.duckdb`, :mod:`rfc1738.polars`, the bulk API of
:mod:`rfc1738.columns`) is written against these records and nothing else:

- :attr:`ColumnPlan.verdict`: the full-match pattern of any URL (the bare
  grammar's verdict, dispatching on the scheme itself);
- :attr:`ColumnPlan.screened`, :attr:`ColumnPlan.short_labels`,
  :attr:`ColumnPlan.short_host` and :attr:`ColumnPlan.label_run`: a URL
  the first accepts passes the host checks too, if it has at most
  :attr:`HostLimits.label` characters, or the second accepts it and it has
  at most :attr:`HostLimits.host` characters or the third accepts it (or,
  for an engine without those two, it has at most :attr:`HostLimits.host`
  characters and the fourth finds nothing in it); any other URL the
  verdict accepts has its ``host``, ``hostnumber`` and ``port`` taken out
  with its scheme's pattern and checked (:class:`HostLimits`);
- :attr:`ColumnPlan.schemes`: per grammar file, the pattern that takes a URL
  apart (:class:`SchemeColumns`, in RE2's dialect, Python's and Java's)
  and where each field is in it (:class:`FieldSource`);
- the dispatch (section 2.1): the text before the first ``:``, when there
  is one after at least one character and it is ASCII, compared without
  case with the names of :attr:`ColumnPlan.schemes`; any other URL is read
  by :attr:`ColumnPlan.generic`'s;
- :data:`STRUCT`'s contract: the struct every backend gives is ``scheme``
  (the text before the first ``:``, as written), then
  :attr:`ColumnPlan.fields` in order, each a string as written in the URL
  (not decoded), or for a ``"pairs"`` field a list of ``(name, value)``
  structs; null where the URL's scheme has no such field or the URL leaves
  it out, ``""`` where it is empty; the whole struct null for a URL that
  is not valid (with host checks, unless they are turned off).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, cast

from ..runtime.hooks import Derived

__all__ = [
    "FORMAT",
    "SCHEME",
    "ColumnPlan",
    "FieldSource",
    "HostLimits",
    "SchemeColumns",
    "StructField",
    "read_plan",
]

#: The version of the plan's data that :func:`read_plan` reads.
FORMAT = 6

#: The struct's first field: the scheme as written, the text before the first ``:``.
SCHEME = "scheme"

#: A field's kind: a string, or a list of (name, value) pairs (prospero's fieldspecs).
Kind = Literal["text", "pairs"]


@dataclass(frozen=True, slots=True)
class StructField:
    """One field of the struct after ``scheme``: its name and kind."""

    name: str
    kind: Kind


@dataclass(frozen=True, slots=True)
class FieldSource:
    """Where one field of the struct is, in one grammar file's pattern.

    The field is the text of whichever of :attr:`groups` took part (at most
    one does: one per alternative that holds the production), cut with
    :attr:`cut` where a class's hook reads it further. It took part where
    one of its groups did: in an engine that says so (a null group), that
    is all; in one that gives ``""`` for a group that took no part, where
    a group's text or a marker's is not empty, or always if
    :attr:`always`. :attr:`distinct` says whether that tells an empty field
    from an absent one.
    """

    #: The groups' names, in :attr:`SchemeColumns.pattern` and :attr:`SchemeColumns.python`.
    names: tuple[str, ...]
    #: Their numbers in :attr:`SchemeColumns.pattern`.
    groups: tuple[int, ...]
    #: Groups not empty exactly when one of :attr:`groups` took part (for those that may be empty).
    markers: tuple[int, ...]
    #: Whether the field takes part in every match of the pattern.
    always: bool
    #: Whether an engine that gives ``""`` for a group that took no part can tell it from empty.
    distinct: bool
    #: The cut of a field a class's hook reads out of a group's text, else ``None``.
    cut: Derived | None


@dataclass(frozen=True, slots=True)
class SchemeColumns:
    """One grammar file: the pattern that takes its URLs apart, and where each field is."""

    #: The grammar file's name (the scheme, in lower case, or ``generic``).
    name: str
    #: A full-match RE2 pattern whose group 1 is the whole match.
    pattern: str
    #: How many groups :attr:`pattern` has.
    groups: int
    #: The same production in Python's dialect, with the same group names (no group 1).
    python: str
    #: Field of the struct → where it is; the fields this scheme has.
    fields: Mapping[str, FieldSource]
    #: The file's full-match pattern in Java's dialect (``\\A...\\z``), for Spark.
    java: str
    #: :attr:`pattern` in Java's dialect: the same group numbers, markers as lookbehinds.
    java_pattern: str
    #: :attr:`java` with the screen of :attr:`ColumnPlan.screened` (bounded port and
    #: hostnumber runs, no groups) and lookaheads at the host's start for the name's
    #: and the labels' lengths: a URL it accepts is valid and passes every host check.
    #: ``None`` where the plan has no screen.
    java_screened: str | None
    #: :attr:`java_screened` without the lookaheads at the host's start: for a URL of at
    #: most :attr:`HostLimits.label` characters (no label or name in it can be too long),
    #: what it accepts is valid and passes every host check. ``None`` where the plan has
    #: no screen.
    java_screened_short: str | None


@dataclass(frozen=True, slots=True)
class HostLimits:
    """The host checks (:mod:`rfc1738.runtime.hosts`), as conditions on the fields.

    A ``host`` of at most :attr:`host` characters; where the URL has a
    ``hostnumber``, each of its parts (split at :attr:`separator`) a number
    of at most :attr:`octet`, else each label (the same split) at most
    :attr:`label` characters; a ``port`` a number of at most :attr:`port`.
    A number is its digits' value, however many leading zeros it has.

    The same as RE2 patterns: a ``host`` fails where :attr:`long_label` (a
    search) matches it and it has no ``hostnumber``, or where
    :attr:`large_part` does and it has one; a ``port`` where
    :attr:`large_port` (a full match) does. A URL in which
    :attr:`long_number` (a search) finds nothing has no number above
    either limit.
    """

    label: int
    host: int
    octet: int
    port: int
    separator: str
    long_label: str
    large_part: str
    large_port: str
    long_number: str
    #: Joins the fields :attr:`java_checks` reads (a control character no URL holds).
    checks_separator: str
    #: The checks as one Java pattern (Spark's): a full match of the ``host``'s text,
    #: what shows a ``hostnumber`` took part, and the ``port``'s text, joined by
    #: :attr:`checks_separator`, each ``""`` where the URL has none, where they pass.
    java_checks: str


@dataclass(frozen=True, slots=True)
class ColumnPlan:
    """A grammar's column plan (see the module's description)."""

    #: The full-match pattern of any URL: the bare grammar's verdict.
    verdict: str
    #: A full-match pattern whose URLs pass the port and octet checks; ``None``: none.
    screened: str | None
    #: A search pattern: a run longer than a label may be; ``None``: none.
    label_run: str | None
    #: Full-match patterns: :attr:`screened` where each host's labels are
    #: short enough, and where each host is; ``None``: none.
    short_labels: str | None
    short_host: str | None
    #: The host checks.
    limits: HostLimits
    #: The struct's fields after ``scheme``, in order.
    fields: tuple[StructField, ...]
    #: The grammar file that reads a URL of any scheme without a file of its own.
    generic: str
    #: Every grammar file, by name, :attr:`generic` last.
    schemes: Mapping[str, SchemeColumns]

    def field_names(self) -> tuple[str, ...]:
        """``scheme`` and every field of :attr:`fields`, in order: the struct's field names."""
        return (SCHEME, *(field.name for field in self.fields))


def read_plan(data: object) -> ColumnPlan:
    """The plan in ``data`` (:func:`rfc1738.compile.columns.plan_data`), checked.

    ``ValueError`` for data of another format or shape: a cached plan that
    does not hold together is never used.
    """
    top = _mapping(data, "plan")
    if top.get("format") != FORMAT:
        raise ValueError(f"a column plan of format {top.get('format')!r}, not {FORMAT}")
    limits = _mapping(top.get("limits"), "limits")
    fields = tuple(_struct_field(item) for item in _list(top.get("fields"), "fields"))
    names = {field.name for field in fields}
    generic = _str(top.get("generic"), "generic")
    schemes = {
        _str(name, "scheme name"): _scheme(_str(name, "scheme name"), found, names)
        for name, found in _mapping(top.get("schemes"), "schemes").items()
    }
    if generic not in schemes:
        raise ValueError(f"no pattern for the generic grammar file {generic!r}")
    schemes = {name: schemes[name] for name in schemes if name != generic} | {
        generic: schemes[generic]
    }
    return ColumnPlan(
        _str(top.get("verdict"), "verdict"),
        _optional_str(top.get("screened"), "screened"),
        _optional_str(top.get("label_run"), "label_run"),
        _optional_str(top.get("short_labels"), "short_labels"),
        _optional_str(top.get("short_host"), "short_host"),
        HostLimits(
            _int(limits.get("label"), "label"),
            _int(limits.get("host"), "host"),
            _int(limits.get("octet"), "octet"),
            _int(limits.get("port"), "port"),
            _str(limits.get("separator"), "separator"),
            _str(limits.get("long_label"), "long_label"),
            _str(limits.get("large_part"), "large_part"),
            _str(limits.get("large_port"), "large_port"),
            _str(limits.get("long_number"), "long_number"),
            _str(limits.get("checks_separator"), "checks_separator"),
            _str(limits.get("java_checks"), "java_checks"),
        ),
        fields,
        generic,
        schemes,
    )


def _struct_field(item: object) -> StructField:
    name, kind = _list(item, "field")
    if kind == "text" or kind == "pairs":
        return StructField(_str(name, "field name"), kind)
    raise ValueError(f"a field of kind {kind!r}")


def _scheme(name: str, data: object, names: set[str]) -> SchemeColumns:
    found = _mapping(data, f"scheme {name}")
    groups = _int(found.get("groups"), "groups")
    fields: dict[str, FieldSource] = {}
    for field, source in _mapping(found.get("fields"), "fields").items():
        if field not in names:
            raise ValueError(f"scheme {name} has a field {field!r} the struct has not")
        fields[field] = _source(source, groups)
    return SchemeColumns(
        name,
        _str(found.get("pattern"), "pattern"),
        groups,
        _str(found.get("python"), "python"),
        fields,
        _str(found.get("java"), "java"),
        _str(found.get("java_pattern"), "java_pattern"),
        _optional_str(found.get("java_screened"), "java_screened"),
        _optional_str(found.get("java_screened_short"), "java_screened_short"),
    )


def _source(data: object, groups: int) -> FieldSource:
    found = _mapping(data, "field source")
    numbers = tuple(_int(n, "group") for n in _list(found.get("groups"), "groups"))
    markers = tuple(_int(n, "marker") for n in _list(found.get("markers"), "markers"))
    if not numbers or any(not 1 < n <= groups for n in (*numbers, *markers)):
        raise ValueError("a group number out of the pattern's groups")
    names = tuple(_str(n, "group name") for n in _list(found.get("names"), "names"))
    if len(names) != len(numbers):
        raise ValueError("a group name per group")
    cut = found.get("cut")
    return FieldSource(
        names,
        numbers,
        markers,
        _bool(found.get("always"), "always"),
        _bool(found.get("distinct"), "distinct"),
        None if cut is None else _cut(cut),
    )


def _cut(data: object) -> Derived:
    found = _mapping(data, "cut")
    return Derived(
        _str(found.get("source"), "source"),
        _str(found.get("separator"), "separator"),
        _int(found.get("part"), "part"),
        _int(found.get("parts"), "parts"),
        _str(found.get("pair"), "pair", empty=True),
        _str(found.get("rule"), "rule", empty=True),
    )


def _mapping(value: object, what: str) -> Mapping[str, object]:
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        raise ValueError(f"{what}: not a mapping of names")
    return cast("Mapping[str, object]", value)


def _list(value: object, what: str) -> list[object]:
    if not isinstance(value, list | tuple):
        raise ValueError(f"{what}: not a list")
    return list(value)


def _str(value: object, what: str, *, empty: bool = False) -> str:
    if not isinstance(value, str) or not (value or empty):
        raise ValueError(f"{what}: not a string (or an empty one)")
    return value


def _optional_str(value: object, what: str) -> str | None:
    return None if value is None else _str(value, what)


def _int(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{what}: not a whole number")
    return value


def _bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{what}: not true or false")
    return value
