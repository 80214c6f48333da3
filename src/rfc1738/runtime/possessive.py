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
wrote: as written where the Python reads it right, else in the first of
:data:`FORMS` that the Python matches right (:func:`form`): every possessive
repetition of a group as an atomic group around the greedy repetition (the
same language, nothing given back once the group has matched), or, should
that be wrong too, as the greedy repetition alone (the same language: the
writer made it possessive only where giving back never makes a match).
The writer spells each expression in every form at build time
(:data:`rfc1738.compile.emit.PYTHON_FORMS`), and the tables keep each form
that differs (a table's ``expression_forms`` and ``prefixes_forms``), so
nothing here reads or rewrites an expression's text. Group names and numbers
are the same in every form: neither spelling adds a capture group.

Which form the Python needs is found once, when the first expression is
compiled (:func:`form`): CPython 3.11.5 and later read the possessive form
right; any other Python is asked, by matching :func:`probe` in each form
(:func:`probed`). The probe holds the defect, so a 3.11.0 to 3.11.4 that had
the fix backported reads the faster form, and another implementation gets
the form it reads right; the tests run the probe on every Python they run on.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from functools import cache

__all__ = [
    "FIXED_IN",
    "FORMS",
    "PROBE_TEXT",
    "compile_expression",
    "form",
    "probe",
    "probed",
    "repetition",
]

#: The first CPython that reads possessive repetitions of groups right (gh-106052).
FIXED_IN = (3, 11, 5)

#: The spellings of a possessive repetition of a group, fastest first: as the
#: writer writes it (``(?:x)*+``), an atomic group (``(?>(?:x)*)``), greedy (``(?:x)*``).
FORMS = ("possessive", "atomic", "greedy")

#: The text every form of :func:`probe` must match in full.
PROBE_TEXT = "aaca"


def repetition(atom: str, quantifier: str, spelling: str) -> str:
    """The possessive repetition ``atom`` ``quantifier`` (``*``, ``+``, ``?``, ``{m,n}``), spelled.

    ``atom`` is what the quantifier applies to (a group, a class, one
    character); only a group's repetition is spelled otherwise than ``x*+``.
    The regex writer spells each repetition with it (:mod:`rfc1738.compile.emit`).

    >>> repetition("(?:ab)", "*", "atomic"), repetition("a", "+", "atomic")
    ('(?>(?:ab)*)', 'a++')
    """
    if spelling == "possessive" or not atom.startswith("("):
        return f"{atom}{quantifier}+"
    if spelling == "atomic":
        return f"(?>{atom}{quantifier})"
    return f"{atom}{quantifier}"


def probe(spelling: str) -> str:
    """The probe in ``spelling``: two possessive repetitions of a group, each with a pass
    that fails part-way, after its inner optional ``b`` has matched.

    On CPython 3.11.0 to 3.11.4 the possessive form goes on after ``a`` for
    the ``?+`` and after the third character for the ``*+``, and does not
    match :data:`PROBE_TEXT`.

    >>> probe("possessive"), probe("atomic")
    ('(?:ab?c)?+a(?:ab?c)*+a', '(?>(?:ab?c)?)a(?>(?:ab?c)*)a')
    """
    group = "(?:ab?c)"
    return f"{repetition(group, '?', spelling)}a{repetition(group, '*', spelling)}a"


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
    """The first of :data:`FORMS` in which the running Python matches :func:`probe` right."""
    for spelling in FORMS[:-1]:
        if re.fullmatch(probe(spelling), PROBE_TEXT):
            return spelling
    return FORMS[-1]


def compile_expression(source: str, forms: Mapping[str, str]) -> re.Pattern[str]:
    """``source``, as the regex writer wrote it, compiled in the form this Python matches right.

    ``forms``: the same expression written in each other form it differs in
    (a table's ``expression_forms`` or ``prefixes_forms``): the writer
    spelled them at build time, and none is rewritten here.
    """
    return re.compile(forms.get(form(), source))
