"""One engine per scheme: what ``parse`` and ``is_valid`` run, built from the scheme's table.

An :class:`Engine` holds, for one grammar file, the few functions the hot path
calls: ``parse(text, host_checks)`` gives the object (or ``None`` when the
text does not match), ``valid(text)`` the verdict with the host checks and
``matches(text)`` the verdict without them. :func:`build_engine` makes them
from the scheme's compiled table (:class:`~rfc1738.runtime.tables.SchemeTable`),
by one of three routes:

- **the expression**, where the compiler wrote one that runs in linear time:
  closures with its ``fullmatch``, the class's builder and the group numbers
  bound in, so that a call costs one match and little else. The object keeps
  the ``re.Match`` itself and reads its fields from it when first asked (no
  span is read, no register tuple is made, at parse time); the host checks of
  :mod:`.hosts` look first at the lengths of the ``host`` and ``port`` groups:
  a name of at most :data:`~.hosts.MAX_LABEL` characters, a ``hostnumber``
  whose parts :func:`~.hosts.octets_pass` screens, and a port of fewer digits
  than :data:`~.hosts.MAX_PORT` has, pass whatever they hold, so only the
  rare URL runs the full checks;
- **the linear matcher** (:mod:`.linear`), where the expression may backtrack;
- **Earley** (the reference parser), where the grammar refers back to itself
  and has no expression.

The last two, and a scheme read into the generic class from another
production (a new scheme's file without a class of its own), build their
objects from spans.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any

from .._records import Record
from ..bnf.files import SchemeFile
from ..errors import URLSyntaxError
from .hosts import CHECKED_PRODUCTIONS, MAX_LABEL, MAX_PORT, check_spans, octets_pass
from .linear import LinearMatcher
from .possessive import compile_expression
from .spans import Groups, Spans, spans_from_regs, spans_from_tree
from .tables import SchemeTable

if TYPE_CHECKING:
    # Lark: the reference parser is made on first use of a scheme it serves.
    from .reference import ReferenceParser
    from .unavailable import Unavailable

__all__ = ["Engine", "as_generic", "build_engine"]

#: ``build(text, match, host_checks)``: an object from a match (``ObjectBuilder.builder``).
Build = Callable[[str, re.Match[str], bool], Any]

#: A reader of spans: those of a text, or ``None`` where it does not match.
Read = Callable[[str], Spans | None]

#: A port of fewer digits than :data:`MAX_PORT` has cannot exceed it (leading zeros included).
_SHORT_PORT = len(str(MAX_PORT)) - 1


class Engine(Record):
    """One scheme's parser, verdict and match, as the hot path calls them."""

    _fields = (
        "entry",
        "cls",
        "table",
        "pattern",
        "fields",
        "checked",
        "matcher",
        "parse",
        "valid",
        "matches",
        "spans",
        "checked_spans",
        "fullmatch",
        "valid_match",
    )
    __slots__ = _fields
    #: The grammar file and start rule.
    entry: SchemeFile
    #: The class its URLs become.
    cls: Any
    #: The compiled table it was built from.
    table: SchemeTable
    #: The compiled expression, where its match builds the object (else ``None``).
    pattern: re.Pattern[str] | None
    #: Per production of the class, the numbers of the groups of :attr:`pattern` that may
    #: hold it (what the class's ``builder`` reads a match with).
    fields: Groups
    #: The same for the productions the host checks read (``host``, ``hostnumber``, ``port``).
    checked: Groups
    #: The linear matcher, where it serves the scheme (else ``None``).
    matcher: LinearMatcher | None
    #: ``parse(text, host_checks)``: the object, or ``None`` if ``text`` does not
    #: match; raises :class:`~rfc1738.URLSyntaxError` for a failed host check.
    parse: Callable[[str, bool], Any]
    #: ``valid(text)``: whether ``parse(text, True)`` gives an object.
    valid: Callable[[str], bool]
    #: ``matches(text)``: whether ``parse(text, False)`` gives an object.
    matches: Callable[[str], bool]
    #: The spans of the class's productions as the route reads them, or ``None``.
    spans: Read
    #: The spans of the productions the host checks read, or ``None``.
    checked_spans: Read
    #: The compiled expression's ``fullmatch`` where its match builds the
    #: object; ``None`` where the object is built from spans.
    fullmatch: Callable[[str], re.Match[str] | None] | None
    #: ``valid_match(text)``: the match of a text ``valid`` accepts, else ``None``;
    #: ``None`` where :attr:`fullmatch` is (:func:`rfc1738.runtime.bulk.match_lines`).
    valid_match: Callable[[str], re.Match[str] | None] | None

    def __init__(
        self,
        entry: SchemeFile,
        cls: Any,
        table: SchemeTable,
        pattern: re.Pattern[str] | None,
        fields: Groups,
        checked: Groups,
        matcher: LinearMatcher | None,
        parse: Callable[[str, bool], Any],
        valid: Callable[[str], bool],
        matches: Callable[[str], bool],
        spans: Read,
        checked_spans: Read,
        fullmatch: Callable[[str], re.Match[str] | None] | None,
        valid_match: Callable[[str], re.Match[str] | None] | None,
    ) -> None:
        self._fill(
            entry,
            cls,
            table,
            pattern,
            fields,
            checked,
            matcher,
            parse,
            valid,
            matches,
            spans,
            checked_spans,
            fullmatch,
            valid_match,
        )


def build_engine(
    entry: SchemeFile,
    cls: Any,
    table: SchemeTable,
    *,
    foreign: bool,
    grammar: Any,
    reference: Callable[[str], ReferenceParser | Unavailable],
) -> Engine:
    """The engine of ``entry``'s scheme, whose URLs become ``cls``, from its ``table``.

    ``foreign``: ``cls`` is the generic class fed by another production than
    ``genericurl`` (its spans are completed for it); ``grammar`` is what the
    objects keep as theirs; ``reference(scheme)`` gives the scheme's Earley
    parser, for a grammar that is not regular.
    """
    productions = cls.PRODUCTIONS
    if table.expression is None:
        # A grammar that refers back to itself has no regular expression;
        # the reference parser serves that scheme, within its bound.
        earley = _by_earley(entry, reference, productions | CHECKED_PRODUCTIONS)
        parse = _completed_for_generic(earley) if foreign else earley
        return _by_spans(entry, cls, table, grammar, earley, earley, parse)
    if table.matcher is not None:
        # An expression that may backtrack: the linear matcher serves the scheme.
        matcher = LinearMatcher.from_data(table.matcher)
        read = _completed_for_generic(matcher.spans) if foreign else matcher.spans
        return _by_spans(
            entry, cls, table, grammar, matcher.spans, matcher.spans, read, matcher.matches, matcher
        )
    # In the form this Python matches right (CPython 3.11.0-3.11.4: see .possessive).
    pattern = compile_expression(table.expression, table.expression_forms)
    fields = _numbers(pattern, table.groups, productions)
    checked = _numbers(pattern, table.groups, CHECKED_PRODUCTIONS)
    fullmatch = pattern.fullmatch
    spans, checked_spans = _reader(fullmatch, fields), _reader(fullmatch, checked)
    if foreign:
        # A new scheme's file without a class of its own: its spans are
        # completed for the generic class, off the hot path.
        read = _completed_for_generic(spans)
        return _by_spans(entry, cls, table, grammar, spans, checked_spans, read)
    build = cls.builder(fields, grammar)
    return _by_expression(entry, cls, table, pattern, fields, checked, build, spans, checked_spans)


def _numbers(
    pattern: re.Pattern[str], groups: Mapping[str, tuple[str, ...]], names: Collection[str]
) -> Groups:
    # Per production, the numbers of the groups that may hold it: a
    # production reached along several alternatives has one group each.
    index = pattern.groupindex
    return tuple(
        (name, tuple(index[group] for group in groups[name])) for name in names if name in groups
    )


def _reader(fullmatch: Callable[[str], re.Match[str] | None], groups: Groups) -> Read:
    def spans(text: str) -> Spans | None:
        match = fullmatch(text)
        return None if match is None else spans_from_regs(match.regs, groups)

    return spans


def _by_expression(
    entry: SchemeFile,
    cls: Any,
    table: SchemeTable,
    pattern: re.Pattern[str],
    fields: Groups,
    checked: Groups,
    build: Build,
    spans: Read,
    checked_spans: Read,
) -> Engine:
    """The engine of a scheme whose compiled expression's match builds the object.

    ``checked`` holds the group numbers of ``host``, ``hostnumber`` and ``port``.
    """
    fullmatch = pattern.fullmatch
    parts = (entry, cls, table, pattern, fields, checked, None)

    def matches(text: str) -> bool:
        return fullmatch(text) is not None

    numbers = dict(checked)
    hosts, hostnumbers, ports = (numbers.get(name, ()) for name in ("host", "hostnumber", "port"))
    if not (hosts or hostnumbers or ports):  # no host, no port: the match is the whole verdict
        parse_any = _unchecked(fullmatch, build)
        return Engine(
            *parts, parse_any, matches, matches, spans, checked_spans, fullmatch, fullmatch
        )

    def check(text: str, match: re.Match[str]) -> None:
        check_spans(text, spans_from_regs(match.regs, checked))

    passes = _screen(hosts, hostnumbers, ports)

    def valid_match(text: str) -> re.Match[str] | None:
        match = fullmatch(text)
        if match is None or passes(match):
            return match
        try:
            check(text, match)
        except URLSyntaxError:
            return None
        return match

    def parse(text: str, host_checks: bool) -> Any:
        match = fullmatch(text)
        if match is None:
            return None
        if host_checks and not passes(match):
            check(text, match)
        return build(text, match, host_checks)

    def valid(text: str) -> bool:
        match = fullmatch(text)
        if match is None:
            return False
        if passes(match):
            return True
        try:
            check(text, match)
        except URLSyntaxError:
            return False
        return True

    if len(hosts) == 1 and len(hostnumbers) == 1 and len(ports) == 1:
        # One group each, as in every RFC 1738 scheme with a port: the screen
        # written out, as this is the hot path of most URLs.
        (host,), (hostnumber,), (port,) = hosts, hostnumbers, ports

        def parse_hostport(text: str, host_checks: bool) -> Any:
            match = fullmatch(text)
            if match is None:
                return None
            if host_checks:
                start, end = match.span(host)
                if end - start > MAX_LABEL or (
                    match.start(hostnumber) >= 0 and not octets_pass(match.group(hostnumber))
                ):
                    check(text, match)
                else:
                    start, end = match.span(port)
                    if end - start > _SHORT_PORT:
                        check(text, match)
            return build(text, match, host_checks)

        def valid_hostport(text: str) -> bool:
            match = fullmatch(text)
            if match is None:
                return False
            start, end = match.span(host)
            if end - start <= MAX_LABEL and (
                match.start(hostnumber) < 0 or octets_pass(match.group(hostnumber))
            ):
                start, end = match.span(port)
                if end - start <= _SHORT_PORT:
                    return True
            try:
                check(text, match)
            except URLSyntaxError:
                return False
            return True

        def valid_match_hostport(text: str) -> re.Match[str] | None:
            match = fullmatch(text)
            if match is None:
                return None
            start, end = match.span(host)
            if end - start <= MAX_LABEL and (
                match.start(hostnumber) < 0 or octets_pass(match.group(hostnumber))
            ):
                start, end = match.span(port)
                if end - start <= _SHORT_PORT:
                    return match
            try:
                check(text, match)
            except URLSyntaxError:
                return None
            return match

        parse, valid, valid_match = parse_hostport, valid_hostport, valid_match_hostport

    return Engine(*parts, parse, valid, matches, spans, checked_spans, fullmatch, valid_match)


def _unchecked(
    fullmatch: Callable[[str], re.Match[str] | None], build: Build
) -> Callable[..., Any]:
    def parse(text: str, host_checks: bool) -> Any:
        match = fullmatch(text)
        return None if match is None else build(text, match, host_checks)

    return parse


def _screen(
    hosts: tuple[int, ...], hostnumbers: tuple[int, ...], ports: tuple[int, ...]
) -> Callable[[re.Match[str]], bool]:
    """``passes(match)``: true when the match's host and port pass every host check.

    False does not mean a check fails, only that :func:`~.hosts.check_spans`
    must look: a ``hostnumber`` :func:`~.hosts.octets_pass` does not pass, a
    name longer than a label may be, a port of as many digits as the largest.
    The arguments are the group numbers of each production; a group that
    took no part in the match spans ``(-1, -1)``, length 0.
    """

    def passes(match: re.Match[str]) -> bool:
        for number in hostnumbers:
            start, end = match.span(number)
            if start >= 0 and not octets_pass(match.string[start:end]):
                return False
        for number in hosts:
            start, end = match.span(number)
            if end - start > MAX_LABEL:
                return False
        for number in ports:
            start, end = match.span(number)
            if end - start > _SHORT_PORT:
                return False
        return True

    return passes


def _by_spans(
    entry: SchemeFile,
    cls: Any,
    table: SchemeTable,
    grammar: Any,
    spans: Read,
    checked_spans: Read,
    read: Read,
    matches: Callable[[str], bool] | None = None,
    matcher: LinearMatcher | None = None,
) -> Engine:
    """The engine of a scheme whose objects are built from spans.

    ``spans`` gives the spans of the class's productions (and the host
    checks'), ``checked_spans`` those of the host checks alone, ``read``
    those the object is built from (``spans``, completed for the generic
    class where it reads another production); ``matches`` the verdict
    without host checks, where it comes cheaper than the spans.
    """

    def parse(text: str, host_checks: bool) -> Any:
        found = read(text)
        if found is None:
            return None
        return cls.from_spans(text, found, host_checks=host_checks, grammar=grammar)

    def valid(text: str) -> bool:
        found = checked_spans(text)
        if found is None:
            return False
        try:
            check_spans(text, found)
        except URLSyntaxError:
            return False
        return True

    def matches_by_spans(text: str) -> bool:
        return checked_spans(text) is not None

    verdict = matches_by_spans if matches is None else matches
    return Engine(
        entry,
        cls,
        table,
        None,
        (),
        (),
        matcher,
        parse,
        valid,
        verdict,
        spans,
        checked_spans,
        None,
        None,
    )


def _by_earley(
    entry: SchemeFile,
    reference: Callable[[str], ReferenceParser | Unavailable],
    productions: frozenset[str],
) -> Read:
    """The spans of ``productions`` where the scheme's Earley parser accepts a text."""

    def match(text: str) -> Spans | None:
        try:
            tree = reference(entry.scheme).parse(text, entry.start)
        except URLSyntaxError:
            return None
        return spans_from_tree(tree, productions)

    return match


def _completed_for_generic(match: Read) -> Read:
    """Spans of a new scheme's production, completed for :class:`~rfc1738.GenericURL`.

    A scheme with a file but no class of its own becomes a ``GenericURL``:
    its ``scheme`` and ``schemepart`` are what lies before and after the
    first ``:``; the login fields are filled where its production uses
    ``ip_schemepart``.
    """

    def completed(text: str) -> Spans | None:
        spans = match(text)
        return None if spans is None else as_generic(text, spans)

    return completed


def as_generic(text: str, spans: Spans) -> Spans:
    """``spans`` with ``scheme`` and ``schemepart`` where the production has none (see above)."""
    colon = text.index(":")
    spans.setdefault("scheme", (0, colon))
    spans.setdefault("schemepart", (colon + 1, len(text)))
    return spans
