"""The linear matcher: a scheme's verdict and fields in time linear in the text.

A backtracking matcher (Python's ``re``) runs the expression the compiler
writes in linear time only where the writer could tell that it never needs
to try the same characters two ways (:func:`rfc1738.compile.emit.runs_in_linear_time`):
the shipped grammar's, and most edited ones. For a scheme where it cannot
(``(?:a+)+b``, six ``[A-Za-z]*`` in a row, options that overlap inside a
loop), the compiler records this matcher's automaton instead
(:func:`rfc1738.compile.thompson.matcher_data`), and the scheme is served by it:

- **the verdict**, reading the text once from the end: the set of the
  automaton's character nodes from which the rest of the text can be read to
  the end (a deterministic automaton over those sets, built as it is
  needed, a bounded number kept);
- **the fields**, reading it once more from the start: of the ways on from
  where the reading is, the first a backtracking matcher would try that can
  still reach the end (the sets of the first reading say which). That is
  the match Python's ``re`` gives, with the same groups, found without
  trying the ways that fail.

Each reading costs a dictionary look-up or two a character (more for a set
not met before: at most the automaton's size). Imports nothing of the library
but :mod:`rfc1738.runtime.spans`; the data is plain, as in :mod:`rfc1738.runtime.tables`.
"""

from __future__ import annotations

from typing import Any

from .spans import Spans

__all__ = ["CHAR", "CLOSE", "MATCH", "OPEN", "SPLIT", "LinearMatcher"]

#: The kinds of node: a character out of a set; a choice among ways on, in the
#: order tried; a group's beginning and end; where the text may end.
CHAR, SPLIT, OPEN, CLOSE, MATCH = "char", "split", "open", "close", "match"

#: The keys of the data :meth:`LinearMatcher.to_data` gives (its version is
#: that of the tables it is kept in, :data:`rfc1738.runtime.tables.FORMAT`).
_DATA_KEYS = frozenset({"nodes", "start", "groups"})

#: How many sets of nodes each reading keeps, with their transitions, before
#: it starts again: the memory a scheme's matcher holds stays bounded whatever
#: the texts (a set met again is then worked out again, in time linear in the
#: automaton).
MAX_KEPT_STATES = 1024

#: A way on: the node it reaches (a character node or the end) and the group
#: boundaries it passes, each ``2 * group`` (begins) or ``2 * group + 1`` (ends).
_Way = tuple[int, tuple[int, ...]]


class _State:
    """A set of nodes, with the transitions and choices worked out from it so far."""

    __slots__ = ("choices", "next", "nodes")

    def __init__(self, nodes: frozenset[int]) -> None:
        self.nodes = nodes
        #: The next state by character.
        self.next: dict[str, _State] = {}
        #: Per node the forward reading is at, the way it takes into this state.
        self.choices: dict[int, _Way] = {}


class LinearMatcher:
    """A scheme's start rule as an automaton: whether a text matches, and its spans.

    >>> from rfc1738.compile.ir import Chars, Group, Lit, Rep, Seq
    >>> from rfc1738.compile.thompson import matcher_data
    >>> a = Chars(frozenset("a"))
    >>> node = Seq((Group("run", Rep(Rep(a, 1, None), 1, None)), Lit("b")))  # (?P<run>(?:a+)+)b
    >>> matcher = LinearMatcher.from_data(matcher_data(node))
    >>> matcher.matches("a" * 10_000 + "c"), matcher.spans("aaab"), matcher.viable_prefix("aac")
    (False, {'run': (0, 3)}, 2)
    """

    __slots__ = (
        "_accepting",
        "_char_nodes",
        "_data",
        "_dead",
        "_kept",
        "_outs",
        "_start",
        "_starting",
        "_ways",
        "groups",
    )

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data
        nodes: tuple[tuple[str, Any, tuple[int, ...]], ...] = data["nodes"]
        #: The production of each group, by number.
        self.groups: tuple[str, ...] = data["groups"]
        char_nodes: dict[str, set[int]] = {}
        self._ways: dict[int, tuple[_Way, ...]] = {}
        for number, (kind, chars, outs) in enumerate(nodes):
            if kind == CHAR:
                for char in chars:
                    char_nodes.setdefault(char, set()).add(number)
                self._ways[number] = _ways_from(nodes, outs[0])
        #: Per character, the character nodes that read it.
        self._char_nodes = {char: frozenset(found) for char, found in char_nodes.items()}
        self._start = _ways_from(nodes, data["start"])
        #: Per character node (and the start, -1), the nodes its ways on reach.
        self._outs = {number: frozenset(w[0] for w in ways) for number, ways in self._ways.items()}
        self._outs[-1] = frozenset(way[0] for way in self._start)
        match = next(number for number, node in enumerate(nodes) if node[0] == MATCH)
        self._dead = _State(frozenset())
        self._accepting = _State(frozenset({match}))
        self._starting = _State(self._outs[-1])
        # Every state met, by its nodes, per reading (backward, forward).
        self._kept: tuple[dict[frozenset[int], _State], dict[frozenset[int], _State]] = ({}, {})

    # ---- data ----

    @classmethod
    def from_data(cls, data: object) -> LinearMatcher:
        """The matcher of what :func:`rfc1738.compile.thompson.matcher_data` gave.

        Anything else (other keys, a node of another shape, a way on to no
        node, a group that does not exist) raises ``ValueError``.
        """
        if not isinstance(data, dict) or set(data) != _DATA_KEYS:
            raise ValueError("not a linear matcher")
        nodes, start, groups = data["nodes"], data["start"], data["groups"]
        if not (
            isinstance(nodes, tuple)
            and isinstance(groups, tuple)
            and all(isinstance(group, str) for group in groups)
            and _is_node_number(start, nodes)
            and all(_is_node(node, nodes, len(groups)) for node in nodes)
            and sum(node[0] == MATCH for node in nodes) == 1
        ):
            raise ValueError("a malformed linear matcher")
        return cls(data)

    def to_data(self) -> dict[str, Any]:
        """The data it was made from (plain: tuples, strings, integers, ``None``)."""
        return self._data

    # ---- matching ----

    def matches(self, text: str) -> bool:
        """Whether ``text`` is in the start rule's language."""
        return self._backward(text, None) is not None

    def spans(self, text: str) -> Spans | None:
        """Per production with a group, the span of its first group that took part; ``None``
        where ``text`` does not match.

        The groups and spans Python's ``re`` gives for the expression the
        compiler writes (:func:`rfc1738.runtime.spans.spans_from_regs`).
        """
        states: list[_State] = []
        if self._backward(text, states) is None:
            return None
        begun = [-1] * len(self.groups)
        ended: list[tuple[int, int] | None] = [None] * len(self.groups)
        at, length = -1, len(text)
        # states[k] holds the nodes from which the last k characters can be read.
        for position in range(length + 1):
            state = states[length - position]
            way = state.choices.get(at)
            if way is None:
                way = state.choices[at] = self._choice(at, state)
            at, boundaries = way
            for boundary in boundaries:
                group = boundary >> 1
                if boundary & 1:
                    ended[group] = (begun[group], position)
                else:
                    begun[group] = position
        found: Spans = {}
        for production, span in zip(self.groups, ended, strict=True):
            if span is not None and production not in found:
                found[production] = span
        return found

    def viable_prefix(self, text: str) -> int:
        """The length of the longest beginning of ``text`` that some text of the language has."""
        state = self._starting
        for read, char in enumerate(text):
            following = state.next.get(char)
            if following is None:
                following = self._forward(state, char)
            if following is self._dead:
                return read
            state = following
        return len(text)

    # ---- the two readings ----

    def _backward(self, text: str, states: list[_State] | None) -> _State | None:
        """The state of the whole text read from its end, or ``None`` where it does not match.

        ``states``, if given, gets the state after each character (from the end).
        """
        state = self._accepting
        if states is not None:
            states.append(state)
        dead = self._dead
        for char in reversed(text):
            following = state.next.get(char)
            if following is None:
                following = self._behind(state, char)
            if following is dead:
                return None
            state = following
            if states is not None:
                states.append(state)
        return None if self._outs[-1].isdisjoint(state.nodes) else state

    def _behind(self, state: _State, char: str) -> _State:
        """The character nodes that read ``char`` and have a way on into ``state``."""
        outs = self._outs
        nodes = frozenset(
            node
            for node in self._char_nodes.get(char, ())
            if not outs[node].isdisjoint(state.nodes)
        )
        found = self._kept_state(0, nodes)
        state.next[char] = found
        return found

    def _forward(self, state: _State, char: str) -> _State:
        """The nodes reached from those of ``state`` that read ``char``."""
        reading = self._char_nodes.get(char, frozenset()) & state.nodes
        nodes = frozenset().union(*(self._outs[node] for node in reading))
        found = self._kept_state(1, nodes)
        state.next[char] = found
        return found

    def _kept_state(self, reading: int, nodes: frozenset[int]) -> _State:
        if not nodes:
            return self._dead
        kept = self._kept[reading]
        found = kept.get(nodes)
        if found is None:
            if len(kept) >= MAX_KEPT_STATES:
                # Begin again: the states kept so far (and their transitions) are let go.
                kept = self._restart(reading)
            found = kept[nodes] = _State(nodes)
        return found

    def _restart(self, reading: int) -> dict[frozenset[int], _State]:
        if reading == 0:
            self._accepting = _State(self._accepting.nodes)
            self._kept = ({}, self._kept[1])
        else:
            self._starting = _State(self._starting.nodes)
            self._kept = (self._kept[0], {})
        return self._kept[reading]

    def _choice(self, at: int, state: _State) -> _Way:
        """The first way on from node ``at`` (-1: the start) into ``state``'s nodes."""
        ways = self._start if at < 0 else self._ways[at]
        return next(way for way in ways if way[0] in state.nodes)


def _ways_from(nodes: tuple[tuple[str, Any, tuple[int, ...]], ...], entry: int) -> tuple[_Way, ...]:
    """The ways on from ``entry`` to a character node or the end, in the order they are tried.

    A way met again after another that reaches the same node is left out, as
    a backtracking matcher that reached the node the first way would have
    tried everything after it already.
    """
    found: list[_Way] = []
    seen: set[int] = set()
    pending: list[tuple[int, tuple[int, ...]]] = [(entry, ())]
    while pending:
        number, boundaries = pending.pop()
        if number in seen:
            continue
        seen.add(number)
        kind, argument, outs = nodes[number]
        if kind in (CHAR, MATCH):
            found.append((number, boundaries))
        elif kind == SPLIT:
            pending.extend((out, boundaries) for out in reversed(outs))
        else:
            boundary = 2 * argument + (kind == CLOSE)
            pending.append((outs[0], (*boundaries, boundary)))
    return tuple(found)


def _is_node_number(value: object, nodes: tuple[Any, ...]) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(nodes)


def _is_node(node: object, nodes: tuple[Any, ...], groups: int) -> bool:
    if not (isinstance(node, tuple) and len(node) == 3 and isinstance(node[2], tuple)):
        return False
    kind, argument, outs = node
    if not all(_is_node_number(out, nodes) for out in outs):
        return False
    if kind == CHAR:
        return isinstance(argument, str) and len(outs) == 1
    if kind in (OPEN, CLOSE):
        return isinstance(argument, int) and 0 <= argument < groups and len(outs) == 1
    if kind == SPLIT:
        return argument is None
    return kind == MATCH and argument is None and not outs
