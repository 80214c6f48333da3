"""Hypothesis strategies: URLs drawn from a grammar, and near-misses with the error they raise.

With the ``hypothesis`` extra (``pip install 'rfc1738[hypothesis]'``), test
your own code with the URLs the grammar itself generates:

- :func:`urls` draws valid URLs of one scheme, or of any: strings the
  scheme's start rule generates (Hypothesis's ``from_lark`` over the
  grammar file, any grammar :func:`rfc1738.load` reads), kept when they are
  URLs of that scheme with the host checks too (labels of at most 63
  characters, names of at most 255, ``hostnumber`` parts and ports in
  range), so :func:`rfc1738.parse` and ``parser="reference"`` both take them;
- :func:`invalid_urls` draws :class:`InvalidURL`: a valid URL changed in one
  place, with the position of the error it must raise, and the rule where
  the change says which.

>>> import rfc1738
>>> from hypothesis import given
>>> from rfc1738.strategies import invalid_urls, urls
>>> @given(urls("http"))
... def test_takes_http(text):
...     assert rfc1738.parse(text).scheme == "http"
>>> @given(invalid_urls())
... def test_says_where(miss):
...     try:
...         rfc1738.parse(miss.text)
...     except rfc1738.URLSyntaxError as error:
...         assert error.position == miss.position
...     else:
...         raise AssertionError(miss)
>>> test_takes_http()
>>> test_says_where()

A top layer, as ``rfc1738.spark`` is: ``import rfc1738`` does not import it,
nor Hypothesis.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache, partial
from typing import Literal, NamedTuple

from hypothesis import strategies as st

# Lark: from_lark draws from the Lark object of a grammar file (Hypothesis
# imports Lark for it; so does the adapter this module reaches through).
from hypothesis.extra.lark import from_lark

from .errors import GrammarError
from .runtime.exported import Export
from .runtime.hosts import MAX_HOST, MAX_LABEL, MAX_OCTET, MAX_PORT
from .urls import Grammar, shipped

__all__ = ["KINDS", "InvalidURL", "Kind", "invalid_urls", "urls"]

#: What a near-miss changed (see :class:`InvalidURL`).
Kind = Literal["character", "port", "octet", "label", "name"]
#: Every kind of near-miss, in the order :class:`InvalidURL` describes them.
KINDS: tuple[Kind, ...] = ("character", "port", "octet", "label", "name")


class InvalidURL(NamedTuple):
    """A string that is not a URL, made from one that is, and the error it must raise.

    ``kind`` says what was changed in ``valid`` to give ``text``:

    - ``"character"``: a character the grammar allows nowhere (a space,
      ``<``, ``"``, a control, anything outside US-ASCII, ...) inserted at
      ``position`` (never inside a ``%XX`` escape, where the error would be
      at its ``%``);
    - ``"port"``: the port made a number above 65535;
    - ``"octet"``: a part of the ``hostnumber`` made a number above 255;
    - ``"label"``: a label of the host name made longer than 63 characters;
    - ``"name"``: the host name made longer than 255 characters, no label
      longer than 63.

    The last four are grammatical (the bare grammar, ``host_checks=False``,
    takes ``text``); the host checks refuse them.
    """

    #: The string to parse.
    text: str
    #: The ``position`` of the :class:`~rfc1738.URLSyntaxError` parsing it must raise.
    position: int
    #: The error's ``rule`` where the change decides it (``"port"``, ``"host"``), else ``None``.
    rule: str | None
    #: What was changed.
    kind: Kind
    #: The valid URL it was made from.
    valid: str


def urls(scheme: str | None = None, grammar: Grammar | None = None) -> st.SearchStrategy[str]:
    """Valid URLs of ``scheme`` (a grammar file's name, ``"generic"`` included), or of any scheme.

    ``grammar`` is the shipped one when ``None``, or one :func:`rfc1738.load`
    returned: an edited grammar's new schemes are drawn from its own files.
    Each string is one the scheme's start rule generates, of at most the
    grammar's ``max_reference_length`` characters, that ``grammar.parse``
    takes with the host checks, as a URL of that scheme (a ``genericurl``
    that names a scheme of its own file is another scheme's URL, and left
    out). A port or ``hostnumber`` part drawn out of range is brought into
    it (modulo the limit), so that URLs with them are drawn about as often
    as URLs without; a label or name too long is drawn again.
    """
    grammar = grammar or shipped()
    return st.one_of([_valid(grammar, name) for name in _schemes(grammar, scheme)])


def invalid_urls(
    scheme: str | None = None,
    grammar: Grammar | None = None,
    *,
    kinds: Sequence[Kind] = KINDS,
) -> st.SearchStrategy[InvalidURL]:
    """Near-misses (:class:`InvalidURL`) of the URLs :func:`urls` draws, of the ``kinds`` given.

    A URL that gives no near-miss of the kinds asked for (no port, for
    ``kinds=["port"]``) is drawn again. The host kinds need the exported
    pattern of the scheme, and the ``"character"`` kind its error automaton:
    both need a grammar the compiler takes (a regular one).
    """
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown or not kinds:
        raise ValueError(f"kinds must be some of {', '.join(KINDS)}, not {kinds!r}")
    grammar = grammar or shipped()
    drawn = [_near_misses(grammar, name, tuple(kinds)) for name in _schemes(grammar, scheme)]
    if all(strategy.is_empty for strategy in drawn):
        raise ValueError(f"no URL of {scheme or 'any scheme'} has a part for kinds {kinds!r}")
    return st.one_of(drawn)


def _schemes(grammar: Grammar, scheme: str | None) -> list[str]:
    if scheme is None:
        return sorted(grammar.files)
    if scheme not in grammar.files:
        raise ValueError(
            f"no grammar file for scheme {scheme!r} in {grammar.directory}: "
            f"the schemes are {', '.join(sorted(grammar.files))}"
        )
    return [scheme]


@cache
def _valid(grammar: Grammar, scheme: str) -> st.SearchStrategy[str]:
    """The URLs of one scheme: the start rule's strings that parse as URLs of the scheme."""
    start = grammar.files[scheme].start
    lark = grammar.dispatch.reference_parser(scheme).lark(start)
    drawn = from_lark(lark, start=start)
    try:
        host = _host_parts(grammar, scheme)
    except GrammarError:
        host = None  # a grammar the compiler refuses: its URLs are only filtered
    if host is not None and host.productions:
        drawn = drawn.map(partial(_in_range, grammar, host))
    return drawn.filter(partial(_is_url_of, grammar, scheme))


def _in_range(grammar: Grammar, host: _HostParts, text: str) -> str:
    """``text`` with its port and ``hostnumber`` parts brought into range, modulo the limits.

    Drawn digit by digit, most ports and four octets would break a limit;
    this keeps the URLs that have them about as many as those that do not.
    """
    if grammar.is_valid(text) or not host.bare(text):
        return text
    spans = host.spans(text)
    within = {"port": _port_in_range, "hostnumber": _number_in_range}
    for name, (start, end) in sorted(spans.items(), key=lambda item: item[1], reverse=True):
        if name in within:
            try:
                text = text[:start] + within[name](text[start:end]) + text[end:]
            except ValueError:  # an edited grammar's numbers that are not decimal
                return text
    return text


def _port_in_range(port: str) -> str:
    return str(int(port) % (MAX_PORT + 1))


def _number_in_range(number: str) -> str:
    return ".".join(str(int(part) % (MAX_OCTET + 1)) for part in number.split("."))


def _is_url_of(grammar: Grammar, scheme: str, text: str) -> bool:
    return (
        len(text) <= grammar.max_reference_length
        and grammar.scheme_file(text).scheme == scheme
        and grammar.is_valid(text)
    )


@cache
def _near_misses(
    grammar: Grammar, scheme: str, kinds: tuple[Kind, ...]
) -> st.SearchStrategy[InvalidURL]:
    unsafe = _unsafe_characters(grammar) if "character" in kinds else None
    host = _host_parts(grammar, scheme) if set(kinds) - {"character"} else None
    makers = [
        _MAKERS[kind]
        for kind in kinds
        if kind == "character" or (host is not None and _NEEDS[kind] <= host.productions)
    ]
    if not makers:
        # The scheme has no part of the kinds asked for (mailto has no port).
        return st.nothing()

    @st.composite
    def near_miss(draw: st.DrawFn) -> InvalidURL:
        valid = draw(_valid(grammar, scheme))
        found = _Found(valid, unsafe, None if host is None else host.spans(valid))
        possible = [make for make in makers if make.applies(found)]
        if not possible:
            # No part of this URL for the kinds asked for (a URL without a port).
            return draw(st.nothing())
        miss = draw(st.sampled_from(possible)).draw(draw, found)
        if miss.kind != "character" and host is not None and not host.bare(miss.text):
            # An edited grammar may limit what the host checks do (a port of
            # at most five digits): not a near-miss the host checks decide.
            return draw(st.nothing())
        return miss

    return near_miss()


# ---- what a near-miss is made from ----


class _Found(NamedTuple):
    """A valid URL, the characters no URL holds, and where its host parts are."""

    valid: str
    unsafe: st.SearchStrategy[str] | None
    spans: dict[str, tuple[int, int]] | None


@cache
def _unsafe_characters(grammar: Grammar) -> st.SearchStrategy[str]:
    """Characters that no URL of any scheme of ``grammar`` holds anywhere.

    The characters of every scheme's error automaton (compiled from the
    grammar) are those some URL may hold; a character outside all of them
    ends the longest prefix a URL may start with wherever it is inserted,
    whichever file the scheme before the first ``:`` then picks. (Lone
    surrogates are left out: they are not text that can be written anywhere.)
    """
    allowed: set[str] = set()
    for name in sorted(grammar.files):
        automaton = grammar.dispatch.explainer.automaton(name)
        if automaton is None:
            raise ValueError(
                f"invalid_urls(kinds=['character']) needs each scheme's error automaton; "
                f"{name}.lark in {grammar.directory} has none (the compiler refuses it)"
            )
        allowed |= automaton.alphabet()
    return st.characters(exclude_characters="".join(sorted(allowed)), exclude_categories=["Cs"])


class _HostParts(NamedTuple):
    """Where a scheme's URLs have their host parts, by its exported pattern (the bare grammar)."""

    #: Which of ``host``, ``hostnumber``, ``port`` the scheme's pattern has a group for.
    productions: frozenset[str]
    #: A valid URL's spans of those productions that took part.
    spans: Callable[[str], dict[str, tuple[int, int]]]
    #: Whether the bare grammar (no host checks) takes a string.
    bare: Callable[[str], bool]


#: The productions of the host checks a near-miss changes.
_HOST_PARTS = frozenset({"host", "hostnumber", "port"})


@cache
def _exported(grammar: Grammar) -> Export:
    """The grammar's patterns in Python's dialect, with the groups of the host checks."""
    # Lark: the patterns are written from the compiler's IR, read with Lark.
    from .compile.export import export_grammar

    return export_grammar(grammar, "python")


@cache
def _host_parts(grammar: Grammar, scheme: str) -> _HostParts:
    exported = _exported(grammar).schemes[scheme]
    pattern = re.compile(exported.pattern)
    groups = {name: n for name, n in exported.fields().items() if name in _HOST_PARTS}

    def spans(text: str) -> dict[str, tuple[int, int]]:
        match = pattern.fullmatch(text)
        if match is None:  # never for a valid URL: the export is the same grammar
            raise AssertionError(f"the exported {scheme} pattern refuses {text!r}")
        return {
            name: match.span(number)
            for name, numbers in groups.items()
            for number in numbers
            if match.span(number)[0] >= 0
        }

    return _HostParts(frozenset(groups), spans, lambda text: pattern.fullmatch(text) is not None)


class _Maker(NamedTuple):
    applies: Callable[[_Found], bool]
    draw: Callable[[st.DrawFn, _Found], InvalidURL]


def _draw_character(draw: st.DrawFn, found: _Found) -> InvalidURL:
    assert found.unsafe is not None
    # Not inside a %XX escape: there the error is at its "%", which must begin one.
    valid = found.valid
    inside = {i for i in range(len(valid)) if valid[i] == "%"}
    places = [at for at in range(len(valid) + 1) if not {at - 1, at - 2} & inside]
    at = draw(st.sampled_from(places), label="position")
    char = draw(found.unsafe, label="character")
    text = found.valid[:at] + char + found.valid[at:]
    return InvalidURL(text, at, None, "character", found.valid)


def _draw_port(draw: st.DrawFn, found: _Found) -> InvalidURL:
    assert found.spans is not None
    start, end = found.spans["port"]
    port = draw(st.integers(MAX_PORT + 1, 10**12), label="port")
    text = found.valid[:start] + str(port) + found.valid[end:]
    return InvalidURL(text, start, "port", "port", found.valid)


def _draw_octet(draw: st.DrawFn, found: _Found) -> InvalidURL:
    assert found.spans is not None
    start, end = found.spans["hostnumber"]
    parts = found.valid[start:end].split(".")
    index = draw(st.integers(0, len(parts) - 1), label="part")
    parts[index] = str(draw(st.integers(MAX_OCTET + 1, 10**6), label="octet"))
    at = start + sum(len(part) + 1 for part in parts[:index])
    text = found.valid[:start] + ".".join(parts) + found.valid[end:]
    return InvalidURL(text, at, "host", "octet", found.valid)


def _draw_label(draw: st.DrawFn, found: _Found) -> InvalidURL:
    # A label's first character, repeated, is a label of the same production
    # (domainlabel or toplabel): the URL stays grammatical.
    assert found.spans is not None
    start, end = found.spans["host"]
    labels = found.valid[start:end].split(".")
    index = draw(st.integers(0, len(labels) - 1), label="label")
    length = draw(st.integers(MAX_LABEL + 1, MAX_LABEL + 40), label="length")
    labels[index] = labels[index][0] * length
    at = start + sum(len(label) + 1 for label in labels[:index])
    text = found.valid[:start] + ".".join(labels) + found.valid[end:]
    return InvalidURL(text, at, "host", "label", found.valid)


def _draw_name(draw: st.DrawFn, found: _Found) -> InvalidURL:
    # Labels of the first label's first character, MAX_LABEL long, put before
    # the host (each a domainlabel) until the name is longer than MAX_HOST.
    assert found.spans is not None
    start, end = found.spans["host"]
    host = found.valid[start:end]
    label = host[0] * MAX_LABEL + "."
    extra = draw(st.integers(0, 2), label="extra labels")
    count = (MAX_HOST - len(host)) // len(label) + 1 + extra
    text = found.valid[:start] + label * count + found.valid[start:]
    return InvalidURL(text, start, "host", "name", found.valid)


def _has_port(found: _Found) -> bool:
    return found.spans is not None and "port" in found.spans


def _has_number(found: _Found) -> bool:
    return found.spans is not None and "hostnumber" in found.spans


def _has_name(found: _Found) -> bool:
    return found.spans is not None and "host" in found.spans and "hostnumber" not in found.spans


#: The productions a scheme's pattern must have groups for, for each host kind.
_NEEDS: dict[Kind, frozenset[str]] = {
    "port": frozenset({"port"}),
    "octet": frozenset({"hostnumber"}),
    "label": frozenset({"host"}),
    "name": frozenset({"host"}),
}

_MAKERS: dict[Kind, _Maker] = {
    "character": _Maker(lambda found: found.unsafe is not None, _draw_character),
    "port": _Maker(_has_port, _draw_port),
    "octet": _Maker(_has_number, _draw_octet),
    "label": _Maker(_has_name, _draw_label),
    "name": _Maker(_has_name, _draw_name),
}
