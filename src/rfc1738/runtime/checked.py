"""What a scheme table read from the disk cache must hold to be used: the checked loader.

A cache file (:mod:`rfc1738.runtime.cache`) is data anyone who owns the cache
can rewrite, digest and all. Before a table of one is used, its parts must
hold together, so that a file that does not is a miss (the grammar is
compiled again) rather than a wrong verdict, a hang, or a ``KeyError``,
``re.error`` or ``AssertionError`` far from where the data was read:

- :func:`holds_together`, for every scheme when the file is read: every
  field of its type; the groups among the captured productions; the layout
  (:mod:`rfc1738.runtime.layout`) of the documented shape, with only the
  class's fields in it, and a group for each of those that is captured;
- :func:`runs_as_written`, for a scheme when it is first used: its expression
  compiles (in the form :func:`~rfc1738.runtime.possessive.compile_expression`
  gives, which the fast parser then finds in ``re``'s cache) with exactly the
  named groups the table lists; where the table has no error automaton, its
  prefix expression (which then locates errors) compiles too; the error
  automaton's data is of this :data:`~rfc1738.runtime.automaton.DATA_VERSION`,
  for the table's start rule, with every state, name and transition in
  range, so that loading and running it raise nothing; the linear matcher's
  data, where the scheme has one, loads (its own loader checks each node). Checking all this for
  every scheme when the file is read would cost an edited grammar's first
  parse several times what the rest of it costs (compiling eleven
  expressions, walking eleven automata).

The wheel's own tables (``rfc1738/runtime/_tables.py``) are code of the
package, written by its build: they are read unchecked once their key is
that of the installed grammar files (:func:`~rfc1738.runtime.store.shipped_tables`).
What no check can tell is a table forged to hold together (an expression
with the right groups that takes more than the grammar): only the cache's
owner can write one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import repeat
from typing import TYPE_CHECKING, Any

from .automaton import DATA_VERSION
from .layout import fields_in
from .linear import LinearMatcher
from .possessive import compile_expression

if TYPE_CHECKING:
    from .tables import SchemeTable

__all__ = ["holds_together", "runs_as_written"]


def holds_together(table: SchemeTable) -> bool:
    """Whether every field of ``table`` has its type and the fields agree (no regex compiled)."""
    optional = (table.expression, table.prefixes, table.problem)
    groups = table.groups
    if not (
        isinstance(table.start, str)
        and _strings(table.rules)
        and _strings(table.capture)
        and all(value is None or isinstance(value, str) for value in optional)
        and isinstance(groups, dict)
        and all(isinstance(k, str) and _strings(v) and v for k, v in groups.items())
        and set(groups) <= set(table.capture)
        and (table.expression is None) == (table.problem is not None)
        and (table.expression is None) == (table.prefixes is None)
        and _strings(table.layout_fields)
        and (table.automaton is None or isinstance(table.automaton, dict))
        and (table.matcher is None or isinstance(table.matcher, dict))
    ):
        return False
    if table.expression is None:
        return (
            not groups
            and table.automaton is None
            and table.layout is None
            and table.matcher is None
        )
    if (table.layout is None) != (not table.layout_fields):
        return False
    if table.layout is None:
        return True
    found: set[str] = set()
    if not _layout(table.layout, found, 0) or not found <= set(table.layout_fields):
        return False
    # A field the objects are written with, and captured, is a group of the expression.
    return fields_in(table.layout) & set(table.capture) <= set(groups)


def runs_as_written(table: SchemeTable) -> bool:
    """Whether ``table``'s expression compiles with its groups, and its automaton runs.

    Of a table that :func:`holds_together`. Where the table has no error
    automaton, its prefix expression must compile too. A table with no
    expression (a grammar that is not regular) has nothing to run.
    """
    if table.expression is None:
        return True
    try:
        pattern = compile_expression(table.expression)
        if table.automaton is None and table.prefixes is not None:
            compile_expression(table.prefixes)
    except (re.error, RecursionError, OverflowError, MemoryError):
        return False
    listed = [name for names in table.groups.values() for name in names]
    if not (
        len(set(listed)) == len(listed) == pattern.groups and set(listed) == set(pattern.groupindex)
    ):
        return False
    if table.matcher is not None and not _matcher(table.matcher):
        return False
    return table.automaton is None or _automaton(table.automaton, table.start)


def _matcher(data: dict[Any, Any]) -> bool:
    """Whether the linear matcher's data loads (its own loader checks every node)."""
    try:
        LinearMatcher.from_data(data)
    except ValueError:
        return False
    return True


# ---- the layout (rfc1738.runtime.layout: nested tuples) ----

#: How deep a layout may nest: the compiler's follow the grammar's own nesting.
_DEEPEST = 200


def _layout(node: object, fields: set[str], depth: int) -> bool:
    """Whether ``node`` is a layout node of the documented shape; its fields go to ``fields``."""
    if not (isinstance(node, tuple) and node and depth < _DEEPEST):
        return False
    kind, rest, deeper = node[0], node[1:], depth + 1
    if kind == "lit":
        return len(rest) == 2 and isinstance(rest[0], str) and isinstance(rest[1], bool)
    if kind == "chars":
        return len(rest) == 1 and isinstance(rest[0], str)
    if kind == "group":
        if not (len(rest) == 2 and isinstance(rest[0], str)):
            return False
        fields.add(rest[0])
        return rest[1] is None or _layout(rest[1], fields, deeper)
    if kind in ("seq", "alt"):
        return (
            len(rest) == 1
            and isinstance(rest[0], tuple)
            and all(_layout(item, fields, deeper) for item in rest[0])
        )
    if kind == "opt":
        return len(rest) == 2 and _integer(rest[0]) and _layout(rest[1], fields, deeper)
    if kind == "rep":
        return (
            len(rest) == 3
            and _layout(rest[0], fields, deeper)
            and _integer(rest[1])
            and _integer(rest[2])
            and rest[1] >= 0
            and rest[2] >= -1
        )
    return False


# ---- the error automaton (rfc1738.runtime.automaton: ErrorAutomaton.to_data) ----

_AUTOMATON_FIELDS = frozenset(
    {"version", "start", "classes", "rows", "names", "info", "in_literals", "literals"}
)


def _automaton(data: Any, start: str) -> bool:
    """Whether ``data`` is what ``ErrorAutomaton.to_data`` writes for ``start``, all of it in range.

    So that loading it and explaining any error with it raise nothing: every
    transition leads to a state, the start state has its info (where no token
    ends further on, an error is there), every name index names a name, and
    at each state every literal of two or more characters expected there
    (one an error can be inside of) has the production such an error names.
    """
    if not (
        isinstance(data, dict)
        and set(data) == _AUTOMATON_FIELDS
        and data["version"] == DATA_VERSION
        and data["start"] == start
    ):
        return False
    classes, rows, names, info = data["classes"], data["rows"], data["names"], data["info"]
    if not (_strings(classes) and _strings(rows) and _strings(names) and isinstance(info, str)):
        return False
    states = len(rows)
    # Each row: one character a class, the next state plus one ("\x00": none).
    if not rows or set(map(len, rows)) != {len(classes)}:
        return False
    if max(map(max, filter(None, rows)), default="\x00") > chr(states):
        return False
    literals = _literals(data, states)
    if literals is None:
        return False
    in_literals, begun = literals
    begun_names = {k for k, name in enumerate(names) if name in begun}
    needs = _info(info, states, len(names), begun_names)
    return needs is not None and all(
        {names[k] for k in wanted} <= in_literals.get(state, set())
        for state, wanted in needs.items()
    )


def _info(info: str, states: int, names: int, begun: set[int]) -> dict[int, set[int]] | None:
    """Per state expecting a literal of ``begun``, those; ``None`` if ``info`` does not decode.

    Each record: the state, 0 or 1 (accepting), two name indexes (the rule
    and the rule by Earley's ordering), a count, as many name indexes. The
    start state must have one.
    """
    if info and (ord(max(info)) >= max(states, names, 2)):
        return None  # a number out of every range: the cheap check first
    encoded = list(map(ord, info))
    needs: dict[int, set[int]] = {}
    seen_start = False
    at, end = 0, len(encoded)
    while at < end:
        if at + 5 > end:
            return None
        state, accepting, rule, as_earley, count = encoded[at : at + 5]
        wanted = encoded[at + 5 : at + 5 + count]
        if not (
            state < states
            and accepting < 2
            and rule < names
            and as_earley < names
            and len(wanted) == count
            and (not wanted or max(wanted) < names)
        ):
            return None
        if not begun.isdisjoint(wanted):
            needs[state] = begun.intersection(wanted)
        seen_start = seen_start or state == 0
        at += 5 + count
    return needs if seen_start else None


def _literals(data: dict[str, Any], states: int) -> tuple[dict[int, set[str]], set[str]] | None:
    """The literals each state names a production for, and those an error can be inside of.

    ``None`` where the tables do not have their shape (per state, its
    ``LiteralRule`` tuples; per literal's name, its text and whether case is ignored).
    """
    in_literals, literals = data["in_literals"], data["literals"]
    rule_types = (str, str, int, bool, str)
    if not (
        isinstance(in_literals, tuple)
        and all(
            _pair(entry)
            and _integer(entry[0])
            and 0 <= entry[0] < states
            and isinstance(entry[1], tuple)
            and all(_typed(rule, rule_types) for rule in entry[1])
            for entry in in_literals
        )
        and isinstance(literals, tuple)
        and all(
            _pair(entry) and isinstance(entry[0], str) and _typed(entry[1], (str, bool))
            for entry in literals
        )
    ):
        return None
    named = {state: {rule[0] for rule in rules} for state, rules in in_literals}
    # As ErrorAutomaton finds the literals a text may begin and not finish.
    begun = {name for name, (text, _fold) in literals if len(text) > 1 and text[0] != "%"}
    return named, begun


# ---- plain data ----


def _strings(value: object) -> bool:
    return isinstance(value, tuple) and all(map(isinstance, value, repeat(str)))


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _pair(value: object) -> bool:
    return isinstance(value, tuple) and len(value) == 2


def _typed(value: object, types: tuple[type, ...]) -> bool:
    is_type: Callable[[object, type], bool] = isinstance
    return (
        isinstance(value, tuple)
        and len(value) == len(types)
        and all(map(is_type, value, types))
        and all(not isinstance(v, bool) for v, t in zip(value, types, strict=True) if t is int)
    )
