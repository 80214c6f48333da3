"""Write a :mod:`rfc1738.parse.ir` tree as a Python regular expression.

Repetitions are made possessive (``*+``) where no match could need them to
give characters back: the repeated part matches in at most one way at any
position, and it cannot begin with a character that may follow it. That keeps
the expressions free of catastrophic backtracking without changing what they
accept.
"""

from __future__ import annotations

import re

from .ir import Alt, Chars, Group, Lit, Node, Rep, Seq

__all__ = ["Written", "simplify", "write_regex"]

#: The written expression and, per captured production, its group names in order.
Written = tuple[str, dict[str, tuple[str, ...]]]


def write_regex(node: Node) -> Written:
    """The regular expression for ``node`` (to be used with ``fullmatch``)."""
    writer = _Writer()
    return writer.write(simplify(node), frozenset()), {
        name: tuple(groups) for name, groups in writer.groups.items()
    }


class _Writer:
    def __init__(self) -> None:
        self.groups: dict[str, list[str]] = {}

    def write(self, node: Node, follow: frozenset[str]) -> str:
        """``node`` as a regex; ``follow`` holds the characters that may come next."""
        if isinstance(node, Chars):
            return _char_class(node.chars)
        if isinstance(node, Lit):
            return "".join(_literal_char(c, node.ignore_case) for c in node.text)
        if isinstance(node, Seq):
            parts: list[str] = []
            after = follow
            for item in reversed(node.items):
                parts.append(self.write(item, after))
                after = item.first | after if item.nullable else item.first
            return "".join(reversed(parts))
        if isinstance(node, Alt):
            return "(?:" + "|".join(self.write(option, follow) for option in node.options) + ")"
        if isinstance(node, Rep):
            return self._repetition(node, follow)
        if isinstance(node, Group):
            taken = self.groups.setdefault(node.name, [])
            name = node.name if not taken else f"{node.name}__{len(taken) + 1}"
            taken.append(name)
            return f"(?P<{name}>{self.write(node.item, follow)})"
        raise TypeError(f"cannot write {node!r} as a regular expression")

    def _repetition(self, node: Rep, follow: frozenset[str]) -> str:
        # Within the repetition, an iteration may be followed by another one.
        repeats = node.high is None or node.high > 1
        inner = self.write(node.item, node.item.first | follow if repeats else follow)
        quantifier = {(0, None): "*", (1, None): "+", (0, 1): "?"}.get((node.low, node.high))
        if quantifier is None:
            high = "" if node.high is None else str(node.high)
            quantifier = f"{{{node.low},{high}}}"
        possessive = node.item.fixed and not node.item.nullable and not (node.item.first & follow)
        return _atom(inner) + quantifier + ("+" if possessive else "")


def simplify(node: Node) -> Node:
    """``node`` with absorbed tails dropped throughout (see :func:`_absorb_tails`)."""
    if isinstance(node, Seq):
        items = _absorb_tails(tuple(simplify(item) for item in node.items))
        return items[0] if len(items) == 1 else Seq(items)
    if isinstance(node, Alt):
        return _factor(tuple(simplify(option) for option in node.options))
    if isinstance(node, Rep):
        return Rep(simplify(node.item), node.low, node.high)
    if isinstance(node, Group):
        return Group(node.name, simplify(node.item))
    return node


def _factor(options: tuple[Node, ...]) -> Node:
    """Options that all begin with the same part, with that part written once.

    ``domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit``
    becomes ``alphadigit [ *[ alphadigit | "-" ] alphadigit ]``: the same
    language, but the matcher reads the first character once instead of once
    per option.
    """
    heads = [_head(option) for option in options]
    first = heads[0][0]
    if first is None or any(head != first for head, _rest in heads) or len(options) < 2:
        return Alt(options)
    rests = [rest for _head_, rest in heads]
    present = [rest for rest in rests if rest is not None]
    if not present:
        return first
    tail = present[0] if len(present) == 1 else _factor(tuple(present))
    return Seq((first, Rep(tail, 0, 1) if len(present) < len(rests) else tail))


def _head(node: Node) -> tuple[Node | None, Node | None]:
    """``node`` as its first part and the rest (``None`` when nothing follows)."""
    if isinstance(node, Seq):
        rest = node.items[1:]
        return node.items[0], (rest[0] if len(rest) == 1 else Seq(rest))
    if isinstance(node, Group):
        return None, None  # a captured production stays whole
    return node, None


def _absorb_tails(items: tuple[Node, ...]) -> tuple[Node, ...]:
    """Drop what follows ``x*`` when ``x*`` alone already matches all of it.

    ``gopherurl`` has ``selector [ "%09" search ... ]`` with ``selector =
    *xchar``: every string the optional tail matches is itself a run of
    xchars, so ``*xchar`` followed by the tail is the same language as
    ``*xchar`` alone. Written as is, the tail makes the expression try every
    ``%09`` as a split point, in every combination; without it, the
    repetition can be possessive. Tails holding a captured production stay.
    """
    for index, item in enumerate(items):
        if not (isinstance(item, Rep) and item.high is None and item.item.fixed):
            continue
        rest = items[index + 1 :]
        if rest and all(r.nullable and _within(r, item.item) for r in rest):
            return items[: index + 1]
    return items


def _within(node: Node, unit: Node) -> bool:
    """Whether every match of ``node`` is a run of matches of ``unit`` (no captures)."""
    if isinstance(node, Group):
        return False
    if node == unit or (isinstance(unit, Alt) and node in unit.options):
        return True
    if isinstance(node, Chars):
        return any(isinstance(o, Chars) and node.chars <= o.chars for o in _options(unit))
    if isinstance(node, Lit):
        run = re.compile(_atom(_Writer().write(unit, frozenset())) + "*")
        variants = (
            {node.text, node.text.lower(), node.text.upper()} if node.ignore_case else {node.text}
        )
        return all(run.fullmatch(text) for text in variants)
    if isinstance(node, Seq):
        return all(_within(item, unit) for item in node.items)
    if isinstance(node, Alt):
        return all(_within(option, unit) for option in node.options)
    if isinstance(node, Rep):
        return _within(node.item, unit)
    return False


def _options(node: Node) -> tuple[Node, ...]:
    return node.options if isinstance(node, Alt) else (node,)


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


def _literal_char(char: str, ignore_case: bool) -> str:
    # Case folding is spelled out for ASCII letters only: Python's re.IGNORECASE
    # would also let "K" match the Kelvin sign, which section 2.1 does not.
    if ignore_case and char.isascii() and char.isalpha():
        return _char_class(frozenset({char.lower(), char.upper()}))
    return re.escape(char)


def _char_class(chars: frozenset[str]) -> str:
    if len(chars) == 1:
        return re.escape(next(iter(chars)))
    codes = sorted(ord(c) for c in chars)
    ranges: list[tuple[int, int]] = []
    for code in codes:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    body = ""
    for low, high in ranges:
        if high - low >= 2:
            body += f"{_class_char(low)}-{_class_char(high)}"
        else:
            body += "".join(_class_char(code) for code in range(low, high + 1))
    return f"[{body}]"


def _class_char(code: int) -> str:
    char = chr(code)
    if char in "\\]^-[":
        return "\\" + char
    if 0x21 <= code <= 0x7E:
        return char
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"
