"""The Earley oracle the error automaton is held to.

It is the reference parser (Lark Earley over the grammar files), with two
choices of docs/parsers.md ("Which production an error names": 1 and 3)
applied, so that the automaton's answer must equal it on every input, not
merely be close:

- Lark turns ``x*`` and ``x+`` into helper rules and shares one helper among
  identical repetitions (``urlpath = *xchar`` and ``schemepart``'s
  ``*xchar``), naming it after the first owner; an error inside
  ``schemepart`` then names ``urlpath``. The oracle builds its parsers with
  one helper per owner (patched in while its grammars load, and only then).
- At the end of the URL Lark orders the candidate rules by how far into
  their definition the parse got, not by where they began; the oracle asks
  what an unexpected character there would get (the URL with ``\\x00``
  appended: no grammar allows it).

The automaton's other choices (2, 4 and 5 there: the production every way on
passes into, the innermost production holding the tokens on both sides of the
error, what holds every reading) need the grammar's structure, which Earley's
error does not show; ``ErrorAutomaton.error(text, as_earley=True)`` leaves
them out and is held to this oracle, and the tests pin them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

import lark.load_grammar as load_grammar

from rfc1738 import Grammar, URLSyntaxError
from rfc1738.runtime.automaton import ErrorAutomaton
from rfc1738.runtime.reference import ReferenceParser

__all__ = ["automaton", "automaton_error", "earley_error", "shipped"]

#: ``(position, expected, rule, reason)``: what an error says.
Details = tuple[int, frozenset[str], str | None, str]


@contextmanager
def _one_helper_per_owner() -> Iterator[None]:
    """Lark's EBNF-to-BNF step with its helper cache keyed by owner too."""
    original = load_grammar.EBNF_to_BNF._add_recurse_rule

    def add_recurse_rule(self: Any, type_: str, expr: Any) -> Any:
        key = (self.prefix, type_, expr)
        if key not in self.rules_cache:
            name = self._name_rule(type_)
            tree = load_grammar.ST(
                "expansions",
                [
                    load_grammar.ST("expansion", [expr]),
                    load_grammar.ST("expansion", [load_grammar.NonTerminal(name), expr]),
                ],
            )
            self._add_rule(key, name, tree)
        return self.rules_cache[key]

    load_grammar.EBNF_to_BNF._add_recurse_rule = add_recurse_rule  # type: ignore[method-assign]
    try:
        yield
    finally:
        load_grammar.EBNF_to_BNF._add_recurse_rule = original  # type: ignore[method-assign]


@cache
def shipped() -> Grammar:
    """The shipped grammar (one instance for the oracle and the automata)."""
    return Grammar()


@cache
def _reference(scheme: str) -> ReferenceParser:
    grammar = shipped()
    entry = grammar.files[scheme]
    parser = ReferenceParser(entry.path, max_length=10**6)
    with _one_helper_per_owner():
        parser.lark(entry.start)
    return parser


def automaton(text: str) -> ErrorAutomaton:
    """The error automaton of the production ``text`` is parsed with."""
    grammar = shipped()
    found = grammar.dispatch.explainer.automaton(grammar.scheme_file(text).scheme)
    assert found is not None
    return found


def _earley(text: str) -> Details | None:
    entry = shipped().scheme_file(text)
    try:
        _reference(entry.scheme).parse(text, entry.start)
    except URLSyntaxError as error:
        return error.position, error.expected, error.rule, error.reason
    return None


def earley_error(text: str) -> Details | None:
    """What the oracle reports for ``text``: ``(position, expected, rule, reason)``, or ``None``."""
    found = _earley(text)
    if found is None or found[0] < len(text):
        return found
    beyond = _earley(text + "\x00")
    assert beyond is not None and beyond[0] == len(text), (text, beyond)
    return found[0], found[1], beyond[2], found[3]


def automaton_error(text: str, *, as_earley: bool = True) -> Details | None:
    """What the error automaton reports for ``text``, as :func:`earley_error` does.

    ``as_earley`` (the default) leaves out the choice the oracle does not make.
    """
    found = automaton(text).error(text, as_earley=as_earley)
    if found is None:
        return None
    error = URLSyntaxError(text, *found)
    return error.position, error.expected, error.rule, error.reason
