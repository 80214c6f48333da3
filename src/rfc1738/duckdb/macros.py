"""The column plan as DuckDB SQL: the text of the macros :func:`register` creates.

Everything here is written from the plan (:mod:`rfc1738.columns.plan`):
its patterns run in DuckDB's ``regexp_full_match``, ``regexp_matches`` and
``regexp_extract`` (RE2), its cuts as SQL on the extracted fields. What
DuckDB does shapes the SQL:

- ``AND`` and ``OR`` may evaluate both sides on every row, ``CASE`` only
  the branch a row takes: the verdict is a ``CASE`` in which most URLs take
  one match of the screened pattern and a length, and the few the screen
  leaves in doubt reach a Python function (the library's verdict);
- ``regexp_extract`` with a list of names gives a struct of the groups 1,
  2, ... in order (the names are the struct's, not the groups'), and ``""``
  both for a group that took no part and for an empty one, and for every
  group when the pattern does not match: a field is present where one of
  its groups or markers is not empty, or always (:class:`FieldSource`);
- DuckDB does not share an expression named twice in one row's
  expression: the struct is a ``CASE`` on the grammar file (each row runs
  its own file's pattern only), whose branch binds that pattern's groups
  once for all its fields (a lambda over a list of one). Each ``WHEN``
  tells its file by the scheme the URL starts with, one anchored match
  (``^[hH][tT][tT][pP]:``): finding the file in each (``_grammar_file``
  written out again) cost 1.30 s a 10^6 rows against 1.11 s, and binding
  it too (a ``CASE`` inside a lambda) doubled the struct's time.
"""

from __future__ import annotations

from ..columns.plan import SCHEME, ColumnPlan, FieldSource, SchemeColumns
from ..columns.sql import sql_name, sql_string
from ..errors import GrammarError
from ..runtime.hooks import Derived

__all__ = [
    "PAIR_TYPE",
    "dispatch_pattern",
    "macro_statements",
    "screen_statements",
    "sql_name",
    "sql_string",
]

#: The SQL type of a ``"pairs"`` field: prospero's fieldspecs.
PAIR_TYPE = "STRUCT(name VARCHAR, value VARCHAR)[]"


def dispatch_pattern() -> str:
    """The scheme as section 2.1 reads it: group 1, at least one ASCII character before a ``:``.

    A text without one, or with a character that is not ASCII before its
    first ``:``, gives ``""``: the generic grammar file reads it.
    """
    return r"^([^:\x{80}-\x{10ffff}]+):"


def screen_statements(plan: ColumnPlan, prefix: str) -> list[str]:
    """The ``CREATE TEMP MACRO`` statements of ``{prefix}_grammar_file`` and ``{prefix}_screen``.

    Neither calls Python: :func:`rfc1738.duckdb.register_screen`.
    """
    return [
        f"CREATE OR REPLACE TEMP MACRO {prefix}_grammar_file(url) AS {_grammar_file(plan)}",
        # 1 valid, 0 not, 2 valid by the grammar with the host checks to do:
        # for a caller that has the library judge those.
        f"CREATE OR REPLACE TEMP MACRO {prefix}_screen(url, host_checks := true) AS "
        f"{_screened(plan, '1::UTINYINT', '0::UTINYINT', '2::UTINYINT')}",
    ]


def macro_statements(plan: ColumnPlan, prefix: str, *, struct: bool = True) -> list[str]:
    """The ``CREATE TEMP MACRO`` statements of :func:`rfc1738.duckdb.register`, in order.

    ``struct=False``: without the two struct macros (the verdict's only).
    """
    verdicts = [
        *screen_statements(plan, prefix),
        f"CREATE OR REPLACE TEMP MACRO {prefix}_is_valid(url, host_checks := true) AS "
        f"{_is_valid(plan, prefix)}",
    ]
    if not struct:
        return verdicts
    return [
        *verdicts,
        f"CREATE OR REPLACE TEMP MACRO {prefix}_struct(url, host_checks := true) AS "
        f"{_struct(plan, prefix)}",
        # The struct of a URL known to be valid, whose grammar file is known:
        # for a query that has both as columns (the bulk API's runner).
        f"CREATE OR REPLACE TEMP MACRO {prefix}_struct_of_valid(url, file) AS "
        f"{_by_file(plan, 'file')}",
    ]


def _grammar_file(plan: ColumnPlan) -> str:
    """The grammar file that reads ``url``: its scheme's (compared without case), or generic.

    The scheme is found once (a ``CASE`` on it would find it once per name).
    """
    key = f"lower(regexp_extract(url, {sql_string(dispatch_pattern())}, 1))"
    names = [name for name in plan.schemes if name != plan.generic]
    listed = "[" + ", ".join(sql_string(name) for name in names) + "]"
    found = f"list_position({listed}, {key})"
    every = "[" + ", ".join(sql_string(name) for name in (*names, plan.generic)) + "]"
    return f"CASE WHEN url IS NULL THEN NULL ELSE {every}[coalesce({found}, {len(names) + 1})] END"


def _is_valid(plan: ColumnPlan, prefix: str) -> str:
    # The few URLs in doubt (a long label, a large port): the library's verdict,
    # a Python function (register). Taking them apart in SQL cost every row
    # more (0.34 s against 0.22 s a 10^6 rows on one thread): DuckDB set up
    # each file's pattern again for each batch of rows that held one.
    return _screened(plan, "true", "false", f"{prefix}_valid_of(url, true)")


def _screened(plan: ColumnPlan, yes: str, no: str, doubt: str) -> str:
    """``yes`` for a valid URL, ``no`` for one not valid, ``doubt`` where the host checks must look.

    ``doubt`` only for a URL valid by the grammar; with ``host_checks``
    false, never. Most URLs: one match of the screened pattern and a length.
    """
    verdict = f"regexp_full_match(url, {sql_string(plan.verdict)})"
    grammar = f"CASE WHEN {verdict} THEN {yes} ELSE {no} END"
    if plan.screened is None:
        checked = f"CASE WHEN {verdict} THEN {doubt} ELSE {no} END"
    else:
        limits = plan.limits
        if plan.short_labels is not None and plan.short_host is not None:
            # Where the screen took the URL: its host's labels, then its length.
            longer = (
                f"WHEN NOT regexp_full_match(url, {sql_string(plan.short_labels)}) THEN {doubt} "
                f"WHEN length(url) <= {limits.host} THEN {yes} "
                f"WHEN NOT regexp_full_match(url, {sql_string(plan.short_host)}) THEN {doubt} "
            )
        else:
            run = (
                "true"
                if plan.label_run is None
                else f"regexp_matches(url, {sql_string(plan.label_run)})"
            )
            longer = f"WHEN length(url) > {limits.host} THEN {doubt} WHEN {run} THEN {doubt} "
        checked = (
            f"CASE WHEN NOT regexp_full_match(url, {sql_string(plan.screened)}) "
            f"THEN CASE WHEN {verdict} THEN {doubt} ELSE {no} END "
            f"WHEN length(url) <= {limits.label} THEN {yes} "
            f"{longer}ELSE {yes} END"
        )
    return f"CASE WHEN url IS NULL THEN NULL WHEN NOT host_checks THEN {grammar} ELSE {checked} END"


def _extracted(scheme: SchemeColumns, url: str = "url") -> str:
    """``regexp_extract`` of the scheme's groups, up to the last its fields use, as ``g1``, ..."""
    used = max(
        (n for source in scheme.fields.values() for n in (*source.groups, *source.markers)),
        default=1,
    )
    names = ", ".join(f"'g{number}'" for number in range(1, used + 1))
    return f"regexp_extract({url}, {sql_string(scheme.pattern)}, [{names}])"


def _present(source: FieldSource, x: str = "x") -> str:
    """A text not empty exactly where the field took part (``''`` otherwise)."""
    return " || ".join(f"{x}.g{n}" for n in (*source.groups, *source.markers))


def _value(source: FieldSource, x: str = "x") -> str:
    """The field's text, ``NULL`` where it took no part (the cut not applied); no ``CASE``.

    ``text || substr(nullif(present, ''), 1, 0)``: the text, or null where
    nothing shows the field took part.
    """
    if not source.distinct:
        raise GrammarError(
            f"the groups {', '.join(source.names)} may be empty where no marker shows "
            "they took part: DuckDB, which gives '' for a group that took no part, "
            "cannot tell an empty field from an absent one"
        )
    text = " || ".join(f"{x}.g{n}" for n in source.groups)
    if source.always:
        return f"({text})"
    return f"({text} || substr(nullif({_present(source, x)}, ''), 1, 0))"


def _field(source: FieldSource, x: str = "x") -> str:
    """The struct's field: the text, or what the cut gives out of it."""
    value = _value(source, x)
    return value if source.cut is None else _cut(value, source.cut)


def _cut(value: str, cut: Derived) -> str:
    """:meth:`Derived.apply` in SQL on ``value``: a part, or the (name, value) pairs."""
    separator = sql_string(cut.separator)
    if cut.pair:
        pair = sql_string(cut.pair)
        return (
            f"list_transform([string_split({value}, {separator})], lambda s: "
            f"list_transform(list_slice(s, 2, len(s)), lambda e: struct_pack("
            f"name := split_part(e, {pair}, 1), "
            f"value := CASE WHEN strpos(e, {pair}) > 0 "
            f"THEN substring(e, strpos(e, {pair}) + {len(cut.pair)}) ELSE '' END)))[1]"
        )
    index = cut.part + 1
    if not cut.parts or cut.part < cut.parts - 1:
        return f"string_split({value}, {separator})[{index}]"
    # The last part keeps the rest, separators and all.
    return (
        f"list_transform([string_split({value}, {separator})], lambda s: "
        f"CASE WHEN len(s) >= {index} THEN array_to_string(list_slice(s, {index}, len(s)), "
        f"{separator}) END)[1]"
    )


def _struct(plan: ColumnPlan, prefix: str) -> str:
    """The struct of ``url``: ``NULL`` unless valid (with host checks unless they are off).

    Only a valid URL is taken apart (``rfc1738_is_valid``'s verdict, the
    screen costing less than checking the fields), and only by its own
    grammar file's pattern: one branch of a ``CASE`` a file, one pattern a
    row, whose groups are bound to ``x`` for every field.
    """
    ok = f"coalesce({prefix}_is_valid(url, host_checks), false)"
    named = [scheme for scheme in plan.schemes.values() if scheme.name != plan.generic]
    branches = " ".join(
        f"WHEN regexp_matches(url, {sql_string(_scheme_prefix(scheme.name))}) "
        f"THEN {_scheme_struct(plan, scheme)}"
        for scheme in named
    )
    generic = _scheme_struct(plan, plan.schemes[plan.generic])
    return f"CASE WHEN {ok} THEN CASE {branches} ELSE {generic} END END"


def _scheme_prefix(name: str) -> str:
    """The start of a URL whose scheme names the file ``name`` (section 2.1: without case).

    The same file as :func:`_grammar_file` finds, for every text: ``name``
    with each letter in either case, then the first ``:``. ``name`` is its
    start rule's name less ``url``, which Lark allows in ASCII without a
    capital or a ``:`` only (another name fails to load).
    """
    written = "".join(
        f"[{char}{char.upper()}]" if char.isalpha() else f"\\x{{{ord(char):x}}}" for char in name
    )
    return f"^{written}:"


def _by_file(plan: ColumnPlan, file: str) -> str:
    """The struct of a valid ``url`` whose grammar file ``file`` (an expression) names."""
    branches = " ".join(
        f"WHEN {file} = {sql_string(scheme.name)} THEN {_scheme_struct(plan, scheme)}"
        for scheme in plan.schemes.values()
    )
    return f"CASE {branches} END"


def _bound(value: str, name: str, body: str) -> str:
    """``body`` with ``name`` bound to ``value``, once a row (a lambda on a list of one)."""
    return f"list_transform([{value}], lambda {name}: {body})[1]"


def _scheme_struct(plan: ColumnPlan, scheme: SchemeColumns) -> str:
    """The whole struct of a valid URL of ``scheme``'s file: its fields, the others null.

    Every scheme's struct has the same fields and types, in order: the
    branches of one ``CASE``.
    """
    parts = [f"{sql_name(SCHEME)} := split_part(url, ':', 1)"]
    for field in plan.fields:
        kind = PAIR_TYPE if field.kind == "pairs" else "VARCHAR"
        source = scheme.fields.get(field.name)
        value = "NULL" if source is None else _field(source)
        parts.append(f"{sql_name(field.name)} := ({value})::{kind}")
    return _bound(_extracted(scheme), "x", f"struct_pack({', '.join(parts)})")
