"""What :meth:`~rfc1738.runtime.dispatch.ParserSet.parse` and ``is_valid`` run for one scheme.

A :class:`Runner` holds, for one grammar file, the few functions the hot path
calls: ``parse(text, host_checks)`` gives the object (or ``None`` when the
text does not match), ``valid(text)`` the verdict with the host checks and
``matches(text)`` the verdict without them. They are closures built once per
scheme, with the compiled expression's ``fullmatch``, the class's builder and
the group numbers bound in, so that a call costs one match and little else:

- the object keeps the ``re.Match`` itself and reads its fields from it when
  first asked (no span is read, no register tuple is made, at parse time);
- the host checks of :mod:`.hosts` look first at the lengths of the ``host``
  and ``port`` groups: a name of at most :data:`~.hosts.MAX_LABEL`
  characters, a ``hostnumber`` whose parts :func:`~.hosts.octets_pass`
  screens, and a port of fewer digits than :data:`~.hosts.MAX_PORT` has,
  pass whatever they hold, so only the rare URL runs the full checks.

A scheme without an expression (a grammar that refers back to itself, served
by the Earley parser), one whose expression may backtrack (served by the
linear matcher, :mod:`.linear`) or read into the generic class from another
production gets a runner built on spans instead (:func:`spans_runner`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .._records import Record
from ..bnf.files import SchemeFile
from ..errors import URLSyntaxError
from .hosts import MAX_LABEL, MAX_PORT, check_spans, octets_pass
from .spans import Spans, spans_from_regs

__all__ = ["Runner", "expression_runner", "spans_runner", "valid_by_spans"]

#: Per production, the numbers of the groups that may hold it (``FastParser.fields``).
Groups = tuple[tuple[str, tuple[int, ...]], ...]

#: ``build(text, match, host_checks)``: an object from a match (``ObjectBuilder.builder``).
Build = Callable[[str, re.Match[str], bool], Any]

#: A port of fewer digits than :data:`MAX_PORT` has cannot exceed it (leading zeros included).
_SHORT_PORT = len(str(MAX_PORT)) - 1


class Runner(Record):
    """One scheme's functions, as the hot path calls them."""

    _fields = (
        "entry",
        "cls",
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
    #: ``parse(text, host_checks)``: the object, or ``None`` if ``text`` does not
    #: match; raises :class:`~rfc1738.URLSyntaxError` for a failed host check.
    parse: Callable[[str, bool], Any]
    #: ``valid(text)``: whether ``parse(text, True)`` gives an object.
    valid: Callable[[str], bool]
    #: ``matches(text)``: whether ``parse(text, False)`` gives an object.
    matches: Callable[[str], bool]
    #: The spans of the class's productions, or ``None`` (slow paths and error diagnosis).
    spans: Callable[[str], Spans | None]
    #: The spans of the productions the host checks read, or ``None``.
    checked_spans: Callable[[str], Spans | None]
    #: The compiled expression's ``fullmatch``; ``None`` where spans come another way.
    fullmatch: Callable[[str], re.Match[str] | None] | None
    #: ``valid_match(text)``: the match of a text ``valid`` accepts, else ``None``;
    #: ``None`` where there is no expression (:func:`rfc1738.runtime.bulk.match_lines`).
    valid_match: Callable[[str], re.Match[str] | None] | None

    def __init__(
        self,
        entry: SchemeFile,
        cls: Any,
        parse: Callable[[str, bool], Any],
        valid: Callable[[str], bool],
        matches: Callable[[str], bool],
        spans: Callable[[str], Spans | None],
        checked_spans: Callable[[str], Spans | None],
        fullmatch: Callable[[str], re.Match[str] | None] | None,
        valid_match: Callable[[str], re.Match[str] | None] | None,
    ) -> None:
        self._fill(entry, cls, parse, valid, matches, spans, checked_spans, fullmatch, valid_match)


def expression_runner(
    entry: SchemeFile,
    cls: Any,
    fullmatch: Callable[[str], re.Match[str] | None],
    build: Build,
    checked: Groups,
    spans: Callable[[str], Spans | None],
    checked_spans: Callable[[str], Spans | None],
) -> Runner:
    """The runner of a scheme with a compiled expression.

    ``checked`` holds the group numbers of ``host``, ``hostnumber`` and
    ``port`` (see :class:`~rfc1738.runtime.fast.FastParser`).
    """

    def matches(text: str) -> bool:
        return fullmatch(text) is not None

    numbers = dict(checked)
    hosts, hostnumbers, ports = (numbers.get(name, ()) for name in ("host", "hostnumber", "port"))
    if not (hosts or hostnumbers or ports):  # no host, no port: the match is the whole verdict
        parse_any = _unchecked(fullmatch, build)
        return Runner(
            entry, cls, parse_any, matches, matches, spans, checked_spans, fullmatch, fullmatch
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

    return Runner(entry, cls, parse, valid, matches, spans, checked_spans, fullmatch, valid_match)


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


def spans_runner(
    entry: SchemeFile,
    cls: Any,
    spans: Callable[[str], Spans | None],
    checked_spans: Callable[[str], Spans | None],
    grammar: Any,
    matches: Callable[[str], bool] | None = None,
) -> Runner:
    """The runner of a scheme read by spans: no expression, a scheme the linear matcher
    serves (:mod:`.linear`), or a production read as generic.

    ``spans`` gives the spans of the class's productions (and the host
    checks'), ``checked_spans`` those of the host checks alone; ``matches``
    the verdict without host checks, where it comes cheaper than the spans.
    """

    def parse(text: str, host_checks: bool) -> Any:
        found = spans(text)
        if found is None:
            return None
        return cls.from_spans(text, found, host_checks=host_checks, grammar=grammar)

    def valid(text: str) -> bool:
        return valid_by_spans(checked_spans, text, True)

    def matches_by_spans(text: str) -> bool:
        return checked_spans(text) is not None

    verdict = matches_by_spans if matches is None else matches
    return Runner(entry, cls, parse, valid, verdict, spans, checked_spans, None, None)


def valid_by_spans(
    checked_spans: Callable[[str], Spans | None], text: str, host_checks: bool
) -> bool:
    """The verdict of a scheme matched without a compiled expression (by spans).

    ``checked_spans`` gives the spans of the productions the host checks
    read, or ``None`` where ``text`` does not match.
    """
    spans = checked_spans(text)
    if spans is None:
        return False
    if host_checks:
        try:
            check_spans(text, spans)
        except URLSyntaxError:
            return False
    return True
