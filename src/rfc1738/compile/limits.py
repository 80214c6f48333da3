"""How large a grammar the compiler takes: the limits, and the error past them.

An edited grammar can ask the compiler for any amount of work: a literal of
a million characters, ``("a"~1000)~1000`` (a million characters written
out), rules nested or chained deeper than Python's recursion goes, an error
automaton whose states double with each repetition. Past these limits
:func:`rfc1738.load` (or the first use of the scheme, for the automaton's
states) raises :class:`GrammarLimitError`, naming the rule and the limit, in
a fraction of a second. Each is far above what RFC 1738's grammar needs (its
figure in parentheses, measured on the shipped grammar on 2026-11-26 by
translating each start rule); docs/parsers.md states them.
"""

from __future__ import annotations

# GrammarLimitError is rfc1738.errors' (run time names it too), importable from here as before.
from ..errors import GrammarLimitError

__all__ = [
    "MAX_DEPTH",
    "MAX_LITERAL",
    "MAX_REPEAT",
    "MAX_SIZE",
    "MAX_STATES",
    "GrammarLimitError",
]

#: The most characters one literal may have (RFC 1738: 11, ``"prospero://"``).
MAX_LITERAL = 1_000

#: The largest count a repetition may name (``x~n``, ``x~m..n``; RFC 1738: 1,
#: the ``1*`` of ``x+``).
MAX_REPEAT = 1_000

#: The most characters a start rule may hold, a character set counting one,
#: with its repetitions written out once each and its bounded ones as often as
#: their bound (``("a"~10)~10`` holds 100): the automata have a node for each
#: (RFC 1738: 105, wais's).
MAX_SIZE = 3_000

#: How deep rules and parentheses may nest, counting each rule a rule names on
#: the way down (a chain of rules that each name the next is as deep as it is
#: long; RFC 1738: 21, generic's). Deeper, the readers of the grammar would
#: exhaust Python's recursion.
MAX_DEPTH = 100

#: The most states a scheme's error automaton may have (RFC 1738: 152, ftp's).
#: A start rule of MAX_SIZE characters in a row needs about as many.
MAX_STATES = 4_000
