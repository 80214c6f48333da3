"""Errors from the compiled grammar: the error automaton, as it runs.

The reference parser (Lark Earley) reads a URL token by token: a token is a
terminal the grammar names (``UCHAR``, whose ``%41`` is one token) or a
literal (``"/"``, ``"http://"i``). When a URL stops fitting, it reports the
last position a token of some valid reading ended at, the tokens expected
there, and moves on through a literal the URL begins but does not finish.

:class:`ErrorAutomaton` gets the same answer in time linear in the URL: a
deterministic automaton over characters whose states know whether a token
just ended there and, if so, which tokens may come next and which
production an error there is in. :func:`rfc1738.compile.glushkov.build` makes
it from the IR; :meth:`ErrorAutomaton.to_data` writes its tables as plain
Python literals and :meth:`ErrorAutomaton.from_data` reads them back, so
that they can be built once (with the wheel) and loaded without Lark. This
module imports nothing of the library but :mod:`rfc1738._records` and
:mod:`rfc1738.errors`.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from .._records import Record
from ..errors import END, unfinished_literal_reason

__all__ = ["END", "ErrorAutomaton", "LiteralRule", "StateInfo"]


class LiteralRule(Record):
    """The production an error inside one literal names, at one state.

    ``rule`` with the documented choices, ``rule_as_earley`` by the
    reference parser's ordering alone; ``rank`` and ``is_rule`` place the
    latter in that ordering, for where several literals are begun at once.
    """

    _fields = ("literal", "rule", "rank", "is_rule", "rule_as_earley")
    __slots__ = _fields
    literal: str
    rule: str
    rank: int
    is_rule: bool
    rule_as_earley: str

    def __init__(
        self, literal: str, rule: str, rank: int, is_rule: bool, rule_as_earley: str
    ) -> None:
        self._fill(literal, rule, rank, is_rule, rule_as_earley)


class StateInfo(Record):
    """What a state where a token ended says about an error there.

    ``rule`` is the production named for an error at that position;
    ``literals``, for each literal of two or more characters expected there,
    the one named for an error inside it.
    """

    _fields = ("expected", "accepting", "rule", "rule_as_earley", "literals")
    __slots__ = _fields
    expected: frozenset[str]
    accepting: bool
    rule: str
    # What the reference parser's ordering alone names (no documented choice
    # but the first and third): kept so that the tests can hold it to Earley.
    rule_as_earley: str
    literals: tuple[LiteralRule, ...]

    def __init__(
        self,
        expected: frozenset[str],
        accepting: bool,
        rule: str,
        rule_as_earley: str,
        literals: tuple[LiteralRule, ...],
    ) -> None:
        self._fill(expected, accepting, rule, rule_as_earley, literals)


class ErrorAutomaton:
    """Where a string stops fitting a start rule, what was expected there, and in which rule.

    Built by :func:`rfc1738.compile.glushkov.build`, or loaded with :meth:`from_data`.

    >>> from rfc1738.bnf.files import shipped_grammar_dir
    >>> from rfc1738.compile.pipeline import CompiledFile
    >>> from rfc1738.compile.glushkov import build
    >>> http = CompiledFile(shipped_grammar_dir() / "http.lark")
    >>> automaton = build(http.named("httpurl"), "httpurl")
    >>> position, expected, rule, reason = automaton.error("http://h/a~b")
    >>> position, rule, sorted(expected)[:3], reason
    (10, 'hsegment', ['"&"', '"/"', '":"'], None)
    >>> position, expected, rule, reason = ErrorAutomaton.from_data(
    ...     automaton.to_data()
    ... ).error("http:x")
    >>> position, expected, rule
    (5, frozenset({'"http://"i'}), 'httpurl')
    >>> print(reason)
    unexpected character 'x' (U+0078): expected the rest of "http://" (any case) after 'http:'
    """

    __slots__ = ("_data", "_ends", "_heads", "_literals", "_table", "_with_end", "start")

    def __init__(
        self,
        start: str,
        classes: tuple[str, ...],
        rows: tuple[tuple[int, ...], ...],
        info: dict[int, StateInfo],
        literals: dict[str, tuple[str, bool]],
    ) -> None:
        self.start = start
        self._data = (classes, rows, info)
        self._literals = literals
        # Per state, next state by character; a character missing is a dead end.
        self._table: list[dict[str, int]] = [
            {c: to for chars, to in zip(classes, row, strict=True) if to >= 0 for c in chars}
            for row in rows
        ]
        # Per state, its info where a token ends there, else None.
        self._ends = [info.get(n) for n in range(len(rows))]
        # Per accepting state, its expected tokens and the end: one set each,
        # made when first needed.
        self._with_end: dict[int, frozenset[str]] = {}
        # Per such state, the literals of two or more characters expected
        # there, by first character: only those can be begun and not
        # finished (a one-character literal that matched would have ended a
        # token further on). One that begins with "%" is left out: begun,
        # it is also an escape begun, and an escape cut short is reported
        # at its "%" (docs/parsers.md, "Where an error is").
        self._heads: dict[int, dict[str, list[tuple[str, str, bool]]]] = {}
        for n, state_info in info.items():
            heads: dict[str, list[tuple[str, str, bool]]] = {}
            for name in sorted(state_info.expected):
                literal = literals.get(name)
                if literal is not None and len(literal[0]) > 1 and literal[0][0] != "%":
                    text, fold = literal
                    for head in {text[0], text[0].lower()} if fold else {text[0]}:
                        heads.setdefault(head, []).append((name, text, fold))
            if heads:
                self._heads[n] = heads

    # ---- data ----

    def to_data(self) -> dict[str, Any]:
        """The tables as plain Python literals (tuples, dicts, strings, ints, bools).

        The two large tables are strings, one character a number
        (``chr(n)``): the shipped grammar's hold tens of thousands of numbers,
        which as strings cost ``import rfc1738`` a fraction of what as many
        integer and tuple objects cost to load.

        - ``rows``: per state, one character a character class, the next
          state plus one (``"\\x00"``: no transition);
        - ``info``: for each state where a token ends, in order: the state,
          whether it accepts (0 or 1), the indexes in ``names`` of ``rule``
          and ``rule_as_earley``, how many tokens are expected there, and
          their indexes in ``names``;
        - ``in_literals``: the few states where a literal of two or more
          characters is expected, with what an error inside each names
          (:class:`LiteralRule`, as a tuple).

        Its version is that of the tables it is kept in
        (:data:`rfc1738.runtime.tables.FORMAT`).
        """
        classes, rows, info = self._data
        names = sorted(
            {name for i in info.values() for name in (*i.expected, i.rule, i.rule_as_earley)}
        )
        index = {name: number for number, name in enumerate(names)}
        states: list[str] = []
        for n, i in sorted(info.items()):
            expected = sorted(i.expected)
            numbers = (n, int(i.accepting), index[i.rule], index[i.rule_as_earley], len(expected))
            states.append("".join(map(chr, numbers)))
            states.append("".join(chr(index[name]) for name in expected))
        return {
            "start": self.start,
            "classes": classes,
            "rows": tuple("".join([chr(to + 1) for to in row]) for row in rows),
            "names": tuple(names),
            "info": "".join(states),
            "in_literals": tuple(
                (n, tuple(literal._values() for literal in i.literals))
                for n, i in sorted(info.items())
                if i.literals
            ),
            "literals": tuple(sorted(self._literals.items())),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> ErrorAutomaton:
        """The automaton :meth:`to_data` wrote (as the tables' loader checked it)."""
        names: tuple[str, ...] = tuple(data["names"])
        in_literals = {
            n: tuple(LiteralRule(*literal) for literal in literals)
            for n, literals in data["in_literals"]
        }
        encoded = [ord(char) for char in data["info"]]
        info: dict[int, StateInfo] = {}
        at = 0
        while at < len(encoded):
            n, accepting, rule, as_earley, count = encoded[at : at + 5]
            expected = frozenset(names[k] for k in encoded[at + 5 : at + 5 + count])
            info[n] = StateInfo(
                expected, bool(accepting), names[rule], names[as_earley], in_literals.get(n, ())
            )
            at += 5 + count
        return cls(
            data["start"],
            tuple(data["classes"]),
            tuple(tuple([ord(char) - 1 for char in row]) for row in data["rows"]),
            info,
            {name: (text, fold) for name, (text, fold) in data["literals"]},
        )

    # ---- errors ----

    def _last_end(self, text: str) -> tuple[int, int]:
        """Where the last token of a valid beginning of ``text`` ends, and the state there.

        The loop runs once per character, so it does as little as it can: it
        follows the transitions to where the text stops fitting (a missing
        character ends it with ``KeyError``, raised once per text) without
        looking at where tokens end. Where the text stops in a state where
        a token ends (nearly always: each character of most URLs is a token),
        that is the answer; otherwise (inside an escape or a literal) the
        loop that keeps the last end on the way gives it.
        """
        table = self._table
        state = read = 0
        try:
            for read, char in enumerate(text):  # noqa: B007 - read is the position it stops at
                state = table[state][char]
            read = len(text)
        except KeyError:
            pass
        if self._ends[state] is not None:
            return read, state
        return self._last_end_slowly(text)

    def _last_end_slowly(self, text: str) -> tuple[int, int]:
        """:meth:`_last_end`, keeping the last end on the way."""
        table, ends = self._table, self._ends
        state = last = last_state = 0
        for read, char in enumerate(text, 1):
            state = table[state].get(char, -1)
            if state < 0:
                break
            if ends[state] is not None:
                last, last_state = read, state
        return last, last_state

    def alphabet(self) -> frozenset[str]:
        """Every character some transition reads: no string of the language holds another.

        >>> from rfc1738 import shipped
        >>> alphabet = shipped().tables.automaton("http", "httpurl").alphabet()
        >>> "/" in alphabet, " " in alphabet
        (True, False)
        """
        return frozenset().union(*self._table)

    @staticmethod
    def data_alphabet(data: dict[str, Any]) -> frozenset[str]:
        """:meth:`alphabet` of the automaton :meth:`to_data` wrote, without loading it.

        The characters of each class some row has a transition for (a row
        holds ``"\\x00"`` where a class has none): loading the whole
        automaton costs about a millisecond.
        """
        # Per class, the row's characters for it in every state: one column each.
        columns = zip(*data["rows"], strict=True)
        read = [
            chars
            for chars, column in zip(data["classes"], columns, strict=True)
            if set(column) - {"\x00"}
        ]
        return frozenset("".join(read))

    def shortest_accepted(self, excluding: str = "") -> str | None:
        """A shortest text the start rule accepts that holds none of ``excluding``, or ``None``.

        A breadth-first walk from the first state over the characters but
        ``excluding``, one character a class of characters: a letter where
        the class has one, so that the text reads as a word.

        >>> from rfc1738 import shipped
        >>> shipped().tables.automaton("news", "newsurl").shortest_accepted()
        'NEWS:*'
        >>> print(shipped().tables.automaton("generic", "genericurl").shortest_accepted(":"))
        None
        """
        classes, rows, info = self._data
        reached = {0: ""}
        waiting = deque([0])
        while waiting:
            state = waiting.popleft()
            text = reached[state]
            ends = info.get(state)
            if ends is not None and ends.accepting:
                return text
            for chars, to in zip(classes, rows[state], strict=True):
                usable = sorted(set(chars).difference(excluding))
                if to >= 0 and usable and to not in reached:
                    reached[to] = text + next((c for c in usable if c.isalpha()), usable[0])
                    waiting.append(to)
        return None

    def error(
        self, text: str, *, as_earley: bool = False
    ) -> tuple[int, frozenset[str], str, str | None] | None:
        """``(position, expected, rule, reason)`` for a string the start rule rejects, or ``None``.

        The same position and expected tokens as the reference parser: the
        last place a token of a valid beginning ended, moved on through a
        literal the text begins there without finishing it. Inside such a
        literal, what was expected is the literals begun and the rule the
        production they are written in, and ``reason`` says so; elsewhere
        ``reason`` is ``None`` (the default wording). ``as_earley`` names
        the rule by the reference parser's ordering alone, without the
        documented choices 2, 4 and 5 (for the tests).
        """
        last, state = self._last_end(text)
        info = self._ends[state]
        assert info is not None
        if last == len(text) and info.accepting:
            return None
        # Only where a literal of several characters may begin (few states).
        begun = self._begun_literals(text, last, state) if state in self._heads else None
        if begun is not None:
            position, names = begun
            return (
                position,
                names,
                self._literal_rule(info, names, as_earley),
                unfinished_literal_reason(text, last, position, names),
            )
        expected = info.expected
        if last < len(text) and info.accepting:
            expected = self._with_end.get(state) or self._with_end.setdefault(
                state, expected | {END}
            )
        return last, expected, info.rule_as_earley if as_earley else info.rule, None

    def _begun_literals(self, text: str, at: int, state: int) -> tuple[int, frozenset[str]] | None:
        """Where the text leaves the literals expected at ``at`` it goes furthest into.

        With their names; ``None`` where it begins none.
        """
        heads = self._heads.get(state)
        if not heads:
            return None
        char = text[at : at + 1]
        candidates = heads.get(char, [])
        if char.lower() != char:  # where case is ignored, str.lower() decides
            candidates = candidates + heads.get(char.lower(), [])
        if not candidates:  # the text begins none of them (the usual case)
            return None
        best, names = 0, set[str]()
        for name, literal, fold in candidates:
            count = 0
            for wanted, found in zip(literal, text[at : at + len(literal)], strict=False):
                # As the reference parser compares: str.lower() where case is ignored.
                if (found.lower() != wanted.lower()) if fold else (found != wanted):
                    break
                count += 1
            if count > best:
                best, names = count, {name}
            elif count == best and count:
                names.add(name)
        return (at + best, frozenset(names)) if best else None

    @staticmethod
    def _literal_rule(info: StateInfo, names: frozenset[str], as_earley: bool) -> str:
        """The production an error inside the literals ``names`` (begun at one state) names."""
        found = [literal for literal in info.literals if literal.literal in names]
        earley = max((lit.rank, lit.is_rule, lit.rule_as_earley) for lit in found)[2]
        if as_earley:
            return earley
        rules = {literal.rule for literal in found}
        # Several literals that name different productions: Earley's ordering decides.
        return rules.pop() if len(rules) == 1 else earley
