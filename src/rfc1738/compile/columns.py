"""The grammar as columns: what an engine needs to validate and take apart URLs, as plain data.

A column engine (DuckDB, Polars, Spark) runs regular expressions and string
functions over a column, not Python. :func:`plan_data` works out, once per
grammar, what such an engine needs, from the patterns the compiler exports
(:func:`~rfc1738.compile.dialects.export_grammar`, the RE2 dialect, which
DuckDB runs and Rust's ``regex`` crate reads) and the limits of the host
checks (:mod:`rfc1738.runtime.hosts`). Nothing here restates the grammar:

- **the verdict**: the exported ``any`` pattern, a full match that
  dispatches on the scheme itself (section 2.1), the bare grammar's
  ``is_valid(text, host_checks=False)``;
- **a screen for the host checks**: ``screened``, the ``any`` pattern with
  every repetition inside a ``port`` or ``hostnumber`` group bounded to
  fewer digits than the limit has (a port of at most four digits is at most
  9999), so that a URL it accepts passes the port and octet checks without
  taking the fields out; ``label_run``, a run of more characters than a
  label may hold, out of those a ``host`` group holds but the ``.`` the
  checks split labels at. A URL of at most :data:`MAX_LABEL` characters, or
  of at most :data:`MAX_HOST` without such a run, passes the label and name
  checks. Only the rest (few: a long label, a large port, a hostnumber
  part of three digits) has its fields taken out and checked. The same
  screen in Java's dialect, per grammar file (``java_screened``): the
  file's Java pattern, bounded the same way (its runs stay possessive, so
  Java runs it without backtracking), and with lookaheads at the host's
  start for the name and label lengths, which Java runs in linear time
  (RE2 would count): a URL it takes passes every host check; and the
  same without the lookaheads (``java_screened_short``), for a URL of at
  most :data:`MAX_LABEL` characters, which holds no label or name too
  long (the lookaheads cost a Java match about as much as the rest);
- **per grammar file**, the pattern that takes a URL apart (the exported
  one with markers, ``mark_empty``, and a group around the whole match), and
  for each field of the struct the groups that may hold it, the markers
  that say it took part (for engines that give ``""`` for a group that
  took none), whether it takes part in every match, and the cut
  (:class:`~rfc1738.runtime.hooks.Derived`) for the fields a class's hook
  reads; the same pattern in Python's dialect, for the pure-Python runner;
  and in Java's (``java.util.regex``, which Spark runs: possessive runs, so
  linear; ``\\z``, not ``$``, which would take a final newline), the file's
  full-match pattern and the marked one with the same group numbers. The
  Java patterns have each class of ASCII characters listed a character at
  a time (``[0-9A-Za-z]`` as ``[0123…]``: :func:`_listed`), which
  ``java.util.regex`` makes one table lookup, where a class with ranges is
  a chain of tests, one a range (a fifth of Spark's ``url_struct`` time);
- **the dispatch**: the grammar files by name, and the one that serves any
  other scheme (``generic``);
- **the struct's fields**, in order, and their kinds (text, or
  ``(name, value)`` pairs): the contract every backend gives.

RE2 has no lookbehind; the writer marks a part that may itself be empty with
one (``(?<=([\\s\\S]))``), so here that marker becomes an empty group (the
same language, the same groups), and the field leans on taking part in
every match instead (wais' ``database``). A field whose emptiness no marker
can show is recorded as such (``distinct`` false): an engine that gives
``""`` for a group that took no part refuses it.

The data (:data:`FORMAT`) is read, and checked, by
:func:`rfc1738.columns.plan.read_plan`; it holds only dicts, lists,
strings, integers, booleans and ``None`` (JSON), so that it can be cached.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from ..bnf.files import GENERIC
from ..runtime.exported import Export, ExportedPattern
from ..runtime.hooks import Derived
from ..runtime.hosts import MAX_HOST, MAX_LABEL, MAX_OCTET, MAX_PORT
from ..runtime.numbers import DIGITS
from . import written
from .dialects import JAVA, RE2
from .emit import code_ranges
from .export import export_grammar

if TYPE_CHECKING:
    from ..urls.grammar import Grammar

__all__ = ["FORMAT", "LABEL_SEPARATOR", "plan_data", "struct_fields"]

#: The version of :func:`plan_data`'s shape (6: the Java patterns' classes listed).
FORMAT = 6

#: Where :func:`rfc1738.runtime.hosts.check_host` splits a host into labels and parts.
LABEL_SEPARATOR = "."

#: The struct's field of the scheme as written: the text before the first ``:``.
SCHEME = "scheme"

#: Joins the fields :func:`java_checks` reads: a control character, which no URL holds.
CHECKS_SEPARATOR = "\x01"

#: The host checks' productions, and the limit on the value of each number in them.
NUMBERS = {"port": MAX_PORT, "hostnumber": MAX_OCTET}


class _NoScreen(Exception):
    """The grammar's hosts or ports have a shape the screen cannot bound: no screen."""


def plan_data(grammar: Grammar) -> dict[str, object]:
    """The column plan of ``grammar`` (a :class:`rfc1738.Grammar`), as plain data."""
    marked = export_grammar(grammar, RE2, mark_empty=True)
    plain = export_grammar(grammar, RE2)
    python = export_grammar(grammar, "python")
    java = export_grammar(grammar, JAVA)
    java_marked = export_grammar(grammar, JAVA, mark_empty=True)
    try:
        screened, label_run, short_hosts = _screen(plain.any_groups)
        java_screened: dict[str, str | None] = {
            scheme: _screen(found, java=True)[0] for scheme, found in java.schemes.items()
        }
        java_short: dict[str, str | None] = {
            scheme: _screen(found, java=True, names=False)[0]
            for scheme, found in java.schemes.items()
        }
    except _NoScreen:
        screened, label_run, short_hosts = None, None, None
        java_screened = dict.fromkeys(java.schemes)
        java_short = dict.fromkeys(java.schemes)
    return {
        "format": FORMAT,
        "verdict": plain.any,
        "screened": screened,
        "label_run": label_run,
        "short_labels": None if short_hosts is None else short_hosts[0],
        "short_host": None if short_hosts is None else short_hosts[1],
        "limits": {
            "label": MAX_LABEL,
            "host": MAX_HOST,
            "octet": MAX_OCTET,
            "port": MAX_PORT,
            "separator": LABEL_SEPARATOR,
            **limit_patterns(),
            "checks_separator": CHECKS_SEPARATOR,
            "java_checks": java_checks(),
        },
        "fields": [[name, kind] for name, kind in struct_fields(marked).items()],
        "generic": GENERIC,
        "schemes": {
            scheme: {
                **_scheme(found, python.schemes[scheme]),
                **_java(found, java.schemes[scheme], java_marked.schemes[scheme]),
                "java_screened": java_screened[scheme],
                "java_screened_short": java_short[scheme],
            }
            for scheme, found in marked.schemes.items()
        },
    }


def limit_patterns() -> dict[str, str]:
    """The host checks as RE2 patterns on the fields, written from the limits.

    ``long_label``: a part of a host (between separators) longer than a
    label may be; ``large_part``: a part of a hostnumber above an octet;
    ``large_port``: a port above the largest (a full match);
    ``long_number``: a run of as many digits as the smaller of those two
    limits has (a search; RE2 and Java read it alike), which a URL without
    a number above either holds nowhere. A number is its digits' value,
    leading zeros and all (:func:`rfc1738.runtime.numbers.exceeds`).
    """
    separator = _class_text(frozenset(LABEL_SEPARATOR))
    return {
        "long_label": f"[^{separator}]{{{MAX_LABEL + 1}}}",
        "large_part": f"(?:^|[{separator}]){_above(MAX_OCTET)}(?:[{separator}]|$)",
        "large_port": f"^{_above(MAX_PORT)}$",
        "long_number": f"{_digits_from(DIGITS[0])}{{{len(str(min(MAX_OCTET, MAX_PORT)))}}}",
    }


def java_checks() -> str:
    """The host checks as one Java pattern, on the checked fields written side by side.

    The text is the ``host``'s, what shows the ``hostnumber`` took part (not
    empty exactly when it did) and the ``port``'s, each ``""`` where the URL
    has none, joined by :data:`CHECKS_SEPARATOR`. A full match: the checks
    pass (a host of at most :data:`MAX_HOST` characters, its parts octets
    where there is a hostnumber, else labels of at most :data:`MAX_LABEL`;
    a port of at most :data:`MAX_PORT`). An empty field passes them all, so
    an absent one may be written as an empty one.
    """
    field = f"[^{_class_text(frozenset(CHECKS_SEPARATOR))}]"
    split = _class_text(frozenset(LABEL_SEPARATOR))
    label = f"[^{split}{_class_text(frozenset(CHECKS_SEPARATOR))}]"
    between = f"[{_class_text(frozenset(CHECKS_SEPARATOR))}]"
    part = f"(?:{field}*[{split}])?"
    broken = (
        f"{field}{{{MAX_HOST + 1}}}",
        # a long label, where the hostnumber did not take part
        f"{part}{label}{{{MAX_LABEL + 1}}}{field}*{between}{between}",
        # a part above an octet, where it did
        f"(?={field}*{between}{field}){part}{_above(MAX_OCTET)}(?:[{split}]|{between})",
        f"{field}*{between}{field}*{between}{_above(MAX_PORT)}\\z",
    )
    return f"\\A(?!{'|'.join(broken)}){field}*{between}{field}*{between}{field}*\\z"


def _above(limit: int) -> str:
    """A pattern of the runs of digits that write a number above ``limit`` (leading zeros too)."""
    written = str(limit)
    width = len(written)
    options = [f"{_digits_from(DIGITS[1])}{_digits_from(DIGITS[0])}{{{width},}}"]
    for at, digit in enumerate(written):
        if digit != DIGITS[-1]:
            rest = width - at - 1
            tail = f"{_digits_from(DIGITS[0])}{{{rest}}}" if rest else ""
            options.append(f"{written[:at]}{_digits_from(DIGITS[DIGITS.index(digit) + 1])}{tail}")
    return f"{DIGITS[0]}*(?:{'|'.join(options)})"


def _digits_from(lowest: str) -> str:
    """A class of the decimal digits from ``lowest`` on."""
    return f"[{_class_text(frozenset(DIGITS[DIGITS.index(lowest) :]))}]"


def struct_fields(export: Export) -> dict[str, str]:
    """The struct's fields after ``scheme``, in order: field → ``"text"`` or ``"pairs"``.

    Every production any scheme's pattern captures, in the order the
    dispatching pattern opens their groups, and in place of a group that
    fields are cut out of (gopher's ``after_gtype``), those fields: what
    :func:`rfc1738.spark.fields` gives.
    """
    cut_from: dict[str, dict[str, None]] = {}
    kinds: dict[str, str] = {}
    for scheme in export.schemes.values():
        for name, cut in scheme.derived.items():
            cut_from.setdefault(cut.source, {})[name] = None
            kinds[name] = "pairs" if cut.pair else "text"
    fields: dict[str, str] = {}
    for production in export.any_groups.fields():
        if production == SCHEME:
            continue  # the struct's scheme is the text before the first ":"
        for name in cut_from.get(production, {production: None}):
            fields[name] = kinds.get(name, "text")
    return fields


def _scheme(marked: ExportedPattern, python: ExportedPattern) -> dict[str, object]:
    """One grammar file's pattern for taking URLs apart, and where each field is in it."""
    tree = written.read(marked.pattern)
    hidden: set[int] = set()

    def without_lookbehind(node: written.Node) -> written.Node | None:
        if isinstance(node, written.Look):
            markers = written.capture_numbers(node.item)
            if len(markers) != 1:
                raise ValueError("a lookbehind that is not one marker")
            (number,) = markers
            hidden.add(number)
            return written.Group(written.Seq(()), number)
        return None

    tree = written.transform(tree, without_lookbehind)
    groups = written.capture_numbers(tree)
    # Group 1 is the whole match: an engine that gives "" for no match learns the verdict.
    shift = 1
    by_production: dict[str, list[str]] = {}
    for name, production in marked.groups.items():
        by_production.setdefault(production, []).append(name)
    sources: dict[str, dict[str, object]] = {}
    for production, names in by_production.items():
        if production == SCHEME:
            continue
        sources[production] = _source(tree, groups, marked, names, hidden, shift)
    fields: dict[str, dict[str, object]] = {}
    cuts = {cut.source for cut in marked.derived.values()}
    for production, source in sources.items():
        if production not in cuts:
            fields[production] = source
    for name, cut in marked.derived.items():
        fields[name] = {**sources[cut.source], "cut": _cut_data(cut)}
    if python.groups != marked.groups:
        raise ValueError("the Python and RE2 patterns name their groups differently")
    return {
        "pattern": f"({written.write(tree)})",
        "groups": len(groups) + shift,
        "python": python.pattern,
        "fields": fields,
    }


def _java(
    marked: ExportedPattern, java: ExportedPattern, java_marked: ExportedPattern
) -> dict[str, object]:
    """One grammar file's Java patterns: its verdict, and the marked one numbered as the RE2 one.

    The marked pattern gets a group around the whole match, as the RE2 one
    does; its markers stay lookbehinds (Java runs them), each the group it is in RE2.
    """

    def numbered(found: ExportedPattern) -> tuple[list[tuple[str, int]], ...]:
        # By production: Java's group names have no "_" (compile.dialects).
        return tuple(
            sorted((found.groups[name], number) for name, number in numbers.items())
            for numbers in (found.numbers, found.markers)
        )

    if numbered(java_marked) != numbered(marked):
        raise ValueError("the Java and RE2 patterns number their groups differently")
    return {
        "java": _listed_java(java.pattern),
        "java_pattern": f"({_listed_java(java_marked.pattern)})",
    }


def _listed_java(pattern: str) -> str:
    """The exported Java ``pattern`` with its ASCII classes listed (:func:`_listed`)."""
    return written.write(_listed(written.read(pattern, java=True)))


def _listed(tree: written.Node) -> written.Node:
    """``tree`` with each class of ASCII characters written a character at a time.

    The same language and groups: ``java.util.regex`` makes such a class one
    table lookup, where it makes a class with ranges a chain of tests.
    """

    def listed(node: written.Node) -> written.Node | None:
        if not isinstance(node, written.Atom) or node.anchor or not node.text.startswith("["):
            return None
        if node.chars is None or not all(char.isascii() for char in node.chars):
            return None
        return replace(node, text=_java_class(node.chars))

    return written.transform(tree, listed)


def _java_class(chars: frozenset[str]) -> str:
    """A Java class of ``chars``: a character at a time where all are ASCII, else by ranges."""
    if not all(char.isascii() for char in chars):
        return f"[{_class_text(chars)}]"
    return "[" + "".join(c if c.isalnum() else f"\\x{ord(c):02x}" for c in sorted(chars)) + "]"


def _source(
    tree: written.Node,
    groups: Mapping[int, written.Group],
    marked: ExportedPattern,
    names: list[str],
    hidden: set[int],
    shift: int,
) -> dict[str, object]:
    """Where one production is: its groups, their visible markers, whether always there."""
    numbers = [marked.numbers[name] for name in names]
    markers = [
        marked.markers[name]
        for name in names
        if name in marked.markers and marked.markers[name] not in hidden
    ]
    always = written.covers(tree, frozenset(numbers))
    # Told apart from absent, with "" for a group that took no part: each group
    # is never empty when it takes part, or has a marker, or the field is always there.
    distinct = always or all(
        not written.nullable(groups[number].item)
        or (name in marked.markers and marked.markers[name] not in hidden)
        for name, number in zip(names, numbers, strict=True)
    )
    return {
        "names": names,
        "groups": [number + shift for number in numbers],
        "markers": [number + shift for number in markers],
        "always": always,
        "distinct": distinct,
        "cut": None,
    }


def _cut_data(cut: Derived) -> dict[str, object]:
    return {
        "source": cut.source,
        "separator": cut.separator,
        "part": cut.part,
        "parts": cut.parts,
        "pair": cut.pair,
        "rule": cut.rule,
    }


def _screen(
    found: ExportedPattern, *, java: bool = False, names: bool = True
) -> tuple[str, str | None, tuple[str, str] | None]:
    """The screened pattern, the label run and the short hosts (see the module's description).

    ``found`` is the dispatching RE2 pattern, or (``java``) one grammar
    file's Java pattern: the same rewriting, in that file's one option,
    with the lookaheads at the host's start unless ``names`` is false (the
    screen of a URL too short to hold a label or name longer than the checks allow).
    """
    tree = written.read(found.pattern, java=java)
    host_chars: set[str] = set()

    def bounded(node: written.Node) -> written.Node | None:
        if not (isinstance(node, written.Group) and node.name is not None):
            return None
        production = found.groups.get(node.name)
        if production == "host":
            inside = written.chars(node.item)
            if inside is None:
                raise _NoScreen
            host_chars.update(inside)
            if java and names:
                return replace(node, item=written.Seq((_java_name_limits(inside), node.item)))
        if production not in NUMBERS:
            return None
        width = len(str(NUMBERS[production])) - 1
        return replace(node, item=_bounded_digits(node.item, width, production))

    checked = {
        number
        for number, group in written.capture_numbers(tree).items()
        if group.name is not None and found.groups.get(group.name) in NUMBERS
    }

    def first_choices(node: written.Node) -> written.Node | None:
        # Bounding a number makes an option with it fail where a later option
        # may still match, which the exported pattern, taking the first option
        # that matches, would not have chosen (a generic URL's ip-schemepart
        # with a port of six digits is also a run of xchars): the options after
        # the first that holds a number are left out. The schemes' options
        # exclude each other (each begins with its own scheme): all are kept.
        if not isinstance(node, written.Alt):
            return None
        for at, option in enumerate(node.options):
            if set(written.capture_numbers(option)) & checked:
                kept = node.options[: at + 1]
                return kept[0] if len(kept) == 1 else written.Alt(kept)
        return None

    tree = written.transform(tree, first_choices) if java else _each_scheme(tree, first_choices)
    tree = written.transform(tree, bounded)
    label = frozenset(host_chars) - {LABEL_SEPARATOR}
    run = f"[{_class_text(label)}]{{{MAX_LABEL + 1}}}" if label else None
    short = None if java else _short_hosts(tree, found, host_chars, label)
    uncaptured = _uncaptured(tree)
    return written.write(_listed(uncaptured) if java else uncaptured), run, short


def _uncaptured(tree: written.Node) -> written.Node:
    """``tree`` with every group a plain one: a verdict needs no groups."""
    return written.transform(
        tree, lambda node: written.Group(node.item) if isinstance(node, written.Group) else None
    )


def _short_hosts(
    tree: written.Node, found: ExportedPattern, host: set[str], label: frozenset[str]
) -> tuple[str, str] | None:
    """The screened pattern (``tree``) with each host's labels, then its length, bounded.

    In the first, each ``host`` group holds, in its place, runs of at most
    :data:`MAX_LABEL` label characters between separators; in the second,
    at most :data:`MAX_HOST` of the host's characters. A host ends where
    the next character is none of its own (a ``:``, a ``/``, the end), so on
    a URL the screen accepts the host is the same text in all three: the
    first matches it exactly where its host (if any) passes the label
    check, the second where it passes the name's.
    """
    if not label:
        return None

    def is_host(node: written.Node) -> bool:
        return isinstance(node, written.Group) and found.groups.get(node.name or "") == "host"

    for around in written.neighbours(tree, is_host):
        # A host character next to a host: the host's text is not fixed by
        # where its characters end, and the bounds could read another one.
        if any(side is None or side & host for side in around):
            return None
    chars, labels = _class_text(frozenset(host)), _class_text(label)
    split = _class_text(frozenset(LABEL_SEPARATOR))
    bounds = (
        f"[{labels}]{{0,{MAX_LABEL}}}(?:[{split}][{labels}]{{0,{MAX_LABEL}}})*",
        f"[{chars}]{{0,{MAX_HOST}}}",
    )
    found_hosts = 0

    def bounded(text: str) -> str:
        def host_bounded(node: written.Node) -> written.Node | None:
            nonlocal found_hosts
            if not is_host(node):
                return None
            found_hosts += 1
            return written.Group(written.Atom(text, frozenset(host)))

        return written.write(_uncaptured(written.transform(tree, host_bounded)))

    labels_bounded, length_bounded = (bounded(text) for text in bounds)
    return (labels_bounded, length_bounded) if found_hosts else None


def _java_name_limits(host: frozenset[str]) -> written.Atom:
    """Lookaheads at a host's start, in Java: no name longer than a host, no label than a label.

    Read over the run of the host's characters there, which may go on past
    the host: a longer run only makes the screen refuse a URL it could
    take (the checks then look). The labels are read possessively, each at
    most :data:`MAX_LABEL` long up to its separator, so the look is linear.
    """
    chars = _java_class(host)
    label = _java_class(host - {LABEL_SEPARATOR})
    split = _java_class(frozenset(LABEL_SEPARATOR))
    text = (
        f"(?!{chars}{{{MAX_HOST + 1}}})"
        f"(?!(?:{label}{{0,{MAX_LABEL}}}+{split})*+{label}{{{MAX_LABEL + 1}}})"
    )
    return written.Atom(text, frozenset(), anchor=True)


def _each_scheme(
    tree: written.Node, change: Callable[[written.Node], written.Node | None]
) -> written.Node:
    """``tree`` (the dispatching pattern) with ``change`` made in each scheme's option.

    The schemes' alternation is the first one down from the top; it is kept whole.
    """
    if isinstance(tree, written.Alt):
        return written.Alt(tuple(written.transform(o, change) for o in tree.options))
    if isinstance(tree, written.Group):
        return written.Group(_each_scheme(tree.item, change), tree.number, tree.name)
    if isinstance(tree, written.Seq):
        inner = [item for item in tree.items if not isinstance(item, written.Atom)]
        if len(inner) == 1:
            return written.Seq(
                tuple(
                    _each_scheme(item, change) if item is inner[0] else item for item in tree.items
                )
            )
    raise _NoScreen


def _bounded_digits(node: written.Node, width: int, production: str) -> written.Node:
    """``node`` (a port or hostnumber) with each run of digits at most ``width`` long.

    A port must then be at most ``width`` digits; a hostnumber parts of at
    most ``width`` digits between the separators. Anything else: no screen.
    """

    def bound(item: written.Node) -> written.Node | None:
        if isinstance(item, written.Rep) and written.max_length(item.item) == 1:
            if item.low > width:
                raise _NoScreen
            high = width if item.high is None else min(item.high, width)
            # A possessive run stays possessive: what follows it is no digit.
            text = f"{{{item.low},{high}}}" + ("+" if item.possessive else "")
            return written.Rep(item.item, item.low, high, text)
        return None

    result = written.transform(node, bound)
    inside = written.chars(result)
    if inside is None or not inside <= frozenset(DIGITS) | {LABEL_SEPARATOR}:
        raise _NoScreen
    parts = result.items if isinstance(result, written.Seq) else (result,)
    for part in parts:
        if isinstance(part, written.Atom) and part.chars == frozenset(LABEL_SEPARATOR):
            if production != "hostnumber":
                raise _NoScreen
            continue
        longest = written.max_length(part)
        part_chars = written.chars(part)
        if (
            longest is None
            or longest > width
            or part_chars is None
            or LABEL_SEPARATOR in part_chars
        ):
            raise _NoScreen
    return result


def _class_text(chars: frozenset[str]) -> str:
    """``chars`` as the inside of a class RE2 and Rust's ``regex`` read alike: ranges, escapes."""

    def one(code: int) -> str:
        char = chr(code)
        return char if char.isascii() and char.isalnum() else f"\\x{{{code:x}}}"

    return "".join(
        one(low) if low == high else f"{one(low)}-{one(high)}" for low, high in code_ranges(chars)
    )
