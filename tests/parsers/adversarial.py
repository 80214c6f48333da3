"""Inputs built to make a backtracking matcher slow, for every loop of a compiled start rule.

For each unbounded repetition of the tree the compiler writes
(:meth:`~rfc1738.compile.pipeline.CompiledFile.ir`), :func:`inputs` builds texts
that reach it (the shortest text of everything before it), repeat one of its
items many times, and end: validly, validly then with a character no URL
holds, or with that character right after the repetition. That is what
makes nested loops (``(?:a+)+b``), adjacent ones (``[A-Za-z]*[A-Za-z]*!``)
and options that overlap inside a loop (``(?:[a-z]|ab)*``) try the same
characters many ways, if the expression lets them.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rfc1738.compile.ir import Alt, Chars, Group, Lit, Node, Rep, Seq

#: Characters RFC 1738 says must be encoded (section 2.2): what ends a text off
#: the grammar is the first of them the tree does not match.
UNSAFE = ' <>"#{}|\\^~[]`\x00'


@dataclass(frozen=True)
class Adversarial:
    """A text of about ``size`` characters: ``before``, ``pump`` repeated, ``after``."""

    label: str
    before: str
    pump: str
    after: str
    #: Whether the text is in the start rule's language (the host checks aside).
    valid: bool

    def text(self, size: int) -> str:
        """The text of about ``size`` characters."""
        count = max(1, (size - len(self.before) - len(self.after)) // len(self.pump))
        return self.before + self.pump * count + self.after


def witness(node: Node) -> str:
    """The shortest text ``node`` matches (the first of an alternative's shortest)."""
    if isinstance(node, Chars):
        return min(node.chars)
    if isinstance(node, Lit):
        return node.text
    if isinstance(node, Seq):
        return "".join(witness(item) for item in node.items)
    if isinstance(node, Alt):
        return min((witness(option) for option in node.options), key=len)
    if isinstance(node, Rep):
        return witness(node.item) * node.low
    if isinstance(node, Group):
        return witness(node.item)
    raise TypeError(f"no witness for {node!r}")


def loops(node: Node) -> Iterator[tuple[str, Rep, str]]:
    """Each unbounded repetition of ``node``, with a text before and after that reach it.

    ``before + x + after`` is in ``node``'s language for every ``x`` the
    repetition matches.
    """
    if isinstance(node, Rep):
        if node.high is None:
            yield "", node, ""
        rest = witness(node.item) * max(0, node.low - 1)
        for before, loop, after in loops(node.item):
            yield before, loop, after + rest
    elif isinstance(node, Seq):
        texts = [witness(item) for item in node.items]
        for index, item in enumerate(node.items):
            head, tail = "".join(texts[:index]), "".join(texts[index + 1 :])
            for before, loop, after in loops(item):
                yield head + before, loop, after + tail
    elif isinstance(node, Alt):
        for option in node.options:
            yield from loops(option)
    elif isinstance(node, Group):
        yield from loops(node.item)


def pumps(loop: Rep) -> list[str]:
    """What to repeat: the item's shortest text, and each option's where the item has options."""
    found = [witness(loop.item)]
    item = loop.item.item if isinstance(loop.item, Group) else loop.item
    if isinstance(item, Alt):
        found.extend(witness(option) for option in item.options)
        # Two options in turn: where one overlaps the other's end, the ways multiply.
        found.extend(witness(a) + witness(b) for a, b in itertools.pairwise(item.options))
    return [pump for pump in dict.fromkeys(found) if pump]


def characters(node: Node) -> frozenset[str]:
    """Every character a text ``node`` matches may hold."""
    if isinstance(node, Chars):
        return node.chars
    if isinstance(node, Lit):
        return frozenset(node.text + node.text.lower() + node.text.upper())
    if isinstance(node, Seq | Alt):
        parts = node.items if isinstance(node, Seq) else node.options
        return frozenset().union(*(characters(part) for part in parts))
    if isinstance(node, Rep | Group):
        return characters(node.item)
    raise TypeError(f"no characters for {node!r}")


def inputs(node: Node, label: str) -> list[Adversarial]:
    """The adversarial texts of every loop of ``node`` (the tree of a start rule)."""
    held = characters(node)
    bad = next(char for char in UNSAFE if char not in held)
    found: dict[tuple[str, str, str], Adversarial] = {}
    for number, (before, loop, after) in enumerate(loops(node)):
        for pump in pumps(loop):
            name = f"{label} loop {number} {pump!r}"
            for ending, valid, end in (
                ("valid", True, after),
                ("then bad", False, after + bad),
                ("bad at once", False, bad),
            ):
                key = (before, pump, end)
                if key not in found:
                    found[key] = Adversarial(f"{name} {ending}", before, pump, end, valid)
    return list(found.values())


def growth(call: Callable[[str], object], small: str, large: str) -> float:
    """How many times longer ``call(large)`` takes than ``call(small)`` (each the best of three)."""
    return best(call, large) / best(call, small)


def best(call: Callable[[str], object], text: str) -> float:
    """The best time of one ``call(text)``, per call, over three batches of a few milliseconds.

    Batches of as many calls as take two milliseconds, so that the clock's
    grain and a busy machine count for little.
    """
    began = time.perf_counter()
    call(text)
    once = max(time.perf_counter() - began, 1e-7)
    number = max(1, int(0.002 / once))
    times = []
    for _batch in range(3):
        began = time.perf_counter()
        for _call in range(number):
            call(text)
        times.append((time.perf_counter() - began) / number)
    return min(times)
