"""The error automaton built from the named IR: Glushkov, then subsets.

:func:`build` takes the tree of
:meth:`~rfc1738.compile.pipeline.CompiledFile.named` (every rule a
:class:`~rfc1738.compile.ir.Production`, every token a
:class:`~rfc1738.compile.ir.Term`) and makes

1. a Glushkov automaton whose positions are the token occurrences of the
   start rule, each knowing its name and the productions it is inside;
2. from it, by the subset construction, a deterministic automaton over
   characters (:class:`~rfc1738.runtime.automaton.ErrorAutomaton`) whose
   states know whether a token just ended there and, if so, which tokens may
   come next and which production an error there is in.

Run once per grammar (or when the wheel is built); imports no Lark.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any

from ..runtime.automaton import ErrorAutomaton, LiteralRule, StateInfo
from .ir import Alt, Chars, Lit, Named, Node, NodeVisitor, Production, Rep, Seq, Term, folded
from .limits import MAX_STATES, GrammarLimitError

__all__ = ["NotSupportedError", "build"]

# One alternative of a token: a character set per character it matches.
_Shape = tuple[frozenset[str], ...]

# An item of the character automaton (see build).
Item = Any


class NotSupportedError(ValueError):
    """A grammar the automaton cannot mirror the reference parser on (Earley serves it)."""


@dataclass(frozen=True)
class _Level:
    """A production, or a repetition inside one, that a token occurrence is in.

    The reference parser reads ``x*`` and ``x+`` as a rule of their own
    (``__hsegment_star_0``) that begins where the repetition begins; errors
    name the production the repetition is written in. An optional part
    (``[x]``, ``x{0,2}``) is a level too, but no rule of the reference
    parser (``is_rule`` and ``is_helper`` both false). ``ident`` tells apart
    two places of the same production; ``holders`` are the idents of the
    levels that hold it, outermost first.
    """

    name: str
    is_rule: bool
    is_helper: bool
    ident: int
    holders: tuple[int, ...]

    @property
    def depth(self) -> int:
        """How many levels hold it."""
        return len(self.holders)

    @property
    def named(self) -> bool:
        """Whether an error can name it (a production, or a repetition by its production)."""
        return self.is_rule or self.is_helper


@dataclass(frozen=True)
class _Occurrence:
    """One place a token can appear in the start rule's language."""

    name: str
    shapes: tuple[_Shape, ...]
    levels: tuple[_Level, ...]  # what it is inside, outermost first


# The levels a way on passes (entered, or matched empty on the way), by ident.
_Passed = frozenset[int]

# Of a node: whether it may be empty; its first occurrences, each with the
# levels passed empty before it inside the node; its last occurrences, each
# with the levels passed empty after it; the levels an empty match passes.
_Parts = tuple[bool, dict[int, _Passed], dict[int, _Passed], _Passed]


class _Glushkov(NodeVisitor[_Parts]):
    """Token occurrences of a named tree: first, last and follow sets.

    Each ``visit_<kind>`` method takes the node and the levels it is inside,
    and gives its :data:`_Parts`.

    ``follow[p][q]`` is how many of ``p``'s levels ``q`` stays inside when
    it follows ``p``: the levels below that begin with ``q``.
    ``passes[p][q]`` is the levels every way from ``p`` to ``q`` passes,
    by ident: those ``q`` enters and those matched empty between the two
    (``selector`` between a ``gtype`` and ``"%09"``); ``enters[p][q]`` the
    levels some way from ``p`` to ``q`` enters.
    """

    def __init__(self, node: Node) -> None:
        self.occurrences: list[_Occurrence] = []
        self.follow: list[dict[int, int]] = []
        self.passes: list[dict[int, _Passed]] = []
        self.enters: list[dict[int, _Passed]] = []
        self.levels: list[_Level] = []
        self.nullable, first, last, _empty = self.visit(node, ())
        self.first, self.last = set(first), set(last)
        #: What the first token of the string enters, as ``enters`` for the others.
        self.start_enters = {
            q: frozenset(level.ident for level in self.occurrences[q].levels) for q in first
        }
        #: What the first token of the string passes, as ``passes`` for the others.
        self.start_passes = {q: before | self.start_enters[q] for q, before in first.items()}

    def _level(self, levels: tuple[_Level, ...], name: str, is_rule: bool, helper: bool) -> _Level:
        level = _Level(name, is_rule, helper, len(self.levels), tuple(lv.ident for lv in levels))
        self.levels.append(level)
        return level

    def visit_term(self, node: Term, levels: tuple[_Level, ...]) -> _Parts:
        index = len(self.occurrences)
        self.occurrences.append(_Occurrence(node.name, _shapes(node), levels))
        self.follow.append({})
        self.passes.append({})
        self.enters.append({})
        return False, {index: _NONE}, {index: _NONE}, _NONE

    def visit_production(self, node: Production, levels: tuple[_Level, ...]) -> _Parts:
        level = self._level(levels, node.name, True, False)
        nullable, first, last, empty = self.visit(node.item, (*levels, level))
        return nullable, first, last, empty | {level.ident} if nullable else _NONE

    def visit_group(self, node: Named, levels: tuple[_Level, ...]) -> _Parts:
        return self.visit(node.item, levels)

    def visit_seq(self, node: Seq, levels: tuple[_Level, ...]) -> _Parts:
        parts = [lambda item=item: self.visit(item, levels) for item in node.items]
        return self._sequence(parts, len(levels))

    def visit_alt(self, node: Alt, levels: tuple[_Level, ...]) -> _Parts:
        nullable, first, last = False, dict[int, _Passed](), dict[int, _Passed]()
        empties = []
        for option in node.options:
            n, f, la, e = self.visit(option, levels)
            first.update(f)
            last.update(la)
            if n:
                nullable = True
                empties.append(e)
        # An empty match passes what every empty option passes.
        return nullable, first, last, frozenset.intersection(*empties) if empties else _NONE

    def generic_visit(self, node: Node, *context: Any) -> _Parts:
        raise NotSupportedError(f"a {type(node).__name__} outside a named token: {node!r}")

    def _link(self, ends: dict[int, _Passed], starts: dict[int, _Passed], depth: int) -> None:
        for end, after in ends.items():
            follow, passes, enters = self.follow[end], self.passes[end], self.enters[end]
            for start, before in starts.items():
                follow[start] = max(follow.get(start, 0), depth)
                entered = frozenset(lv.ident for lv in self.occurrences[start].levels[depth:])
                enters[start] = enters.get(start, _NONE) | entered
                way = after | before | entered
                known = passes.get(start)
                passes[start] = way if known is None else known & way

    def _sequence(self, parts: list[Any], depth: int) -> _Parts:
        nullable, first, last, empty = True, dict[int, _Passed](), dict[int, _Passed](), _NONE
        for part in parts:
            n, f, la, e = part()
            self._link(last, f, depth)
            if nullable:
                first.update((q, empty | before) for q, before in f.items())
            if n:
                last = {p: after | e for p, after in last.items()}
                last.update(la)
            else:
                last = dict(la)
            nullable, empty = nullable and n, empty | e
        return nullable, first, last, empty if nullable else _NONE

    def visit_rep(self, node: Rep, levels: tuple[_Level, ...]) -> _Parts:
        owner = next((lv.name for lv in reversed(levels) if lv.is_rule), "")
        level = None
        if node.high is None:
            # Unbounded: a level of its own, as the reference parser's helper rule.
            level = self._level(levels, owner, False, True)
        elif node.low == 0:
            level = self._level(levels, owner, False, False)
        if level is not None:
            levels = (*levels, level)
        depth = len(levels)

        # Each copy of the item gets occurrences of its own: x{2,3} is x x [x].
        def copy() -> _Parts:
            return self.visit(node.item, levels)

        def star() -> _Parts:
            _n, first, last, _e = copy()
            self._link(last, first, depth)
            return True, first, last, _NONE

        def optional(rest: int) -> Any:
            def part() -> _Parts:
                parts = [copy] + ([optional(rest - 1)] if rest > 1 else [])
                _n, first, last, _e = self._sequence(parts, depth)
                return True, first, last, _NONE

            return part

        parts: list[Any] = [copy] * node.low
        if node.high is None:
            parts.append(star)
        elif node.high > node.low:
            parts.append(optional(node.high - node.low))
        nullable, first, last, empty = self._sequence(parts, depth)
        nullable = nullable or node.low == 0
        if nullable and level is not None:
            empty |= {level.ident}
        return nullable, first, last, empty if nullable else _NONE


_NONE: _Passed = frozenset()


def _shapes(term: Term) -> tuple[_Shape, ...]:
    """What a token matches, as fixed-length alternatives of character sets."""
    shapes = _SHAPES.visit(term.item)
    if () in shapes:
        raise NotSupportedError(f"token {term.name} can match the empty string")
    singles = frozenset().union(*(s[0] for s in shapes if len(s) == 1))
    longer = sorted({s for s in shapes if len(s) > 1}, key=lambda s: (len(s), repr(s)))
    # The reference parser takes one regex match per token; a token that could
    # match two lengths at one position would need its regex's choice.
    for shape in longer:
        if shape[0] & singles or any(
            other is not shape and len(other) != len(shape) and _overlap(shape, other)
            for other in longer
        ):
            raise NotSupportedError(f"token {term.name} can match two lengths at one position")
    return ((singles,),) * bool(singles) + tuple(longer)


def _overlap(a: _Shape, b: _Shape) -> bool:
    return all(x & y for x, y in zip(a, b, strict=False))


class _Shapes(NodeVisitor[set[_Shape]]):
    """What a token's node matches, as fixed-length alternatives of character sets."""

    def visit_chars(self, node: Chars) -> set[_Shape]:
        return {(node.chars,)}

    def visit_lit(self, node: Lit) -> set[_Shape]:
        # ASCII letters only, as the compiler writes "..."i (a scheme name is ASCII).
        return {tuple(folded(c, node.ignore_case) for c in node.text)}

    def visit_alt(self, node: Alt) -> set[_Shape]:
        return set().union(*(self.visit(option) for option in node.options))

    def visit_seq(self, node: Seq) -> set[_Shape]:
        parts = [self.visit(item) for item in node.items]
        return {tuple(c for shape in combo for c in shape) for combo in product(*parts)}

    def visit_rep(self, node: Rep) -> set[_Shape]:
        if node.high is None or node.high > 4:
            raise NotSupportedError(f"a token of unbounded length: {node!r}")
        item = self.visit(node.item)
        found: set[_Shape] = set()
        for count in range(node.low, node.high + 1):
            found |= {
                tuple(c for shape in combo for c in shape) for combo in product(item, repeat=count)
            }
        return found

    def generic_visit(self, node: Node, *context: Any) -> set[_Shape]:
        if isinstance(node, Named):
            return self.visit(node.item)
        raise NotSupportedError(f"a token of unbounded length: {node!r}")


_SHAPES = _Shapes()


def build(node: Node, start: str, *, file: str | None = None) -> ErrorAutomaton:
    """The error automaton of the named tree of start rule ``start``.

    Raises :class:`NotSupportedError` where the tree holds a token whose
    reading by the reference parser it cannot mirror (one that matches
    unboundedly long text, or two lengths at one position), and
    :class:`~rfc1738.compile.limits.GrammarLimitError` (naming ``start`` and
    the grammar ``file``) where it would have more than
    :data:`~rfc1738.compile.limits.MAX_STATES` states: a grammar can ask for
    twice as many with each repetition it adds (``( "a" | "b" )* "a" ( "a" |
    "b" )``), and is refused before the work gets long.
    """
    g = _Glushkov(node)
    occ = g.occurrences
    # Items of the character automaton: "S" (the start), ("E", q, starts):
    # token q just ended, ("I", q, starts, shape, k): k characters of one of
    # q's shapes read. starts ranks where each of q's levels began, so that
    # an error can name the level that began last, as the reference parser
    # does; ranks are renumbered 0, 1, ... in each state to keep it finite.
    start_state: frozenset[Item] = frozenset({"S"})

    def following(item: Item) -> dict[int, int]:
        return dict.fromkeys(g.first, 0) if item == "S" else g.follow[item[1]]

    charsets: set[frozenset[str]] = set()
    for o in occ:
        for shape in o.shapes:
            charsets.update(shape)
    ordered = sorted(charsets, key=sorted)
    classes: dict[tuple[int, ...], list[str]] = {}
    for char in sorted(frozenset().union(*charsets)) if charsets else []:
        key = tuple(i for i, cs in enumerate(ordered) if char in cs)
        classes.setdefault(key, []).append(char)
    class_chars = ["".join(chars) for chars in classes.values()]

    def entered(item: Item, q: int, kept: int) -> tuple[int, ...]:
        # Where each level of q began, as a rank among the positions the
        # state remembers: kept levels keep theirs, the others begin here
        # (NEW, after every remembered position).
        before: tuple[int, ...] = () if item == "S" else item[2]
        return before[:kept] + (NEW,) * (len(occ[q].levels) - kept)

    def step(state: frozenset[Item], char: str) -> frozenset[Item]:
        found: set[Item] = set()
        for item in state:
            if item == "S" or item[0] == "E":
                for q, kept in following(item).items():
                    for s, shape in enumerate(occ[q].shapes):
                        if char in shape[0]:
                            starts = entered(item, q, kept)
                            found.add(
                                ("E", q, starts) if len(shape) == 1 else ("I", q, starts, s, 1)
                            )
            else:
                _, q, starts, s, k = item
                shape = occ[q].shapes[s]
                if char in shape[k]:
                    found.add(
                        ("E", q, starts) if k + 1 == len(shape) else ("I", q, starts, s, k + 1)
                    )
        return _renumbered(found)

    numbers: dict[frozenset[Item], int] = {start_state: 0}
    states = [start_state]
    rows: list[tuple[int, ...]] = []
    while len(rows) < len(states):
        state = states[len(rows)]
        row = []
        for chars in class_chars:
            target = step(state, chars[0])
            if not target:
                row.append(-1)
                continue
            if target not in numbers:
                if len(states) >= MAX_STATES:
                    raise GrammarLimitError(
                        start,
                        f"its error automaton has more than {MAX_STATES:,} states",
                        f"{MAX_STATES:,} (MAX_STATES)",
                        file=file,
                    )
                numbers[target] = len(states)
                states.append(target)
            row.append(numbers[target])
        rows.append(tuple(row))

    infos: dict[int, StateInfo] = {}
    fallback = (NEW, False, start)  # no production to name: the start rule
    for number, state in enumerate(states):
        ends = [item for item in state if item == "S" or item[0] == "E"]
        if not ends:
            continue
        # Each way on: (token before, or None at the start; expected token q;
        # levels of q kept; where q's levels began).
        ways = [
            (None if item == "S" else item[1], q, kept, entered(item, q, kept))
            for item in ends
            for q, kept in following(item).items()
        ]
        accepting = any(
            (item == "S" and g.nullable) or (item != "S" and item[1] in g.last) for item in ends
        )
        as_earley = (_earley_choice(occ, ways, in_literal=False) or fallback)[2]
        literals = []
        for name in sorted({occ[q].name for _p, q, _k, _s in ways}):
            if name.startswith('"') and len(_literal_of(name)[0]) > 1:
                own = [way for way in ways if occ[way[1]].name == name]
                rank, is_rule, earley = _earley_choice(occ, own, in_literal=True) or fallback
                rule = _named(g, own) or earley
                literals.append(LiteralRule(name, rule, rank, is_rule, earley))
        infos[number] = StateInfo(
            frozenset(occ[q].name for _p, q, _k, _s in ways),
            accepting,
            _named(g, ways) or as_earley,
            as_earley,
            tuple(literals),
        )
    literals_text = {o.name: _literal_of(o.name) for o in occ if o.name.startswith('"')}
    return ErrorAutomaton(start, tuple(class_chars), tuple(rows), infos, literals_text)


#: The rank of the position being read, above every remembered one.
NEW = 1 << 30


def _renumbered(items: set[Any]) -> frozenset[Any]:
    """``items`` with one start rank per level, renumbered 0, 1, ... in order.

    Items that differ only in where their levels began (a ``search`` that
    may begin after the first or the second ``%09``) become one, keeping
    the latest start of each level: errors name the level that began last,
    so an earlier start never decides anything.
    """
    merged: dict[tuple[Any, ...], tuple[int, ...]] = {}
    for item in items:
        key = (item[0], item[1], *item[3:])
        known = merged.get(key)
        merged[key] = item[2] if known is None else tuple(map(max, known, item[2]))
    ranks = sorted({r for starts in merged.values() for r in starts})
    dense = {r: i for i, r in enumerate(ranks)}
    return frozenset(
        (key[0], key[1], tuple(dense[r] for r in starts), *key[2:])
        for key, starts in merged.items()
    )


#: A way on from a state: the token before (``None`` at the start), the
#: token expected, how many of its levels it shares with the token before,
#: and the rank of where each of its levels began.
_Way = tuple[int | None, int, int, tuple[int, ...]]


def _earley_choice(
    occ: list[_Occurrence], ways: list[_Way], *, in_literal: bool
) -> tuple[int, bool, str] | None:
    """The production the reference parser names for an error where ``ways`` go on.

    Each expected token is directly inside one level: a production, or a
    repetition written in one (the reference parser's helper rule). As the
    reference parser does, the error names, of the levels that began before
    the error position (they hold the token before it), the one that began
    last; where none did, or the error is inside a literal begun at the
    position, of all of them; ties go to productions over repetitions, then
    to the greatest name. Returns ``(rank, is_rule, name)`` of the level
    named, so that the choices for several literals can be compared.
    """
    before: list[tuple[int, bool, str]] = []
    at: list[tuple[int, bool, str]] = []
    for _p, q, _kept, starts in ways:
        levels = occ[q].levels
        named = [i for i, level in enumerate(levels) if level.named]
        if not named:
            continue
        i = named[-1]
        direct = (starts[i], levels[i].is_rule, levels[i].name)
        (before if starts[i] != NEW else at).append(direct)
    chosen = before + at if in_literal else (before or at)
    return max(chosen) if chosen else None


def _named(g: _Glushkov, ways: list[_Way]) -> str | None:
    """The production an error names where ``ways`` go on (docs/parsers.md, choices 2, 4, 5).

    Each reading of the URL so far (each token before: a state holds one
    per reading) names a production: the innermost that every way on from
    it passes into (:func:`_passed_into`), or else the innermost that holds
    both the token before and a token that may come next. Where the
    readings name different productions, the innermost production that
    holds them all is named: ``a~`` after ``ftp://`` may be in a user name
    or a host, and is in ``login``. ``None`` where nothing may come next.
    """
    readings: dict[int | None, list[_Way]] = {}
    for way in ways:
        readings.setdefault(way[0], []).append(way)
    found = [_passed_into(g, each) or _joined(g, each) for each in readings.values()]
    levels = [level for level in found if level is not None]
    if len({level.name for level in levels}) <= 1:
        return levels[0].name if levels else None
    chains = [(*level.holders, level.ident) for level in levels]
    common: list[_Level] = []
    for idents in zip(*chains, strict=False):
        if len(set(idents)) > 1:
            break
        common.append(g.levels[idents[0]])
    return next((level.name for level in reversed(common) if level.named), None)


def _passed_into(g: _Glushkov, ways: list[_Way]) -> _Level | None:
    """The production every way on from one reading passes into, if there is one (choice 2).

    Where every token that may come next (the URL may also end) is inside a
    production that begins at the error position or comes after it matched
    empty there, and some token is inside it, the error is in that
    production although it has read nothing yet: the innermost such, a
    repetition named after the production it is written in. So ``~`` names
    ``hsegment`` at the start of a path as further on, ``selector`` right
    after a gopher type as further on, ``host`` right after ``http://``.
    """
    common: _Passed | None = None
    entered = _NONE
    for p, q, _kept, _starts in ways:
        way = g.start_passes[q] if p is None else g.passes[p][q]
        common = way if common is None else common & way
        entered |= g.start_enters[q] if p is None else g.enters[p][q]
    # A production only matched empty on every way (fpath's repetition before
    # ";type=") is not being matched.
    named = [g.levels[ident] for ident in (common or _NONE) & entered if g.levels[ident].named]
    return max(named, key=lambda level: level.depth) if named else None


def _joined(g: _Glushkov, ways: list[_Way]) -> _Level | None:
    """The innermost production that holds one reading's token before and a token after it.

    Choice 4: a token that would begin a repetition (or a production)
    counts for the production it would be begun in. The reference parser
    counts only what began before the error, and its helper rule for a
    repetition begins with the repetition's first item, so that ``a~`` after
    ``nntp://h/`` named ``nntpurl`` and ``ab~`` named ``group``.
    """
    joins = []
    for p, q, kept, _starts in ways:
        shared = [level for level in g.occurrences[q].levels[:kept] if level.named]
        if p is not None and shared:
            joins.append(shared[-1])
    return max(joins, key=lambda level: level.depth) if joins else None


def _literal_of(name: str) -> tuple[str, bool]:
    """The text of a literal token's name (``"http://"i``) and whether case is ignored."""
    ignore_case = name.endswith('"i')
    return name[1 : -2 if ignore_case else -1], ignore_case
