"""The error automaton built from the named IR: Glushkov, then subsets.

:func:`build` takes the tree of
:meth:`~rfc1738.parse.compiler.CompiledFile.named` (every rule a
:class:`~rfc1738.parse.ir.Production`, every token a
:class:`~rfc1738.parse.ir.Term`) and makes

1. a Glushkov automaton whose positions are the token occurrences of the
   start rule, each knowing its name and the productions it is inside;
2. from it, by the subset construction, a deterministic automaton over
   characters (:class:`~rfc1738.parse.automaton.ErrorAutomaton`) whose
   states know whether a token just ended there and, if so, which tokens may
   come next and which production an error there is in.

Run once per grammar (or when the wheel is built); imports no Lark.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any

from .automaton import ErrorAutomaton, LiteralRule, StateInfo
from .ir import Alt, Chars, Group, Lit, Node, Production, Rep, Seq, Term

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
    (``[x]``, ``x*``) is marked ``optional``; ``[x]`` is no rule of the
    reference parser (``is_rule`` and ``is_helper`` both false).
    """

    name: str
    is_rule: bool
    nullable: bool
    is_helper: bool = False
    optional: bool = False


@dataclass(frozen=True)
class _Occurrence:
    """One place a token can appear in the start rule's language."""

    name: str
    shapes: tuple[_Shape, ...]
    levels: tuple[_Level, ...]  # what it is inside, outermost first


_Parts = tuple[bool, set[int], set[int]]


class _Glushkov:
    """Token occurrences of a named tree: first, last and follow sets.

    ``follow[p][q]`` is how many of ``p``'s levels ``q`` stays inside when
    it follows ``p``: the levels below that begin with ``q``.
    """

    def __init__(self, node: Node) -> None:
        self.occurrences: list[_Occurrence] = []
        self.follow: list[dict[int, int]] = []
        self.nullable, self.first, self.last = self._walk(node, ())

    def _walk(self, node: Node, levels: tuple[_Level, ...]) -> _Parts:
        if isinstance(node, Term):
            index = len(self.occurrences)
            self.occurrences.append(_Occurrence(node.name, _shapes(node), levels))
            self.follow.append({})
            return False, {index}, {index}
        if isinstance(node, Production):
            level = _Level(node.name, True, node.nullable)
            return self._walk(node.item, (*levels, level))
        if isinstance(node, Group):
            return self._walk(node.item, levels)
        if isinstance(node, Seq):
            parts = [lambda item=item: self._walk(item, levels) for item in node.items]
            return self._sequence(parts, len(levels))
        if isinstance(node, Alt):
            nullable, first, last = False, set[int](), set[int]()
            for option in node.options:
                n, f, la = self._walk(option, levels)
                nullable, first, last = nullable or n, first | f, last | la
            return nullable, first, last
        if isinstance(node, Rep):
            return self._repetition(node, levels)
        raise NotSupportedError(f"a {type(node).__name__} outside a named token: {node!r}")

    def _link(self, ends: set[int], starts: set[int], depth: int) -> None:
        for end in ends:
            follow = self.follow[end]
            for start in starts:
                follow[start] = max(follow.get(start, 0), depth)

    def _sequence(self, parts: list[Any], depth: int) -> _Parts:
        nullable, first, last = True, set[int](), set[int]()
        for part in parts:
            n, f, la = part()
            self._link(last, f, depth)
            if nullable:
                first |= f
            last = last | la if n else la
            nullable = nullable and n
        return nullable, first, last

    def _repetition(self, node: Rep, levels: tuple[_Level, ...]) -> _Parts:
        owner = next((lv.name for lv in reversed(levels) if lv.is_rule), "")
        if node.high is None:
            # Unbounded: a level of its own, as the reference parser's helper rule.
            levels = (*levels, _Level(owner, False, False, True, node.low == 0))
        elif node.low == 0:
            levels = (*levels, _Level(owner, False, True, False, True))
        depth = len(levels)

        # Each copy of the item gets occurrences of its own: x{2,3} is x x [x].
        def copy() -> _Parts:
            return self._walk(node.item, levels)

        def star() -> _Parts:
            _n, first, last = copy()
            self._link(last, first, depth)
            return True, first, last

        def optional(rest: int) -> Any:
            def part() -> _Parts:
                parts = [copy] + ([optional(rest - 1)] if rest > 1 else [])
                _n, first, last = self._sequence(parts, depth)
                return True, first, last

            return part

        parts: list[Any] = [copy] * node.low
        if node.high is None:
            parts.append(star)
        elif node.high > node.low:
            parts.append(optional(node.high - node.low))
        nullable, first, last = self._sequence(parts, depth)
        return nullable or node.low == 0, first, last


def _shapes(term: Term) -> tuple[_Shape, ...]:
    """What a token matches, as fixed-length alternatives of character sets."""
    shapes = _token_shapes(term.item)
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


def _token_shapes(node: Node) -> set[_Shape]:
    if isinstance(node, Chars):
        return {(node.chars,)}
    if isinstance(node, Lit):
        return {tuple(_literal_chars(c, node.ignore_case) for c in node.text)}
    if isinstance(node, Group | Term | Production):
        return _token_shapes(node.item)
    if isinstance(node, Alt):
        return set().union(*(_token_shapes(option) for option in node.options))
    if isinstance(node, Seq):
        parts = [_token_shapes(item) for item in node.items]
        return {tuple(c for shape in combo for c in shape) for combo in product(*parts)}
    if isinstance(node, Rep) and node.high is not None and node.high <= 4:
        item = _token_shapes(node.item)
        found: set[_Shape] = set()
        for count in range(node.low, node.high + 1):
            found |= {
                tuple(c for shape in combo for c in shape) for combo in product(item, repeat=count)
            }
        return found
    raise NotSupportedError(f"a token of unbounded length: {node!r}")


def _literal_chars(char: str, ignore_case: bool) -> frozenset[str]:
    # ASCII letters only, as the compiler writes "..."i (a scheme name is ASCII).
    if ignore_case and char.isascii() and char.isalpha():
        return frozenset({char.lower(), char.upper()})
    return frozenset({char})


def build(node: Node, start: str) -> ErrorAutomaton:
    """The error automaton of the named tree of start rule ``start``.

    Raises :class:`NotSupportedError` where the tree holds a token whose
    reading by the reference parser it cannot mirror (one that matches
    unboundedly long text, or two lengths at one position).
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
                numbers[target] = len(states)
                states.append(target)
            row.append(numbers[target])
        rows.append(tuple(row))

    infos: dict[int, StateInfo] = {}
    for number, state in enumerate(states):
        ends = [item for item in state if item == "S" or item[0] == "E"]
        if not ends:
            continue
        nexts = {
            (q, kept, entered(item, q, kept))
            for item in ends
            for q, kept in following(item).items()
        }
        accepting = any(
            (item == "S" and g.nullable) or (item != "S" and item[1] in g.last) for item in ends
        )
        literals = []
        for name in sorted({occ[q].name for q, _k, _g in nexts}):
            if name.startswith('"') and len(_literal_of(name)[0]) > 1:
                own = {way for way in nexts if occ[way[0]].name == name}
                rank, is_rule, rule = _literal_choice(occ, own) or (NEW, False, start)
                literals.append(LiteralRule(name, rule, rank, is_rule, rule))
        infos[number] = StateInfo(
            frozenset(occ[q].name for q, _k, _g in nexts),
            accepting,
            _innermost(occ, nexts, start, in_literal=False),
            _innermost(occ, nexts, start, in_literal=False, prefer_empty=False),
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


def _innermost(
    occ: list[_Occurrence],
    nexts: set[tuple[int, int, tuple[int, ...]]],
    start: str,
    *,
    in_literal: bool,
    prefer_empty: bool = True,
) -> str:
    """The production an error is in, given the tokens expected there.

    ``nexts`` holds each expected token with how many of its levels it
    shares with the token before and the rank of where each level began (see
    :func:`build`). Each expected token is directly inside one level: a
    production, or a repetition written in one (the reference parser's
    helper rule). As the reference parser does, the error names, of the
    levels that began before the error position (they hold the token before
    it), the one that began last; where none did, or the error is inside a
    literal begun at the position, of all of them; ties go to productions
    over repetitions, then to the greatest name.

    One choice of ours comes first (``prefer_empty``): a production that may
    be empty, and that the token before leads into whatever follows (no
    optional part in between), is being matched at the position although it
    has read nothing; the deepest such is named. So ``~`` names
    ``hsegment`` at the start of a path as further on, where the reference
    parser names ``httpurl`` (docs/parsers.md, "Which production").
    """
    before: list[tuple[int, bool, str]] = []
    at: list[tuple[int, bool, str]] = []
    empty: list[tuple[int, int, str]] = []
    for q, kept, starts in nexts:
        levels = occ[q].levels
        named = [i for i, level in enumerate(levels) if level.is_rule or level.is_helper]
        if not named:
            continue
        i = named[-1]
        direct = (starts[i], levels[i].is_rule, levels[i].name)
        (before if starts[i] != NEW else at).append(direct)
        # Productions that begin here and may be empty, down to the first
        # optional part: the token before leads into them whatever follows.
        for depth in range(kept, len(levels)):
            level = levels[depth]
            if level.optional:
                break
            if level.is_rule and level.nullable:
                empty.append((NEW, depth, level.name))
    if in_literal:
        chosen = before + at
    elif empty and prefer_empty:
        return max(empty)[2]
    else:
        chosen = before or at
    return max(chosen)[2] if chosen else start


def _literal_choice(
    occ: list[_Occurrence], nexts: set[tuple[int, int, tuple[int, ...]]]
) -> tuple[int, bool, str] | None:
    """Where an error inside a literal is, by the reference parser's ordering.

    ``nexts`` are the places of one literal expected at a state. As for
    :func:`_innermost` inside a literal: of the productions or repetitions
    the literal is directly inside, the one that began last; ties go to
    productions over repetitions, then to the greatest name. Returns
    ``(rank, is_rule, name)``, so that the choices for several literals
    begun at once can be compared.
    """
    found = []
    for q, _kept, starts in nexts:
        levels = occ[q].levels
        named = [i for i, level in enumerate(levels) if level.is_rule or level.is_helper]
        if named:
            i = named[-1]
            found.append((starts[i], levels[i].is_rule, levels[i].name))
    return max(found) if found else None


def _literal_of(name: str) -> tuple[str, bool]:
    """The text of a literal token's name (``"http://"i``) and whether case is ignored."""
    ignore_case = name.endswith('"i')
    return name[1 : -2 if ignore_case else -1], ignore_case
