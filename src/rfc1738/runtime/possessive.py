"""Possessive repetitions on the Python that runs them: CPython 3.11.0 to 3.11.4 misread some.

The regex writer (:mod:`rfc1738.compile.emit`) makes a repetition possessive
(``x*+``) where no match needs it to give characters back, and the compiled
tables hold its expressions as written, whatever Python wrote them. CPython
before 3.11.5 matches a possessive repetition of a *group* wrongly when a
pass of it fails part-way, after a repetition, an option or a lookahead
inside it has matched: the match goes on from where that inner part stopped,
not from where the failed pass began (CPython gh-106052). The shipped host
``(?:[0-9A-Za-z][0-9A-Za-z]*+…\\.)*+[A-Za-z]…`` then rejects ``h``, and
``http://h/`` was no URL on Debian 12's ``python3`` (3.11.2). A possessive
run of one character or class (``[c]*+``) is matched by another opcode and
is right there, and so is an atomic group around a greedy repetition
(``(?>(?:…)*)``, Python 3.11's other spelling of the same thing).

:func:`compile_expression` is how the package compiles what the writer
wrote: as written where the Python reads it right, else with every possessive
repetition of a group spelled in the first :data:`FORMS` that the Python
matches right (:func:`form`): an atomic group around the greedy repetition
(the same language, nothing given back once the group has matched), or,
should that be wrong too, the greedy repetition alone (the same language: the
writer made it possessive only where giving back never makes a match). Group
names and numbers stay as written: neither spelling adds a capture group.

Which form the Python needs is found once, when the first expression is
compiled (:func:`form`): CPython 3.11.5 and later read the possessive form
right; any other Python is asked, by matching :data:`PROBE` in each form
(:func:`probed`). The probe holds the defect, so a 3.11.0 to 3.11.4 that had
the fix backported reads the faster form, and another implementation gets
the form it reads right; the tests run the probe on every Python they run on.
"""

from __future__ import annotations

import re
import sys
from functools import cache

__all__ = [
    "FIXED_IN",
    "FORMS",
    "PROBE",
    "compile_expression",
    "form",
    "probed",
    "repetition",
    "spelled",
]

#: The first CPython that reads possessive repetitions of groups right (gh-106052).
FIXED_IN = (3, 11, 5)

#: The spellings of a possessive repetition of a group, fastest first: as the
#: writer writes it (``(?:x)*+``), an atomic group (``(?>(?:x)*)``), greedy (``(?:x)*``).
FORMS = ("possessive", "atomic", "greedy")

#: A pattern as the writer spells it, and a text it must match in full. Each
#: possessive repetition holds a pass that fails part-way, after an inner
#: optional ``b``: on CPython 3.11.0 to 3.11.4 the ``?+`` goes on after ``a``
#: and the ``*+`` after the third character, and the match fails.
PROBE = ("(?:ab?c)?+a(?:ab?c)*+a", "aaca")

# One token of an expression: an escape, a character class, an opening
# parenthesis, a closing one with the possessive quantifier after it if any,
# or a run of anything else. The writer escapes "]" inside a class.
_TOKEN = r"\\.|\[(?:\\.|[^\]\\])*\]|\(|\)(?:(?:[*+?]|\{[0-9]*,?[0-9]*\})\+)?|[^\\\[()]+|."


def repetition(atom: str, quantifier: str, spelling: str) -> str:
    """The possessive repetition ``atom`` ``quantifier`` (``*``, ``+``, ``?``, ``{m,n}``), spelled.

    ``atom`` is what the quantifier applies to (a group, a class, one
    character); only a group's repetition is spelled otherwise than ``x*+``.

    >>> repetition("(?:ab)", "*", "atomic"), repetition("[a-z]", "+", "atomic")
    ('(?>(?:ab)*)', '[a-z]++')
    """
    if spelling == "possessive" or not atom.startswith("("):
        return f"{atom}{quantifier}+"
    if spelling == "atomic":
        return f"(?>{atom}{quantifier})"
    return f"{atom}{quantifier}"


def spelled(source: str, spelling: str) -> str:
    """``source`` (as the writer writes it) with each possessive repetition of a group spelled so.

    >>> spelled(r"(?:[a-z][a-z]*+\\.)*+[a-z]", "atomic")
    '(?>(?:[a-z][a-z]*+\\\\.)*)[a-z]'
    """
    if spelling == "possessive":
        return source
    out: list[str] = []
    #: Where in ``out`` each group still open begins.
    opened: list[int] = []
    # Compiled here, not at import: only a Python that needs another form gets here.
    for token in re.findall(_TOKEN, source, re.DOTALL):
        if token == "(":
            opened.append(len(out))
        elif token.startswith(")") and len(token) > 1 and opened:
            begin = opened.pop()
            atom = "".join(out[begin:]) + ")"
            del out[begin:]
            token = repetition(atom, token[1:-1], spelling)
        elif token == ")" and opened:
            opened.pop()
        out.append(token)
    return "".join(out)


@cache
def form() -> str:
    """The form this Python needs: as written on CPython 3.11.5 and later, else :func:`probed`.

    Known from the version where it can be: the probe compiles a pattern,
    a tenth of a millisecond of the start-up this module is on the path of.
    """
    if sys.implementation.name == "cpython" and sys.version_info >= FIXED_IN:
        return FORMS[0]
    return probed()


def probed() -> str:
    """The first of :data:`FORMS` in which the running Python matches :data:`PROBE`."""
    pattern, text = PROBE
    for spelling in FORMS[:-1]:
        if re.fullmatch(spelled(pattern, spelling), text):
            return spelling
    return FORMS[-1]


def compile_expression(source: str) -> re.Pattern[str]:
    """``source``, as the regex writer wrote it, compiled in the form this Python matches right."""
    chosen = form()
    return re.compile(source if chosen == "possessive" else spelled(source, chosen))
