"""What the URL objects assume of a grammar and of their classes, checked before one is built.

An object takes its scheme from before the first ``:`` of its text (and the
grammar file that reads it is chosen the same way), reads each field from
the span of one production of its start rule, and writes each field back
into one place of that rule (:mod:`rfc1738.runtime.layout`). An edited grammar
or a class of one's own can break these assumptions; each break is a
:class:`~rfc1738.GrammarError` that says which, instead of a crash or a
wrong text later:

- :func:`check_given`, run by :func:`rfc1738.load` itself, checks each class
  it is given: a :class:`~rfc1738.URL` class, for a scheme the directory has
  a file for, declaring fields (a class without any, on a start rule with
  parts to hold, is a class pasted without its field lines), each field's
  production and the production it escapes with defined by the scheme's
  file, and :func:`check_chosen`'s check;
- :func:`check_chosen`, run when a scheme's class is first chosen (before
  the first object of the scheme is built, as a grammar file that does not
  load is reported then): no production a field reads occurs twice in one
  URL of the start rule (``"http://" hostport "/" hpath "/" hpath``:
  which ``hpath`` would ``path`` be?);
- :func:`check_generic`, run when the generic class is first chosen: the
  generic file's start rule accepts no text without ``:``.

The shipped grammar, and a copy whose files are byte for byte the shipped
ones, are not checked again with the classes they have by default: the
tests hold them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..bnf.files import GENERIC
from ..bnf.names import base_name
from ..errors import GrammarError
from ..runtime.layout import Layout, write
from ..runtime.store import shipped_tables
from .base import URL
from .generic import GenericURL

if TYPE_CHECKING:
    from .grammar import Grammar

__all__ = ["check_chosen", "check_generic", "check_given", "repeated"]

#: Where a class's fields are declared, for the messages.
_HOW_TO = 'docs/objects.md, "Declaring the fields of a class"'


def check_given(grammar: Grammar, classes: Mapping[str, Any]) -> None:
    """Check the classes :func:`rfc1738.load` is given, by scheme, against ``grammar``."""
    for scheme, cls in classes.items():
        if not (isinstance(cls, type) and issubclass(cls, URL)):
            raise TypeError(f"classes[{scheme!r}] must be a URL class, not {cls!r}")
        entry = grammar.files.get(scheme)
        if entry is None:
            raise GrammarError(
                f"classes gives {cls.__name__} for {scheme!r}, but there is no {scheme}.lark: "
                f"no URL would become one (the schemes: {', '.join(sorted(grammar.files))})",
                file=str(grammar.directory),
            )
        file = _file_of(scheme, cls)
        if not cls.DECLARED:
            _check_fieldless(grammar, file, cls)
            continue
        rules = _rules(grammar, file)
        for field in cls.DECLARED:
            if field.production not in rules:
                raise GrammarError(
                    f"{cls.__name__}.{field.name} reads {field.production}, which {file}.lark "
                    f"neither defines nor imports{_spelled(field.production, rules)}",
                    file=str(grammar.files[file].path),
                )
            if field.escape is not None and _undefined(grammar, file, field.escape):
                raise GrammarError(
                    f"{cls.__name__}.{field.name} is escaped with the characters of "
                    f"{field.escape}, which {file}.lark neither defines nor imports"
                    f"{_spelled(field.escape, rules)}",
                    file=str(grammar.files[file].path),
                )
        check_chosen(grammar, scheme, cls, given=True)


def check_chosen(grammar: Grammar, scheme: str, cls: Any, *, given: bool = False) -> None:
    """Check the class ``scheme``'s URLs become: no field production twice in one URL.

    ``given``: the class was given to :func:`rfc1738.load`, and is checked
    even on the shipped grammar's files. A start rule that is not regular
    has no layout, and is not checked: its objects are not written either.
    """
    if not given and _shipped_files(grammar):
        return
    file = _file_of(scheme, cls)
    layout = _layout(grammar, file, cls.layout_fields())
    if layout is None:
        return
    twice = sorted(repeated(layout))
    if not twice:
        return
    production = twice[0]
    reader = next(f.name for f in cls.DECLARED if production in f.parts(None))
    start = grammar.files[file].start
    raise GrammarError(
        f"{start} has {production} more than once in one URL, but {cls.__name__}.{reader} "
        f"reads and writes one {production}: a field's production may occur once in a URL "
        f"of its start rule (inside a repetition, the field takes one item a repetition)",
        file=str(grammar.files[file].path),
    )


def check_generic(grammar: Grammar) -> None:
    """Check that the generic file's start rule accepts no text without ``:``.

    The scheme of every URL is what comes before its first ``:``, and a text
    without one is read with the generic file: a generic rule that accepts
    it would make an object with no scheme. Decided on the rule's error
    automaton; a generic rule without one (not regular) is not checked.
    """
    if _shipped_files(grammar):
        return
    entry = grammar.files[GENERIC]
    automaton = grammar.tables.automaton(GENERIC, entry.start)
    if automaton is None:
        return
    example = automaton.shortest_accepted(excluding=":")
    if example is not None:
        raise GrammarError(
            f"{entry.start} accepts {example!r}, a text without ':'; a URL is "
            f"<scheme>:<scheme-specific-part> (RFC 1738 section 2.1), its scheme is what comes "
            f"before the first ':', and that picks the grammar file that reads it",
            file=str(entry.path),
        )


def repeated(layout: Layout) -> frozenset[str]:
    """The field productions some URL of ``layout`` holds more than once.

    A production inside a repetition counts once: the writer takes a tuple
    for it, one item a repetition (prospero's field names and values).

    >>> http = ("seq", (("lit", "http://", True), ("group", "host", None), ("chars", "/"),
    ...     ("group", "hpath", None), ("chars", "/"), ("group", "hpath", None)))
    >>> sorted(repeated(http))
    ['hpath']
    >>> repeated(("alt", (("group", "group", None), ("group", "article", None))))
    frozenset()
    """
    return frozenset(name for name, count in _most(layout).items() if count > 1)


def _most(layout: Layout) -> Counter[str]:
    """How many times, at most, one URL of ``layout`` holds each field production."""
    kind = layout[0]
    found: Counter[str] = Counter()
    if kind == "group":
        found[layout[1]] = 1
        if layout[2] is not None:
            found += _most(layout[2])
    elif kind == "seq":
        for item in layout[1]:
            found += _most(item)
    elif kind == "alt":
        for option in layout[1]:
            found |= _most(option)
    elif kind == "opt":
        found = _most(layout[2])
    elif kind == "rep":
        found = _most(layout[1])
    return found


# ---- what the checks read ----


def _file_of(scheme: str, cls: type[URL]) -> str:
    """The grammar file whose start rule ``cls`` reads and writes ``scheme``'s URLs with.

    A generic URL is written by the generic file's start rule, whichever
    file read it (a new scheme's file without a class of its own).
    """
    return GENERIC if issubclass(cls, GenericURL) else scheme


def _shipped_files(grammar: Grammar) -> bool:
    """Whether ``grammar``'s files are the shipped ones (its tables the wheel's)."""
    shipped = shipped_tables()
    return shipped is not None and grammar.tables.tables.key == shipped.key


def _rules(grammar: Grammar, file: str) -> frozenset[str]:
    """The rules ``<file>.lark`` defines or imports, as the file names them."""
    return frozenset(base_name(name) for name in grammar.tables.rules(file))


def _undefined(grammar: Grammar, file: str, name: str) -> bool:
    kind = "terminal" if name.isupper() else "rule"
    return grammar.tables.char_set(file, kind, name) is None


def _layout(grammar: Grammar, file: str, fields: frozenset[str]) -> Layout | None:
    """How ``<file>.lark``'s start rule lays out ``fields``; ``None`` if it cannot (not regular)."""
    # A file that does not load raises its GrammarError here, as on any first use.
    return grammar.tables.regular_layout(file, grammar.files[file].start, fields)


def _check_fieldless(grammar: Grammar, file: str, cls: type[URL]) -> None:
    """A class without fields: refused where its start rule has parts no field would hold."""
    layout = _layout(grammar, file, frozenset())
    if layout is None:
        return
    start = grammar.files[file].start
    try:
        write(layout, {}, scheme=file, start=start)
    except ValueError:
        raise GrammarError(
            f"{cls.__name__} declares no fields: its objects would hold none of {start}'s "
            f"parts, and replace() and normalize() could not write one. Declare each field "
            f"as a class attribute ({_HOW_TO})",
            file=str(grammar.files[file].path),
        ) from None


def _spelled(name: str, known: frozenset[str]) -> str:
    """``" (did you mean x?)"`` for a name close to one of ``known``, else ``""``."""
    # Only for a message: kept off the import of rfc1738.
    import difflib

    close = difflib.get_close_matches(name, sorted(known), n=1)
    return f" (did you mean {close[0]}?)" if close else ""
