"""Column expressions that validate and take apart URLs inside the JVM: no Python UDF.

Written from the grammar's column plan (:mod:`rfc1738.columns.plan`), the
one DuckDB and Polars run, in its Java dialect (each grammar file's
``java`` and ``java_pattern``: ``java.util.regex``, possessive runs, ``\\z``
at the end, so a final newline is not taken) and plain Spark SQL
functions. What Spark does shapes the SQL:

- **the classes listed**: the plan's Java patterns have each class of
  ASCII characters written one character at a time (the compiler writes
  them so: :mod:`rfc1738.compile.columns`), which ``java.util.regex``
  makes one table lookup (a class with ranges is a chain of tests);

- **the dispatch** (section 2.1) first: the text before the first ``:``,
  in lower case, picks the grammar file, and only that file's pattern runs
  (one ``rlike`` a row for the bare verdict);
- **one match takes a URL apart**: ``regexp_replace`` with the file's
  marked pattern writes the file's code (as many bytes as its place in
  the plan: a count, not a name to compare), then every field of the struct,
  each with what shows it took part (its markers' text, or ``!`` where it
  always does), separated by a control character no valid URL holds, and
  ``split`` takes them apart. Fields that no grammar file has together
  share a place (``hpath``, ``fpath``, ``ppath``, ...), and a field whose
  presence no file writes has only its text. A URL the pattern does not
  match comes back as it was, one part (or holding the separator, which
  no valid URL does): that is the verdict. A field is present
  where its text or its presence is not empty
  (:class:`~rfc1738.columns.plan.FieldSource`), and its file is one that
  has it (for a shared place): Java, like DuckDB, writes ``""`` for a
  group that took no part;
- **the host checks**: :func:`is_valid_url` runs the file's screened
  pattern (the plan's ``java_screened``: the grammar with every port and
  hostnumber digit run bounded, and lookaheads at the host's start for
  the name's and the labels' lengths, so that what it takes passes every
  check; ``java_screened_short``, without the lookaheads, for a URL too
  short to hold a label or name too long): a URL it takes is valid. Only
  the rest (a few in a hundred: a port of five digits, a hostnumber part
  of three, a long label, an invalid URL) is written again, host,
  hostnumber and port side by side, and matched with the plan's
  ``java_checks``, the checks as one pattern. :func:`url_struct` checks
  the fields it takes out, with the plan's
  :class:`~rfc1738.columns.plan.HostLimits` patterns, where a field is
  long enough to fail them;
- **the cuts** of :class:`~rfc1738.runtime.hooks.Derived` (gopher's
  selector, search and gopher+ string; prospero's fieldspecs) are
  ``split`` or ``regexp_extract_all`` on their group's text, in the files
  that cut it;
- **named once**: the written parts are the variable of a ``transform``
  over a one-element array (:func:`_bound`), so every field, presence
  test and check names one node, and the parts are computed once a row.
  Written out in each place they made the struct 18,554 nodes (1,056
  bound), which Spark's optimizer took most of a second to plan, for
  every query, however few its rows;
- **compiled by the JVM**: prospero's pairs are zipped with ``zip_with``,
  which Spark runs without generated code, so the projection that holds
  the struct runs row by row, in code Spark splits into methods small
  enough for the JVM to compile; as whole-stage code, the struct's one
  method was too large, and ran in the bytecode interpreter.

Measured against the pandas UDF (:func:`rfc1738.spark.url_verdict`) in
``docs/spark.md``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql.utils import is_remote

from ..columns.plan import SCHEME, ColumnPlan, FieldSource
from ..columns.store import column_plan
from ..compile.dialects import JAVA
from ..errors import GrammarError
from ..runtime.hooks import Derived
from ..urls import Grammar, load

__all__ = ["fields", "grammar_file", "is_valid_url", "url_struct"]

#: Separates the fields ``regexp_replace`` writes: a control character, which
#: section 2.2 keeps out of every URL (and so out of every valid field).
SEPARATOR = "\x01"
#: What the template writes for a field that takes part in every match of its file.
ALWAYS = "!"

#: The fields the host checks read.
CHECKED = ("host", "hostnumber", "port")

ColumnOrName = Column | str


@dataclass(frozen=True, slots=True)
class _Slot:
    """One place ``regexp_replace`` writes a field: its text's part, and its presence's."""

    #: The index of the field's text among the written parts (0 is the file's code).
    text: int
    #: The index of what shows it took part (a marker's text, or ``!``); ``None``: no file
    #: writes one, the field is there where its text is not empty.
    shown: int | None
    #: The grammar files that write this field here; ``None``: no other field shares the place.
    files: tuple[str, ...] | None
    #: The grammar files that write another field here (``()`` where none does).
    others: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where ``regexp_replace`` writes: the file's name, then the fields' places.

    Fields that no grammar file has together share a place (hpath, fpath,
    ppath, ...): fewer parts to write and split, a smaller method for the JVM.
    """

    #: Field → where it is written.
    index: Mapping[str, _Slot]
    #: How many parts a matched URL is written as.
    parts: int
    #: Grammar file → its marked Java pattern and the template that writes the fields.
    templates: Mapping[str, tuple[str, str]]
    #: Grammar file → how many bytes its template writes first, in place of its name:
    #: the struct tells the files apart by that count, a number, not by comparing names.
    codes: Mapping[str, int]


@cache
def _grammar(grammar_dir: str | None) -> Grammar:
    return load(grammar_dir)


def _dir(grammar_dir: str | os.PathLike[str] | None) -> str | None:
    return None if grammar_dir is None else os.fspath(grammar_dir)


def _plan(grammar_dir: str | os.PathLike[str] | None) -> ColumnPlan:
    return column_plan(_grammar(_dir(grammar_dir)))


def _column(col: ColumnOrName) -> Column:
    return F.col(col) if isinstance(col, str) else col


def fields(grammar_dir: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
    """The fields of :func:`url_struct` after ``scheme``: the plan's, in order.

    Every production any scheme's pattern captures, and the fields cut out
    of a group's text (gopher's ``selector``, ``search``, ``gopher_plus``,
    prospero's ``fieldspecs``) in place of that group.
    """
    return tuple(field.name for field in _plan(grammar_dir).fields)


def _key(url: Column) -> Column:
    """The text before the first ``:`` in lower case: which file's pattern to run.

    Section 2.1 reads a scheme only where a ``:`` follows at least one ASCII
    character; any other text goes to the generic file. For a verdict or a
    struct the difference never shows: every file's pattern begins with its
    scheme's ASCII letters and a ``:``, so a text sent to a scheme's file
    that section 2.1 sends to the generic one fails both (its scheme is not
    ASCII or it has no ``:``). :func:`grammar_file` checks them.
    """
    return F.lower(F.substring_index(url, ":", 1))


def _by_file(plan: ColumnPlan, key: Column, value: Mapping[str, Column]) -> Column:
    """``value`` of the grammar file named ``key`` (the generic one's for any other)."""
    chosen: Column | None = None
    for name, found in value.items():
        if name == plan.generic:
            continue
        test = key == F.lit(name)
        chosen = F.when(test, found) if chosen is None else chosen.when(test, found)
    generic = value[plan.generic]
    return generic if chosen is None else chosen.otherwise(generic)


def grammar_file(col: ColumnOrName, *, grammar_dir: str | os.PathLike[str] | None = None) -> Column:
    """The grammar file that reads each URL: its scheme's (lower case), or ``generic``.

    The scheme is the text before the first ``:``, where there is one after
    at least one character, compared without case where it is ASCII (as
    many bytes as characters). Null for null.
    """
    url = _column(col)
    plan = _plan(grammar_dir)
    before = F.substring_index(url, ":", 1)
    read = (F.instr(url, ":") > 1) & (F.length(before) == F.octet_length(before))
    files = _by_file(plan, F.when(read, _key(url)), {name: F.lit(name) for name in plan.schemes})
    return F.when(url.isNotNull(), files)


def _template(source: FieldSource) -> tuple[str, str]:
    """The field's text and its presence, as ``regexp_replace`` writes them."""
    if not source.distinct:
        raise GrammarError(
            f"the groups {', '.join(source.names)} may be empty where no marker shows "
            "they took part: Java's regexp_replace, which writes '' for a group that "
            "took no part, cannot tell an empty field from an absent one"
        )
    # "$n" then "$" or the separator: Java reads no digit after the group's number.
    text = "".join(f"${number}" for number in source.groups)
    shown = "".join(f"${number}" for number in source.markers)
    return text, ALWAYS if source.always else shown


@cache
def _layout(grammar_dir: str | None, wanted: tuple[str, ...]) -> _Layout:
    """The templates that write the ``wanted`` fields, for every grammar file.

    Each field takes the first place no other field of a file that has it
    took (the files' fields, a few each, share the struct's many).
    """
    plan = _plan(grammar_dir)
    having = {
        name: tuple(f for f, scheme in plan.schemes.items() if name in scheme.fields)
        for name in wanted
    }
    written = {
        name: {f: _template(plan.schemes[f].fields[name]) for f in files}
        for name, files in having.items()
    }
    place: dict[str, int] = {}
    # Per file, what it writes at each place taken: fields written alike (the
    # cuts of one group) share one.
    taken: dict[str, dict[int, tuple[str, str]]] = {f: {} for f in plan.schemes}
    for name in wanted:
        at = 0
        while any(taken[f].get(at, written[name][f]) != written[name][f] for f in having[name]):
            at += 1
        place[name] = at
        for f in having[name]:
            taken[f][at] = written[name][f]
    places = max(place.values(), default=-1) + 1
    # A place's presence part only where some file writes one there.
    shown_at = {
        at: any(
            shown for name in wanted if place[name] == at for _, shown in written[name].values()
        )
        for at in range(places)
    }
    index: dict[int, int] = {}
    count = 1
    for at in range(places):
        index[at] = count
        count += 2 if shown_at[at] else 1
    shared = {at: sum(1 for name in wanted if place[name] == at) > 1 for at in range(places)}
    slots = {
        name: _Slot(
            index[place[name]],
            index[place[name]] + 1 if shown_at[place[name]] else None,
            having[name] if shared[place[name]] else None,
            tuple(
                f
                for f in plan.schemes
                if f not in having[name]
                and any(place[other] == place[name] and f in having[other] for other in wanted)
            ),
        )
        for name in wanted
    }
    templates: dict[str, tuple[str, str]] = {}
    codes = {file: at + 1 for at, file in enumerate(plan.schemes)}
    for file, scheme in plan.schemes.items():
        # First the file's code, as that many bytes (a literal of Java's replacement text).
        parts = [ALWAYS * codes[file]]
        for at in range(places):
            text, shown = taken[file].get(at, ("", ""))
            parts.extend((text, shown) if shown_at[at] else (text,))
        templates[file] = (scheme.java_pattern, SEPARATOR.join(parts))
    return _Layout(slots, count, templates, codes)


def _written(plan: ColumnPlan, url: Column, key: Column, layout: _Layout) -> Column:
    """``url``'s fields as its file's template writes them; ``url`` where it does not match."""
    return _by_file(
        plan,
        key,
        {
            name: F.regexp_replace(url, F.lit(pattern), F.lit(template))
            for name, (pattern, template) in layout.templates.items()
        },
    )


def _parts(written: Column) -> Column:
    """The parts ``regexp_replace`` wrote (one, the URL, where the pattern did not match)."""
    return F.split(written, SEPARATOR, -1)


def _file(parts: Column) -> Column:
    """The code of the grammar file that wrote ``parts`` (:attr:`_Layout.codes`)."""
    return F.octet_length(F.get(parts, 0))


def _values(parts: Column, layout: _Layout) -> dict[str, Column]:
    """Each field's text in the written ``parts``: null where it took no part or is not there."""
    columns: dict[str, Column] = {}
    file = _file(parts)
    for name, slot in layout.index.items():
        text = F.get(parts, slot.text)
        # Not empty: a count of bytes, which a string holds (no comparison to call).
        there = F.octet_length(text) > 0
        if slot.shown is not None:
            there = there | (F.octet_length(F.get(parts, slot.shown)) > 0)
        if slot.files is not None:
            # Something written, by this field's file: the shorter test (the files
            # with no field here write "" there); after the text's, mostly false.
            if len(slot.others) < len(slot.files):
                there = there & ~file.isin([layout.codes[f] for f in slot.others])
            else:
                there = there & file.isin([layout.codes[f] for f in slot.files])
        columns[name] = F.when(there, text)
    return columns


def _host_checks(plan: ColumnPlan, value: Mapping[str, Column]) -> Column:
    """The checks of :func:`rfc1738.runtime.hosts.check_spans`: the plan's limits on the fields."""
    limits = plan.limits
    ok = F.lit(True)
    host, number, port = (value.get(name) for name in CHECKED)
    # The limits count characters; a field of a URL its pattern took is ASCII
    # (section 2.2; test_spark holds the patterns to it): as many as its bytes,
    # a count the string holds, where its characters would be counted.
    if host is not None:
        # No label of a host longer than a label may be (most) is too long: no match.
        size = F.octet_length(host)
        labels = (size <= limits.label) | ~host.rlike(limits.long_label)
        octets = ~host.rlike(limits.large_part)
        shape = labels if number is None else F.when(number.isNotNull(), octets).otherwise(labels)
        ok = ok & (host.isNull() | ((size <= limits.host) & shape))
    if port is not None:
        # A port of fewer digits than the largest has is below it: no match.
        short = F.octet_length(port) < len(str(limits.port))
        ok = ok & (port.isNull() | short | ~port.rlike(limits.large_port))
    return ok


def is_valid_url(
    col: ColumnOrName,
    *,
    host_checks: bool = True,
    grammar_dir: str | os.PathLike[str] | None = None,
) -> Column:
    """A boolean column: :func:`rfc1738.is_valid` of each string, computed in the JVM.

    ``host_checks=False`` gives the bare grammar's verdict: one ``rlike``
    a row, with its file's pattern. With host checks, one ``rlike`` a row
    too for most URLs, with the file's screened pattern (the plan's
    ``java_screened``: no port of five digits, no hostnumber part of three,
    no label or name too long; ``java_screened_short``, without the look at
    the lengths, for a URL of at most a label's length in bytes, which
    cannot hold one too long); the URLs it leaves in doubt have their host,
    hostnumber and port written side by side (one ``regexp_replace``) and
    checked by one match of the plan's ``java_checks``. A null string gives null.

    >>> df.select(is_valid_url("url"))  # doctest: +SKIP
    """
    url = _column(col)
    plan = _plan(grammar_dir)
    key = _key(url)
    bare = _by_file(plan, key, {name: url.rlike(s.java) for name, s in plan.schemes.items()})
    if not host_checks:
        return bare
    # A URL the grammar takes: its checked fields written side by side, checked by one match.
    checked = _by_file(
        plan,
        key,
        {
            name: F.regexp_replace(url, F.lit(pattern), F.lit(template))
            for name, (pattern, template) in _checked_templates(_dir(grammar_dir)).items()
        },
    )
    deep = checked.rlike(plan.limits.java_checks)
    screens = {name: scheme.java_screened for name, scheme in plan.schemes.items()}
    shorts = {name: scheme.java_screened_short for name, scheme in plan.schemes.items()}
    if not (all(screens.values()) and all(shorts.values())):
        return bare & F.when(_sure(plan, url), True).otherwise(deep)
    screened = _by_file(plan, key, {name: url.rlike(p) for name, p in screens.items() if p})
    short = _by_file(plan, key, {name: url.rlike(p) for name, p in shorts.items() if p})
    # A URL of at most a label's length (in bytes: at least as many as its
    # characters, and known without reading it) holds no label or name too
    # long: the screen without its lookaheads, which cost about as much as the rest.
    sure = F.when(F.octet_length(url) <= plan.limits.label, short).otherwise(screened)
    # The bare verdict before the checks: an invalid URL (most of those the
    # screen refuses) fails that one match and is not written again.
    return F.when(sure, True).otherwise(bare & deep)


@cache
def _checked_templates(grammar_dir: str | None) -> dict[str, tuple[str, str]]:
    """Per grammar file, its marked Java pattern and the template of what ``java_checks`` reads.

    The host's text, what shows the hostnumber took part (``!`` where it
    always does, else its markers' and its groups' text: not empty exactly
    when it did), the port's text; ``""`` for a field the file has not.
    """
    plan = _plan(grammar_dir)
    templates: dict[str, tuple[str, str]] = {}
    for name, scheme in plan.schemes.items():
        parts = []
        for field in CHECKED:
            source = scheme.fields.get(field)
            if source is None:
                parts.append("")
            elif field == "hostnumber":
                shown = (*source.markers, *source.groups)
                parts.append(ALWAYS if source.always else "".join(f"${n}" for n in shown))
            else:
                parts.append("".join(f"${number}" for number in source.groups))
        templates[name] = (scheme.java_pattern, plan.limits.checks_separator.join(parts))
    return templates


def _labels_fit(plan: ColumnPlan, url: Column) -> Column:
    """Whether no label or host name of a URL can be longer than the checks allow.

    The URL is no longer than a label may be, or no longer than a host and
    without the plan's ``label_run``.
    """
    limits = plan.limits
    short = F.length(url) <= limits.label
    if plan.label_run is not None:
        short = short | ((F.length(url) <= limits.host) & ~url.rlike(plan.label_run))
    return short


def _sure(plan: ColumnPlan, url: Column) -> Column:
    """Whether a URL valid by the grammar passes the host checks without a look at its fields.

    As the plan's screen has it: no label longer than a label may be
    (the URL is no longer, or no longer than a host and without the
    plan's ``label_run``); and no number above its limit, so no run of as
    many digits as the smaller limit has (the plan's ``long_number``).
    """
    return _labels_fit(plan, url) & ~url.rlike(plan.limits.long_number)


@cache
def _java_literal(text: str) -> str:
    """``text`` as a Java pattern that matches it literally (``split`` takes a pattern)."""
    return "".join(JAVA.literal_char(char) for char in text)


def _class_literal(char: str) -> str:
    """``char`` as a member of a Java character class."""
    return f"\\x{{{ord(char):x}}}"


def _cut(text: Column, cut: Derived) -> Column:
    """What :meth:`Derived.apply` does, in SQL: a part of ``text``, or its (name, value) pairs.

    ``split`` with a limit keeps the rest in the last part, as ``str.split``
    does; ``split`` gives ``[""]`` for an empty text and ``get`` null past
    the end, as the hooks do; a null text (no such field) gives null.
    """
    separator = _java_literal(cut.separator)
    if not cut.pair:
        return F.get(F.split(text, separator, cut.parts or -1), cut.part)
    pair = _java_literal(cut.pair)
    if len(cut.separator) == 1 and len(cut.pair) == 1:
        # One character each: the pairs as two lists of matches, zipped. Spark
        # runs zip_with without generated code, and so the projection that holds
        # it row by row, its code split into methods the JVM compiles (see url_struct).
        inside = _class_literal(cut.separator)
        spec = f"{separator}([^{inside}{_class_literal(cut.pair)}]*)(?:{pair}([^{inside}]*))?"
        pairs = F.zip_with(
            F.regexp_extract_all(text, F.lit(spec), 1),
            F.regexp_extract_all(text, F.lit(spec), 2),
            lambda name, value: F.struct(name.alias("name"), value.alias("value")),
        )
        return pairs.cast("array<struct<name: string, value: string>>")

    def name_value(spec: Column) -> Column:
        halves = F.split(spec, pair, 2)
        return F.struct(
            F.get(halves, 0).alias("name"), F.coalesce(F.get(halves, 1), F.lit("")).alias("value")
        )

    specs = F.filter(F.split(text, separator, -1), lambda _spec, at: at > 0)
    return F.transform(specs, name_value)


def _struct_fields(
    plan: ColumnPlan, layout: _Layout, file: Column, value: Mapping[str, Column]
) -> dict[str, Column]:
    """The struct's fields: each field's text, or what its file's cut gives out of it.

    A field is null in the files without it already (nothing written for
    it); a ``when`` on the file only where one cuts it.
    """
    columns: dict[str, Column] = {}
    for field in plan.fields:
        text = value[field.name]
        cuts: dict[Derived, list[str]] = {}
        uncut = False
        for name, scheme in plan.schemes.items():
            source = scheme.fields.get(field.name)
            if source is not None and source.cut is not None:
                cuts.setdefault(source.cut, []).append(name)
            uncut = uncut or (source is not None and source.cut is None)
        column: Column | None = None
        for cut, files in cuts.items():
            test = file.isin([layout.codes[f] for f in files])
            found = _cut(text, cut)
            column = F.when(test, found) if column is None else column.when(test, found)
        if column is not None and uncut:
            column = column.otherwise(text)
        columns[field.name] = text if column is None else column
    return columns


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

    Given by name, the column is built once per name (and grammar, and
    ``host_checks``), so that Spark compiles its code once: see
    :func:`_named_struct`.
    """
    if isinstance(col, str):
        return _named_struct(col, host_checks, _dir(grammar_dir), is_remote())
    return _struct(col, host_checks, grammar_dir)


@cache
def _named_struct(name: str, host_checks: bool, grammar_dir: str | None, remote: bool) -> Column:
    """:func:`url_struct` of the column ``name``, built once (``remote``: for Spark Connect).

    The struct's lambda variables (:func:`_bound`) get new names each time
    it is built, and Spark generates, and the JVM compiles, new code for
    new names: built for each query, the struct took 1.50 s to 2.55 s on
    300,000 rows (one core), against 1.22 s built once, the JVM compiling
    the new code while the rows ran in its interpreter.
    """
    return _struct(name, host_checks, grammar_dir)


def _struct(
    col: ColumnOrName, host_checks: bool, grammar_dir: str | os.PathLike[str] | None
) -> Column:
    """:func:`url_struct`, built anew."""
    url = _column(col)
    plan = _plan(grammar_dir)
    layout = _layout(_dir(grammar_dir), tuple(field.name for field in plan.fields))

    def struct_of(parts: Column) -> Column:
        value = _values(parts, layout)
        # A URL its file's pattern matches is written again, in as many parts
        # as the layout has; one it does not match comes back as it was: one
        # part, unless it holds the separator, which no valid URL does.
        valid = (F.size(parts) == layout.parts) & ~url.contains(SEPARATOR)
        if host_checks:
            valid = valid & _host_checks(plan, value)
        found = _struct_fields(plan, layout, _file(parts), value)
        scheme = F.substring_index(url, ":", 1)
        fields = F.struct(scheme.alias(SCHEME), *(c.alias(n) for n, c in found.items()))
        return F.when(valid, fields)

    return _bound(_parts(_written(plan, url, _key(url), layout)), struct_of)


def _bound(value: Column, body: Callable[[Column], Column]) -> Column:
    """``body(value)``, with ``value`` a lambda's variable: computed once, named in one place.

    The struct names the written parts in every field, its presence test
    and its checks. Written out in each place, the struct was 18,554 nodes
    (its analyzed tree), which Spark's optimizer took most of a second to
    plan for every query, however few its rows; common subexpression
    elimination then computed them once a row, but only after that. As
    the variable of ``transform`` over a one-element array, they are one
    node where they are named (1,056 nodes in all), and computed once a
    row by construction.
    """
    return F.get(F.transform(F.array(value), body), 0)
