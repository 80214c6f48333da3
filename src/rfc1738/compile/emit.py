"""The emitter: a :mod:`rfc1738.compile.ir` tree as a regular expression, in several dialects.

Repetitions are made possessive (``*+``) where no match could need them to
give characters back: the repeated part matches in at most one way at any
position, and it cannot begin with a character that may follow it. That keeps
the expressions free of catastrophic backtracking without changing what they
accept.

One walk over the tree serves every dialect; a :class:`Dialect` says how its
engine spells a named group, a possessive repetition and a character. This
module holds the walk (:class:`Emitter`) and Python's ``re`` dialect (what the
fast parser runs); :mod:`rfc1738.compile.dialects` adds RE2, Java and
ECMAScript. The trees it writes are simplified first
(:mod:`rfc1738.compile.optimise`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

from ..runtime.possessive import FORMS, repetition
from .ir import Alt, Chars, End, Fold, Group, Lit, Node, NodeVisitor, Rep, Seq, captures, folded
from .optimise import simplify

__all__ = [
    "MAX_WAYS",
    "PYTHON",
    "PYTHON_FORMS",
    "Dialect",
    "Emitter",
    "Expression",
    "backtracking_ways",
    "code_ranges",
    "runs_in_linear_time",
    "write",
    "write_regex",
    "write_simplified",
]


class Expression(NamedTuple):
    """A regular expression as written, and per captured production its group names in order."""

    source: str
    groups: dict[str, tuple[str, ...]]


class Dialect:
    """How one regular-expression engine spells what the writer emits.

    This base class is Python's :mod:`re`; the other dialects override what
    their engine writes differently.
    """

    #: The name ``rfc1738.export`` and ``rfc1738 grammar export`` know it by.
    name = "python"
    #: What anchors a full match at the start and at the end of the text.
    begin, end = r"\A", r"\Z"
    #: Whether a possessive repetition may hold capture groups: in Java a group
    #: inside one keeps its capture when the match later backtracks past it.
    possessive_groups = True
    #: The most capture groups a pattern may hold and still run in the engine's
    #: fast path, where possessive repetitions take groups (ECMAScript), else None.
    max_groups: int | None = None
    #: Whether a run of one character class may be written possessive (``[c]++``)
    #: inside a possessive repetition: engines with possessive quantifiers, and
    #: ECMAScript, whose run inside the lookahead that spells the repetition is
    #: a plain ``[c]+``.
    possessive_runs = True

    def group_name(self, production: str, taken: int) -> str:
        """The group name of the ``taken + 1``-th group of ``production``."""
        return production if not taken else f"{production}__{taken + 1}"

    def named_group(self, name: str, body: str) -> str:
        """A capture group named ``name`` around ``body``."""
        return f"(?P<{name}>{body})"

    #: How a possessive repetition of a group is spelled (one of
    #: :data:`~rfc1738.runtime.possessive.FORMS`): ``(?:x)*+`` as the fast
    #: parser runs it where the Python reads it right; a run of one class is
    #: ``[c]*+`` in every form.
    form = "possessive"

    def possessive(self, writer: Emitter, body: Callable[[], str], quantifier: str) -> str:
        """A repetition that never gives back what it matched (``body`` written by the call)."""
        return repetition(_atom(body()), quantifier, self.form)

    def literal_char(self, char: str) -> str:
        """One character that stands for itself outside a class."""
        return re.escape(char)

    def class_char(self, code: int) -> str:
        """One character inside ``[...]``."""
        char = chr(code)
        if char in "\\]^-[":
            return "\\" + char
        if 0x21 <= code <= 0x7E:
            return char
        return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


#: Python's :mod:`re`, as the fast parser runs it.
PYTHON = Dialect()


class _PythonForm(Dialect):
    """Python's :mod:`re` with a possessive repetition of a group in another form."""

    def __init__(self, form: str) -> None:
        self.form = form


#: Python's :mod:`re` in each of :data:`~rfc1738.runtime.possessive.FORMS`:
#: the tables hold each expression in every form it is written otherwise
#: in, for a Python that misreads the possessive one (CPython 3.11.0 to 3.11.4).
PYTHON_FORMS: dict[str, Dialect] = {
    form: PYTHON if form == PYTHON.form else _PythonForm(form) for form in FORMS
}


def write_regex(node: Node, dialect: Dialect = PYTHON) -> Expression:
    """The Python regular expression for ``node`` (to be used with ``fullmatch``).

    ``dialect``: one of :data:`PYTHON_FORMS`, where not the fast parser's own.
    """
    return write_simplified(simplify(node), dialect)


def write_simplified(node: Node, dialect: Dialect = PYTHON) -> Expression:
    """:func:`write_regex` of a ``node`` :func:`~rfc1738.compile.optimise.simplify` gave."""
    writer = Emitter(dialect)
    return Expression(writer.write(node, frozenset()), writer.names())


def write(
    node: Node, dialect: Dialect, *, capture: bool = True, mark_empty: bool = False
) -> Emitter:
    """Write ``node`` (simplified already) in ``dialect``; the writer holds the result.

    With ``capture=False`` the captured productions are written as plain
    groups (no names, no numbers). With ``mark_empty``, a captured production
    that may match the empty string gets a marker: a group around the
    smallest unit that takes part exactly when it does and is never empty
    (``Emitter.markers``), for engines that give ``""`` both for an empty
    group and for one that took no part. (A capture inside a lookaround
    would not do: Java keeps it when it backtracks out of the group.)
    """
    writer = Emitter(dialect, capture=capture, mark_empty=mark_empty)
    writer.source = writer.write(node, frozenset())
    if dialect.max_groups is not None and writer.count > dialect.max_groups:
        # Too many groups for the engine's fast path: written again with every
        # repetition greedy, which takes no group (see Emitter.greedy).
        writer = Emitter(dialect, capture=capture, mark_empty=mark_empty, greedy=True)
        writer.source = writer.write(node, frozenset())
    return writer


class Emitter(NodeVisitor[str]):
    """One walk over an IR tree, writing it in one dialect.

    Each ``visit_<kind>`` method takes the node, the characters that may
    follow it and what comes after it (see :meth:`write`).
    """

    def __init__(
        self,
        dialect: Dialect,
        *,
        capture: bool = True,
        mark_empty: bool = False,
        greedy: bool = False,
    ) -> None:
        self.dialect = dialect
        #: Whether possessive repetitions are written greedy, for a dialect that
        #: spells them with groups (:attr:`Dialect.max_groups`). A greedy
        #: repetition the writer found possessive never needs to give back, and
        #: one whose item is one way (:func:`_possessive`) fails at once when it
        #: does: the cost stays linear. A loop of a character class or other
        #: options is then unrolled (``[c]*(?:%hh[c]*)*``) so that a run of the
        #: class is one engine step, not one per character.
        self.greedy = greedy
        self.capture = capture
        self.mark_empty = mark_empty
        self.source = ""
        self.groups: dict[str, list[str]] = {}
        #: Group name → its number (groups count from 1, in the order they open).
        self.numbers: dict[str, int] = {}
        #: Group name → the number of its marker (``mark_empty``), for groups that may be empty.
        self.markers: dict[str, int] = {}
        self.count = 0
        # The marker group of each option or repeated item being written (0: none).
        self._scopes: list[int] = []
        #: How many lookaheads that spell a possessive repetition (ECMAScript)
        #: enclose what is being written: inside one, nothing is given back.
        self.atomic = 0

    def names(self) -> dict[str, tuple[str, ...]]:
        """Per captured production, its group names in the order they were written."""
        return {name: tuple(groups) for name, groups in self.groups.items()}

    @staticmethod
    def atom(source: str) -> str:
        """``source`` wrapped so that a quantifier applies to all of it."""
        return _atom(source)

    def new_group(self) -> int:
        """The number of a capture group about to be opened."""
        self.count += 1
        return self.count

    def write(self, node: Node, follow: frozenset[str], after: _After = None) -> str:
        """``node`` as a regex; ``follow`` holds the characters that may come next.

        ``after`` is the node that comes next and what may follow it, when
        that is known (see :func:`_possessive`).
        """
        return self.visit(node, follow, after)

    def visit_chars(self, node: Chars, follow: frozenset[str], after: _After) -> str:
        return self.char_class(node.chars)

    def visit_lit(self, node: Lit, follow: frozenset[str], after: _After) -> str:
        return "".join(self.literal_char(c, node.ignore_case) for c in node.text)

    def visit_end(self, node: End, follow: frozenset[str], after: _After) -> str:
        return self.dialect.end

    def visit_seq(self, node: Seq, follow: frozenset[str], after: _After) -> str:
        # The items are written from the start, so that groups are numbered
        # as they open.
        return "".join(
            self.write(item, item_follow, item_after)
            for item, (item_follow, item_after) in zip(
                node.items, _contexts(node, follow, after), strict=True
            )
        )

    def visit_alt(self, node: Alt, follow: frozenset[str], after: _After) -> str:
        return "(?:" + "|".join(self._option(o, follow, after) for o in node.options) + ")"

    def visit_group(self, node: Group, follow: frozenset[str], after: _After) -> str:
        if not self.capture:
            return self.write(node.item, follow, after)
        taken = self.groups.setdefault(node.name, [])
        name = self.dialect.group_name(node.name, len(taken))
        if name in self.numbers:
            raise ValueError(f"group name {name} written twice")
        taken.append(name)
        self.numbers[name] = self.new_group()
        if self.mark_empty and node.nullable and self._scopes and self._scopes[-1]:
            self.markers[name] = self._scopes[-1]
        return self.dialect.named_group(name, self.write(node.item, follow, after))

    def visit_rep(self, node: Rep, follow: frozenset[str], after: _After) -> str:
        quantifier = {(0, None): "*", (1, None): "+", (0, 1): "?"}.get((node.low, node.high))
        if quantifier is None:
            high = "" if node.high is None else str(node.high)
            quantifier = f"{{{node.low},{high}}}"
        inner = _inner_follow(node, follow)

        possessive = _possessive(node, follow, after)

        def body() -> str:
            return self._scope(node.item, lambda: self.write(node.item, inner))

        def runs() -> str:
            # (?:[c]|%hh)*+ as (?:[c]++|%hh)*+: the same language (a possessive
            # loop of options that begin differently), one engine step per run
            # of plain characters instead of one per character.
            assert isinstance(node.item, Alt)
            options = (
                self.possessive(partial(self.char_class, o.chars), "+")
                if isinstance(o, Chars)
                else self._option(o, inner, None)
                for o in node.item.options
            )
            return self._scope(node.item, lambda: "(?:" + "|".join(options) + ")")

        holds_groups = self.capture and captures(node.item)
        if possessive and (self.dialect.possessive_groups or not holds_groups):
            hoisted = self._hoisted_runs(node)
            if hoisted is not None:
                return hoisted
            if (
                self.dialect.possessive_runs
                and node.high is None
                and isinstance(node.item, Alt)
                and any(isinstance(o, Chars) for o in node.item.options)
            ):
                if not self.greedy:
                    return self.possessive(runs, quantifier)
                unrolled = self._unrolled(node, inner)
                if unrolled is not None:
                    return unrolled
            return self.possessive(body, quantifier)
        return _atom(body()) + quantifier

    def possessive(self, body: Callable[[], str], quantifier: str) -> str:
        """A repetition the writer found possessive, spelled the dialect's way or greedy."""
        if self.greedy:
            return _atom(body()) + quantifier
        return self.dialect.possessive(self, body, quantifier)

    def _unrolled(self, node: Rep, follow: frozenset[str]) -> str | None:
        """``*( c | x )`` as ``[c]*(?:x[c]*)*`` and ``1*( c | x )`` as ``(?:[c]|x)[c]*(?:x[c]*)*``.

        The same languages (``(c|x)*`` is ``c*(xc*)*``); a backtracking
        engine steps once per ``x`` and once per run of ``[c]`` (see
        :attr:`Emitter.greedy`). ``None`` for other bounds, for an item that
        needs a marker (its iterations are not units here), and for ``1*``
        with a captured production (written twice).
        """
        item = node.item
        assert isinstance(item, Alt)
        if node.low > 1 or (self.mark_empty and _HOLDS_EMPTY.visit(item)):
            return None
        if node.low == 1 and self.capture and captures(item):
            return None
        chars = frozenset().union(*(o.chars for o in item.options if isinstance(o, Chars)))
        others = [o for o in item.options if not isinstance(o, Chars)]
        run = self.char_class(chars)
        # Written once: for 1* it holds no group, so it can stand twice.
        rest = "|".join(self._option(o, follow, None) for o in others)
        step = rest if len(others) == 1 else f"(?:{rest})"
        loop = f"{run}*(?:{step}{run}*)*" if others else f"{run}*"
        if node.low == 0:
            return loop
        return f"(?:{run}|{rest}){loop}" if others else f"{run}+"

    def _hoisted_runs(self, node: Rep) -> str | None:
        """A possessive ``*( *R X )`` or ``1*( *R X )`` (R and X disjoint) with its runs hoisted.

        ``_runs_ending_in`` writes ``*[ alphadigit | "-" ] alphadigit`` as
        ``1*( *"-" alphadigit )``; possessive, ``(?:\\-*+[X])*+`` steps
        through the loop once per character. ``X*+(?:R++X++)*+`` (and
        ``R*+X++(?:R++X++)*+`` for at least one) is the same language, a run
        of R and X that ends with an X, matched as the loop matches it (to
        the last X of the run), with one step per run instead: a label with
        no ``-`` is one step. Each repetition is spelled the dialect's way
        (in ECMAScript a run of one class is then a simple loop that V8's
        matcher runs without a backtracking entry per character). ``None``
        where ``node`` is not of that shape.
        """
        item = node.item
        if not (
            node.high is None
            and node.low in (0, 1)
            and isinstance(item, Seq)
            and len(item.items) == 2
        ):
            return None
        run, last = item.items
        if not (
            isinstance(run, Rep)
            and (run.low, run.high) == (0, None)
            and isinstance(run.item, Chars)
            and isinstance(last, Chars)
            and not (run.item.chars & last.chars)
        ):
            return None
        rest, end = self.char_class(run.item.chars), self.char_class(last.chars)

        def runs(chars: str, quantifier: str) -> str:
            return self.possessive(lambda: chars, quantifier)

        head = runs(end, "*") if node.low == 0 else runs(rest, "*") + runs(end, "+")
        # The groups of a dialect that spells possessive runs with them
        # (ECMAScript) are numbered as they open: the head's first.
        return head + self.possessive(lambda: runs(rest, "+") + runs(end, "+"), "*")

    def _option(self, option: Node, follow: frozenset[str], after: _After) -> str:
        return self._scope(option, lambda: self.write(option, follow, after))

    def _scope(self, node: Node, body: Callable[[], str]) -> str:
        """``node``, an option or a repeated item: a unit that takes part in a match or not.

        With ``mark_empty``, a unit that always holds a captured production
        that can be empty gets a marker: a plain capture group around it where
        the unit cannot be empty (its never empty capture marks whether that
        production took part), else a capture of the character before it.
        A production outside every option and repetition takes part in every
        match: it needs no marker.
        """
        marking = self.mark_empty and self.capture and _HOLDS_EMPTY.visit(node)
        # A unit that may itself be empty cannot mark with its own capture: its
        # marker captures the character before it (a lookbehind), which every
        # unit after the scheme has, and which is never empty.
        behind = marking and node.nullable
        marker = self.new_group() if marking else 0
        self._scopes.append(marker)
        try:
            source = body()
        finally:
            self._scopes.pop()
        if behind:
            return f"(?<=([\\s\\S])){source}"
        return f"({source})" if marking else source

    def literal_char(self, char: str, ignore_case: bool) -> str:
        """One character of a literal; ``ignore_case`` folds ASCII letters only."""
        # Case folding is spelled out, never re.IGNORECASE (see ir.folded).
        letters = folded(char, ignore_case)
        return self.char_class(letters) if len(letters) > 1 else self.dialect.literal_char(char)

    def char_class(self, chars: frozenset[str]) -> str:
        """One character out of ``chars``, as a class with ranges."""
        if len(chars) == 1:
            return self.dialect.literal_char(next(iter(chars)))
        body = ""
        for low, high in code_ranges(chars):
            if high - low >= 2:
                body += f"{self.dialect.class_char(low)}-{self.dialect.class_char(high)}"
            else:
                body += "".join(self.dialect.class_char(code) for code in range(low, high + 1))
        return f"[{body}]"


def code_ranges(chars: frozenset[str]) -> list[tuple[int, int]]:
    """The code points of ``chars`` as runs, lowest first: ``(first, last)`` of each."""
    ranges: list[tuple[int, int]] = []
    for code in sorted(ord(char) for char in chars):
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return ranges


class _HoldsEmpty(NodeVisitor[bool]):
    """Whether a node always holds a captured production that may be empty."""

    def visit_group(self, node: Group) -> bool:
        return node.nullable or self.visit(node.item)

    def visit_seq(self, node: Seq) -> bool:
        return any(self.visit(item) for item in node.items)

    def generic_visit(self, node: Node, *context: object) -> bool:
        return False  # an option or a repetition may take no part


_HOLDS_EMPTY = _HoldsEmpty()


#: The node that comes next and the characters that may follow it, if known.
_After = tuple[Node, frozenset[str]] | None


def _contexts(
    node: Seq, follow: frozenset[str], after: _After
) -> list[tuple[frozenset[str], _After]]:
    """For each item of ``node``: what may follow it, and the node that comes next."""
    contexts: list[tuple[frozenset[str], _After]] = []
    for item in reversed(node.items):
        contexts.append((follow, after))
        after = (item, follow)
        follow = item.first | follow if item.nullable else item.first
    contexts.reverse()
    return contexts


def _inner_follow(node: Rep, follow: frozenset[str]) -> frozenset[str]:
    """What may follow one iteration of ``node``: another one, or what follows it."""
    repeats = node.high is None or node.high > 1
    return node.item.first | follow if repeats else follow


def _possessive(node: Rep, follow: frozenset[str], after: _After) -> bool:
    """Whether ``node`` can be written possessive without changing what the whole matches.

    Its item must match in one way at most, as written (:class:`_OneWay`),
    and never the empty string; then a match never needs fewer iterations if
    the next one cannot begin where what follows begins: no character starts
    both. Failing that, when every iteration ends with a character out of a
    set ``E`` and the next node (non-empty) cannot hold one, nor be followed
    by a character an iteration may hold, what follows cannot take an
    iteration's text either (``*( domainlabel "." ) toplabel``).
    """
    item = node.item
    if item.nullable or not _ONE_WAY.visit(item, _inner_follow(node, follow), None):
        return False
    if not (item.first & follow):
        return True
    if after is None:
        return False
    following, beyond = after
    ends = _LAST_CHARS.visit(item)
    return (
        ends is not None
        and not following.nullable
        and not (_ALL_CHARS.visit(following) & ends)
        and not (beyond & _ALL_CHARS.visit(item))
    )


#: The most ways :func:`backtracking_ways` lets an expression try a text and
#: still call it linear: each way is a scan of the text at most once, so the
#: matcher's work stays within this many scans (the shipped grammar's most is
#: 8, gopher's: its host, hostname or hostnumber, and two optional parts).
MAX_WAYS = 64


def runs_in_linear_time(node: Node) -> bool:
    """Whether Python's ``re`` runs the expression of ``node`` (simplified) in linear time.

    True when :func:`backtracking_ways` is at most :data:`MAX_WAYS`. False
    does not mean that some text is slow, only that the writer cannot tell:
    a repetition it could not make possessive (``(?:a+)+``, six ``[A-Za-z]*``
    in a row, options that overlap inside a loop), or too many ways in all.
    """
    return backtracking_ways(node) <= MAX_WAYS


def backtracking_ways(node: Node) -> int:
    """A bound on the ways a backtracking matcher tries the expression of ``node`` on one text.

    As :class:`Writer` writes ``node`` (simplified) for Python: a possessive
    repetition is tried one way (its item matches one way, so the matcher
    steps through the text once, :func:`_possessive`); a sequence multiplies
    the ways of its items, options add theirs (or take the most, where they
    begin with different characters and cannot be empty: only one of them
    can go on at a position); a repetition that is not possessive has as
    many ways as it has counts of iterations, unbounded where it has no upper
    bound. Capped at ``MAX_WAYS + 1``. A matcher that tries at most this many
    ways, each a single pass over the text, takes time linear in the text.
    """
    return _WAYS.visit(node, frozenset(), None)


class _Ways(NodeVisitor[int]):
    """:func:`backtracking_ways` of a node, given what may follow it and what comes after it."""

    def visit_seq(self, node: Seq, follow: frozenset[str], after: _After) -> int:
        ways = 1
        for item, (item_follow, item_after) in zip(
            node.items, _contexts(node, follow, after), strict=True
        ):
            ways = min(_CAP, ways * self.visit(item, item_follow, item_after))
        return ways

    def visit_alt(self, node: Alt, follow: frozenset[str], after: _After) -> int:
        each = [self.visit(option, follow, after) for option in node.options]
        return max(each) if _apart(node.options) else min(_CAP, sum(each))

    def visit_rep(self, node: Rep, follow: frozenset[str], after: _After) -> int:
        if _possessive(node, follow, after):
            return 1
        if node.high is None:
            return _CAP
        each_one = self.visit(node.item, _inner_follow(node, follow), None)
        ways = 1  # of the iterations every match has
        for _count in range(node.low):
            ways = min(_CAP, ways * each_one)
        total = step = ways  # and of each optional one after them
        for _count in range(node.low, node.high):
            if total >= _CAP:
                break
            step = min(_CAP, step * each_one)
            total = min(_CAP, total + step)
        return total

    def visit_group(self, node: Group, follow: frozenset[str], after: _After) -> int:
        return self.visit(node.item, follow, after)

    def generic_visit(self, node: Node, *context: object) -> int:
        if isinstance(node, Chars | Lit | End):
            return 1
        raise TypeError(f"no ways for {node!r}")


_CAP = MAX_WAYS + 1


def _apart(options: tuple[Node, ...]) -> bool:
    """Whether ``options`` cannot be empty and no two begin with the same character."""
    seen: set[str] = set()
    for option in options:
        if option.nullable or seen & option.first:
            return False
        seen |= option.first
    return True


class _OneWay(NodeVisitor[bool]):
    """Whether a node, as the writer writes it, matches in at most one way at a position."""

    def visit_group(self, node: Group, follow: frozenset[str], after: _After) -> bool:
        return self.visit(node.item, follow, after)

    def visit_seq(self, node: Seq, follow: frozenset[str], after: _After) -> bool:
        return all(
            self.visit(item, item_follow, item_after)
            for item, (item_follow, item_after) in zip(
                node.items, _contexts(node, follow, after), strict=True
            )
        )

    def visit_alt(self, node: Alt, follow: frozenset[str], after: _After) -> bool:
        return _apart(node.options) and all(self.visit(o, follow, after) for o in node.options)

    def visit_rep(self, node: Rep, follow: frozenset[str], after: _After) -> bool:
        return _possessive(node, follow, after)

    def generic_visit(self, node: Node, *context: object) -> bool:
        return isinstance(node, Chars | Lit)


class _LastChars(NodeVisitor[frozenset[str] | None]):
    """The characters every match of a node ends with, if it always ends with one of a set."""

    def visit_chars(self, node: Chars) -> frozenset[str] | None:
        return node.chars

    def visit_lit(self, node: Lit) -> frozenset[str] | None:
        return folded(node.text[-1], node.ignore_case) if node.text else None

    def visit_group(self, node: Group) -> frozenset[str] | None:
        return self.visit(node.item)

    def visit_seq(self, node: Seq) -> frozenset[str] | None:
        return self.visit(node.items[-1])

    def generic_visit(self, node: Node, *context: object) -> frozenset[str] | None:
        return None


class _AllChars(Fold[frozenset[str]]):
    """Every character a match of a node may hold."""

    def visit_chars(self, node: Chars) -> frozenset[str]:
        return node.chars

    def visit_lit(self, node: Lit) -> frozenset[str]:
        return frozenset().union(*(folded(c, node.ignore_case) for c in node.text))

    def combine(self, results: list[frozenset[str]]) -> frozenset[str]:
        return frozenset().union(*results)


_WAYS, _ONE_WAY, _LAST_CHARS, _ALL_CHARS = _Ways(), _OneWay(), _LastChars(), _AllChars()


def _atom(source: str) -> str:
    """``source`` wrapped so that a quantifier applies to all of it."""
    if len(source) == 1 or (len(source) == 2 and source[0] == "\\"):
        return source
    if (
        source.startswith("[")
        and source.endswith("]")
        and source.count("]") == 1 + source.count("\\]")
    ):
        return source
    if source.startswith("(") and _closes_at_end(source):
        return source
    return f"(?:{source})"


def _closes_at_end(source: str) -> bool:
    depth = 0
    escaped = in_class = False
    for index, char in enumerate(source):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0 and index != len(source) - 1:
                return False
    return depth == 0
