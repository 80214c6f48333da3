"""How a start rule lays out the productions that become fields: read, and written back.

A URL class names the productions its fields come from (``host``, ``port``,
``hpath``, ``search`` for ``httpurl``). The compiler
(:meth:`~rfc1738.compile.pipeline.CompiledFile.layout`) turns the IR of the
start rule, with a group per such production, into a :data:`Layout`: the
literals between the fields (``"http://"``, ``":"``, ``"/"``, ``"?"``), which
parts are optional, which are alternatives, and where each field goes.
Everything the URL objects write between their fields comes from here, so from
the grammar files. Layouts are compiled with the tables (the wheel's, or the
disk cache's): this module only reads and writes them, and imports no IR.

A layout is plain data (nested tuples of strings, numbers and booleans), so
that a generated standalone module can hold it as a table:

- ``("lit", text, ignore_case)``: a literal;
- ``("chars", chars)``: one character out of ``chars``;
- ``("group", name, inner)``: a field's production; ``inner`` is the layout
  inside it when other fields are inside it too (``schemepart`` holds the
  ``//login`` fields), else ``None``;
- ``("seq", items)``, ``("alt", options)``;
- ``("opt", number, item)``: ``[ item ]``, numbered in the layout;
- ``("rep", item, low, high)``: any other repetition (``high`` ``-1``: no limit).

:func:`write` writes a URL from the raw text of each field; :func:`unheld`
finds what a URL's text has of the parts that hold no field, so that a
rewrite keeps them as written: which optional ones it has (the final ``/``
of ``telnet://h/``, :func:`present`), and the text of those that may be
written more ways than one (the user and password of an http rule edited to
take a login, where :class:`~rfc1738.HttpURL` has no field for them). The
rest are named queries the URL classes ask of their start rule
(:func:`literal_before`, :func:`literal_options`, :func:`fieldless_options`,
:func:`fields_in`). Each walk is either a pass (a :class:`LayoutVisitor`:
one method per kind of node) or a look over :func:`nodes`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

from .spans import Spans
from .visit import Visitor

__all__ = [
    "Layout",
    "LayoutVisitor",
    "Place",
    "Unheld",
    "fieldless_options",
    "fields_in",
    "literal_before",
    "literal_options",
    "nodes",
    "present",
    "unheld",
    "write",
]

#: A layout node (see the module docstring).
Layout = tuple[Any, ...]

R = TypeVar("R")


class LayoutVisitor(Visitor[R]):
    """A pass over a layout: ``visit_<kind>`` per kind, a node's kind its first item (``"opt"``)."""


def nodes(layout: Layout) -> Iterator[Layout]:
    """Every node of ``layout``, each before the nodes inside it, in the order they are written."""
    yield layout
    for inner in _inside(layout):
        yield from nodes(inner)


def _inside(node: Layout) -> tuple[Layout, ...]:
    """The nodes right inside ``node``."""
    kind = node[0]
    if kind in ("seq", "alt"):
        items: tuple[Layout, ...] = node[1]
        return items
    if kind in ("opt", "group"):
        return () if node[2] is None else (node[2],)
    return (node[1],) if kind == "rep" else ()


# ---- named queries ----


def fields_in(layout: Layout) -> frozenset[str]:
    """Every field production anywhere in ``layout``.

    Kept per node (by identity, as :func:`literal_before` keeps its answers):
    reading and writing a URL ask it of the same nodes for every object.
    """
    kept = _FIELDS_IN.get(id(layout))
    if kept is not None and kept[0] is layout:
        return kept[1]
    found = frozenset(node[1] for node in nodes(layout) if node[0] == "group")
    if len(_FIELDS_IN) < _FIELDS_IN_KEPT:
        _FIELDS_IN[id(layout)] = (layout, found)
    return found


#: fields_in's answers: id of the node → (the node, its fields); the node is kept with
#: its answer, so that its id is not reused while kept.
_FIELDS_IN: dict[int, tuple[Layout, frozenset[str]]] = {}
_FIELDS_IN_KEPT = 1 << 14


def _order(layout: Layout) -> list[str]:
    """The field productions of ``layout`` in the order they are written."""
    return [node[1] for node in nodes(layout) if node[0] == "group"]


def fieldless_options(layout: Layout) -> frozenset[int]:
    """The numbers of the ``opt`` parts of ``layout`` that can be written with no field
    (the final ``/`` of ``telnet://h/``)."""
    return frozenset(
        node[1] for node in nodes(layout) if node[0] == "opt" and not _NEEDS_FIELD.visit(node[2])
    )


def literal_options(layout: Layout, production: str) -> tuple[str, ...]:
    """The literals that are options of the alternative beside field ``production``
    (``("localhost",)`` for file's ``[ host | "localhost" ]``); ``()`` where it has none."""
    for node in nodes(layout):
        if node[0] == "alt" and ("group", production, None) in node[1]:
            return tuple(option[1] for option in node[1] if option[0] == "lit")
    return ()


def literal_before(layout: Layout, production: str) -> str:
    """The literal written right before field ``production`` (``"%09"`` before gopher's search).

    For the hooks where section 3 says more than the grammar (gopher splits
    at the first ``%09``): they take the separator from the start rule. The
    answer is kept per layout (by identity: the layouts of a grammar are made
    once), as the hooks ask it for every object.
    """
    kept = _BEFORE.get((id(layout), production))
    if kept is not None and kept[0] is layout:
        return kept[1]
    found = _literal_before(layout, production)
    if len(_BEFORE) < _BEFORE_KEPT:
        _BEFORE[(id(layout), production)] = (layout, found)
    return found


#: literal_before's answers: (id of the layout, production) → (the layout, the literal).
#: The layout is kept with its answer, so that its id is not reused while kept.
_BEFORE: dict[tuple[int, str], tuple[Layout, str]] = {}
_BEFORE_KEPT = 1024


def _literal_before(layout: Layout, production: str) -> str:
    last = ""
    for node in nodes(layout):
        kind = node[0]
        if kind == "lit":
            last = node[1]
        elif kind == "chars":
            last = node[1] if len(node[1]) == 1 else ""
        elif kind == "group":
            if node[1] == production:
                if last:
                    return last
                break
            last = ""
    raise ValueError(f"no literal before {production} in this layout")


class _Required(LayoutVisitor[frozenset[str]]):
    """The fields a match of a layout cannot do without."""

    def visit_group(self, node: Layout) -> frozenset[str]:
        return frozenset({node[1]})

    def visit_seq(self, node: Layout) -> frozenset[str]:
        return frozenset().union(*map(self.visit, node[1]))

    def visit_alt(self, node: Layout) -> frozenset[str]:
        options = [self.visit(option) for option in node[1]]
        return frozenset.intersection(*options) if options else frozenset()

    def visit_rep(self, node: Layout) -> frozenset[str]:
        return self.visit(node[1]) if node[2] > 0 else frozenset()

    def generic_visit(self, node: Layout, *context: Any) -> frozenset[str]:
        return frozenset()  # a literal, a character, an optional part


class _NeedsField(LayoutVisitor[bool]):
    """Whether every text of a layout holds a field."""

    def visit_group(self, node: Layout) -> bool:
        return True

    def visit_seq(self, node: Layout) -> bool:
        return any(map(self.visit, node[1]))

    def visit_alt(self, node: Layout) -> bool:
        return all(map(self.visit, node[1]))

    def visit_rep(self, node: Layout) -> bool:
        return bool(node[2] > 0 and self.visit(node[1]))

    def generic_visit(self, node: Layout, *context: Any) -> bool:
        return False


_REQUIRED = _Required()
_NEEDS_FIELD = _NeedsField()


# ---- reading: what the text has of the parts that hold no field ----


#: Where a node is in a layout: the number of each node on the way down from the
#: top (an item of a sequence, an option of an alternative, the one node inside an
#: optional part or a field's production) and, inside a repetition, which one.
Place = tuple[int, ...]


class Unheld:
    """What a URL's text has of the parts of its layout that hold no field: see :func:`unheld`.

    A plain class, not a ``NamedTuple``: that would compile its annotations
    when the run time is imported, which start-up leaves out.
    """

    __slots__ = ("options", "texts")

    def __init__(self, options: frozenset[int], texts: Mapping[Place, str]) -> None:
        #: The numbers of the optional parts without a field that the text holds
        #: (:func:`present`).
        self.options = options
        #: The text of each part that holds no field and may be written more ways than one
        #: (characters out of a set, an alternative, a repetition), by its :data:`Place`.
        self.texts = texts


def present(layout: Layout, text: str, spans: Spans) -> frozenset[int]:
    """The numbers of the optional parts without a field that ``text`` holds.

    ``spans`` are where the fields matched; the layout is followed along the
    text from the start (literals compared, fields skipped by their spans).
    """
    return unheld(layout, text, spans).options


def unheld(layout: Layout, text: str, spans: Spans) -> Unheld:
    """What ``text`` has of the parts of ``layout`` that no field holds, for a rewrite to keep.

    The optional parts without a field it holds (the final ``/`` of
    ``telnet://h/``), and the text, as written, of each part without a field
    whose text may vary (the user and password of an http rule that takes a
    login its class has no field for). The layout is followed as
    :func:`present` does; the texts are given only where it reaches the end
    of ``text`` (else the walk did not follow it, and none are).
    """
    found = _Found()
    end = _Aligner(text, spans).visit(layout, 0, found, ())
    texts: Mapping[Place, str] = found.texts if end == len(text) else {}
    return Unheld(frozenset(found.options), texts)


class _Found:
    """What a walk of :class:`_Aligner` found: optional parts and the texts of unheld parts."""

    __slots__ = ("options", "texts")

    def __init__(self) -> None:
        self.options: set[int] = set()
        self.texts: dict[Place, str] = {}

    def add(self, other: _Found, texts: bool = True) -> None:
        """Take what ``other``, the walk of a part that matched, found (its texts, unless
        the part's text is kept whole)."""
        self.options |= other.options
        if texts:
            self.texts.update(other.texts)


class _Aligner(LayoutVisitor[int | None]):
    """Where a layout's match of the text from ``at`` ends (``None``: it does not match),
    adding to ``found`` the optional parts without a field it holds and the text of each
    varying part without a field (by its place ``here``)."""

    def __init__(self, text: str, spans: Spans) -> None:
        self.text = text
        self.spans = spans

    def keep(self, at: int, end: int | None, found: _Found, here: Place) -> int | None:
        """``end``, the text from ``at`` to it kept as that of the part at ``here``."""
        if end is not None:
            found.texts[here] = self.text[at:end]
        return end

    def visit_lit(self, node: Layout, at: int, found: _Found, here: Place) -> int | None:
        after = at + len(node[1])
        written = self.text[at:after]
        same = written.lower() == node[1].lower() if node[2] else written == node[1]
        return after if same else None

    def visit_chars(self, node: Layout, at: int, found: _Found, here: Place) -> int | None:
        end = at + 1 if at < len(self.text) and self.text[at] in node[1] else None
        return self.keep(at, end, found, here) if len(node[1]) != 1 else end

    def visit_group(self, node: Layout, at: int, found: _Found, here: Place) -> int | None:
        span = self.spans.get(node[1])
        if span is not None and span[0] == at:
            return span[1]
        return None if node[2] is None else self.visit(node[2], at, found, (*here, 0))

    def visit_seq(self, node: Layout, at: int, found: _Found, here: Place) -> int | None:
        position: int | None = at
        for number, item in enumerate(node[1]):
            position = self.visit(item, position, found, (*here, number))
            if position is None:
                return None
        return position

    def visit_alt(self, node: Layout, at: int, found: _Found, here: Place) -> int | None:
        whole = _unheld(node)
        for number, option in enumerate(node[1]):
            marks = _Found()
            end = self.visit(option, at, marks, (*here, number))
            if end is not None:
                found.add(marks, texts=not whole)
                return self.keep(at, end, found, here) if whole else end
        return None

    def visit_opt(self, node: Layout, at: int, found: _Found, here: Place) -> int | None:
        marks = _Found()
        matched = self.visit(node[2], at, marks, (*here, 0))
        if matched is None:
            return at
        found.add(marks)
        if not any(name in self.spans for name in fields_in(node[2])):
            found.options.add(node[1])
        return matched

    def visit_rep(self, node: Layout, at: int, found: _Found, here: Place) -> int | None:
        _kind, item, low, high = node
        whole = _unheld(node)
        count, where = 0, at
        while high < 0 or count < high:
            marks = _Found()
            step = self.visit(item, where, marks, (*here, count))
            if step is None or step == where:
                break
            found.add(marks, texts=not whole)
            count, where = count + 1, step
        if count < low:
            return None
        return self.keep(at, where, found, here) if whole else where


class _Varies(LayoutVisitor[bool]):
    """Whether a layout that holds no field may be written more ways than one
    (a literal only in case, which the writer writes as the grammar does)."""

    def visit_chars(self, node: Layout) -> bool:
        return len(node[1]) != 1

    def visit_seq(self, node: Layout) -> bool:
        return any(map(self.visit, node[1]))

    def visit_alt(self, node: Layout) -> bool:
        return len(node[1]) > 1 or any(map(self.visit, node[1]))

    def visit_rep(self, node: Layout) -> bool:
        return bool(node[2] != node[3] or self.visit(node[1]))

    def generic_visit(self, node: Layout, *context: Any) -> bool:
        return bool(node[0] == "opt")  # a literal does not; a field's production is not asked


_VARIES = _Varies()


def _unheld(node: Layout) -> bool:
    """Whether ``node`` (characters, an alternative, a repetition) is a part that holds no
    field and may be written more ways than one: one whose text a rewrite keeps."""
    return not fields_in(node) and _VARIES.visit(node)


# ---- writing ----


def write(
    layout: Layout,
    parts: Mapping[str, object],
    *,
    scheme: str,
    kept: frozenset[int] = frozenset(),
    texts: Mapping[Place, str] | None = None,
    names: Mapping[str, str] | None = None,
    start: str = "",
) -> str:
    """The text of a URL whose fields' productions hold ``parts`` (raw text, ``None`` if absent).

    ``scheme`` is written in place of the scheme name inside the start
    rule's first literal (``"http://"i`` becomes ``HTTP://`` for ``HTTP``);
    ``kept`` are the optional parts without a field to write (see
    :func:`present`), ``texts`` the text of each part without a field whose
    text may vary, by its place (see :func:`unheld`): written as given. Such a
    part with no text given is written as the grammar alone says it (a
    repetition as none, an alternative as its first option) or, for
    characters out of a set, raises ``ValueError``. A production inside a
    repetition takes a tuple, one item per repetition.
    ``names`` gives the field name of each production, for the messages;
    ``start`` names the start rule in them. Raises
    ``ValueError`` when no text of the layout holds the parts.
    """
    return _LayoutWriter(parts, scheme, kept, texts or {}, names or {}, start).visit(
        layout, None, ()
    )


class _LayoutWriter(LayoutVisitor[str]):
    """The text of a layout with given parts; ``why``: the field that makes the part written,
    ``here``: the place of the part (for the texts of the parts without a field)."""

    def __init__(
        self,
        parts: Mapping[str, object],
        scheme: str,
        kept: frozenset[int],
        texts: Mapping[Place, str],
        names: Mapping[str, str],
        start: str,
    ) -> None:
        self.parts = parts
        self.scheme = scheme
        self.kept = kept
        self.texts = texts
        self.names = names
        self.start = start

    def name(self, production: str) -> str:
        return self.names.get(production, production)

    def given(self, layout: Layout) -> frozenset[str]:
        return frozenset(p for p in fields_in(layout) if self.parts.get(p) is not None)

    def visit_lit(self, node: Layout, why: str | None, here: Place) -> str:
        text: str = node[1]
        scheme = self.scheme
        if node[2] and text.lower().startswith(scheme.lower() + ":"):
            return scheme + text[len(scheme) :]
        return text

    def visit_chars(self, node: Layout, why: str | None, here: Place) -> str:
        written = self.texts.get(here)
        if written is not None:
            return written
        if len(node[1]) != 1:
            raise ValueError(f"{self.start} has a part here that no field writes")
        return str(node[1])

    def visit_group(self, node: Layout, why: str | None, here: Place) -> str:
        value = self.parts.get(node[1])
        if value is not None:
            return str(value)
        if node[2] is not None and self.given(node[2]):
            return self.visit(node[2], why or self.first_given(node[2]), (*here, 0))
        raise ValueError(self.missing(node[1], why))

    def visit_seq(self, node: Layout, why: str | None, here: Place) -> str:
        return "".join(
            self.visit(item, why, (*here, number)) for number, item in enumerate(node[1])
        )

    def visit_alt(self, node: Layout, why: str | None, here: Place) -> str:
        written = self.texts.get(here)
        if written is not None:
            return written
        number = self.choose(node[1])
        option = node[1][number]
        # What chose this option: a given field the other options do not all have.
        common = frozenset.intersection(*(fields_in(o) for o in node[1]))
        return self.visit(option, why or self.first_given(option, common), (*here, number))

    def visit_opt(self, node: Layout, why: str | None, here: Place) -> str:
        if self.given(node[2]):
            return self.visit(node[2], why or self.first_given(node[2]), (*here, 0))
        if node[1] in self.kept and not _REQUIRED.visit(node[2]):
            return self.visit(node[2], why, (*here, 0))
        return ""

    def first_given(self, layout: Layout, but: frozenset[str] = frozenset()) -> str | None:
        """The first field of ``layout`` that is given: what makes the part written."""
        given = self.given(layout) - but
        return next((p for p in _order(layout) if p in given), None)

    def choose(self, options: tuple[Layout, ...]) -> int:
        """The number of the option to write, of those of an alternative."""
        given = frozenset().union(*(self.given(option) for option in options))
        fitting = [n for n, option in enumerate(options) if given <= fields_in(option)]
        for number in fitting:
            if _REQUIRED.visit(options[number]) <= given:
                return number
        if fitting:
            return fitting[0]  # writing it says which field is missing
        # Name only what tells the options apart (not the host every option has).
        common = frozenset.intersection(*(fields_in(option) for option in options))
        first, *others = sorted(given - common, key=lambda p: _position(options, p))
        together = " and ".join(self.name(p) for p in others)
        raise ValueError(
            f"give {self.name(first)} or {together}, not both: no {self.start} has them all"
        )

    def visit_rep(self, node: Layout, why: str | None, here: Place) -> str:
        written_as = self.texts.get(here)
        if written_as is not None:
            return written_as
        _kind, item, low, high = node
        inside = sorted(fields_in(item))
        values = {p: self.parts.get(p) for p in inside}
        lengths = {len(v) for v in values.values() if isinstance(v, tuple)}
        if len(lengths) > 1:
            raise ValueError(f"{', '.join(map(self.name, inside))} must have as many items")
        count = lengths.pop() if lengths else 0
        if count < low or (high >= 0 and count > high):
            raise ValueError(f"{self.start} repeats this part {low} to {high} times, not {count}")
        written: list[str] = []
        outer = self.parts
        for index in range(count):
            self.parts = {
                **outer,
                **{p: v[index] for p, v in values.items() if isinstance(v, tuple)},
            }
            try:
                written.append(self.visit(item, why, (*here, index)))
            finally:
                self.parts = outer
        return "".join(written)

    def missing(self, production: str, why: str | None) -> str:
        field = self.name(production)
        if why is None:
            return f"{self.start} always has a {field}: it cannot be None"
        return f"{self.name(why)} needs a {field} ({self.start}): give {field}='' too"


def _position(options: tuple[Layout, ...], production: str) -> int:
    order = [p for option in options for p in _order(option)]
    return order.index(production) if production in order else len(order)
