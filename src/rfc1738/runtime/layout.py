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

:func:`write` writes a URL from the raw text of each field; :func:`present`
finds which optional parts that hold no field a URL's text has (the final
``/`` of ``telnet://h/``), so that a rewrite keeps them as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .spans import Spans

__all__ = ["Layout", "fields_in", "literal_before", "present", "write"]

#: A layout node (see the module docstring).
Layout = tuple[Any, ...]


def fields_in(layout: Layout) -> frozenset[str]:
    """Every field production anywhere in ``layout``."""
    kind = layout[0]
    if kind == "group":
        inner = layout[2]
        return frozenset({layout[1]}) | (fields_in(inner) if inner is not None else frozenset())
    if kind in ("seq", "alt"):
        return frozenset().union(*(fields_in(item) for item in layout[1]))
    if kind == "opt":
        return fields_in(layout[2])
    if kind == "rep":
        return fields_in(layout[1])
    return frozenset()


def _required(layout: Layout) -> frozenset[str]:
    """The fields a match of ``layout`` cannot do without."""
    kind = layout[0]
    if kind == "group":
        return frozenset({layout[1]})
    if kind == "seq":
        return frozenset().union(*(_required(item) for item in layout[1]))
    if kind == "alt":
        options = [_required(option) for option in layout[1]]
        return frozenset.intersection(*options) if options else frozenset()
    if kind == "rep" and layout[2] > 0:
        return _required(layout[1])
    return frozenset()


# ---- reading: which field-less optional parts the text has ----


def present(layout: Layout, text: str, spans: Spans) -> frozenset[int]:
    """The numbers of the optional parts without a field that ``text`` holds.

    ``spans`` are where the fields matched; the layout is followed along the
    text from the start (literals compared, fields skipped by their spans).
    """
    found: set[int] = set()
    _align(layout, text, 0, spans, found)
    return frozenset(found)


def _align(layout: Layout, text: str, at: int, spans: Spans, found: set[int]) -> int | None:
    kind = layout[0]
    if kind == "lit":
        after = at + len(layout[1])
        written = text[at:after]
        same = written.lower() == layout[1].lower() if layout[2] else written == layout[1]
        return after if same else None
    if kind == "chars":
        return at + 1 if at < len(text) and text[at] in layout[1] else None
    if kind == "group":
        span = spans.get(layout[1])
        if span is not None and span[0] == at:
            return span[1]
        return None if layout[2] is None else _align(layout[2], text, at, spans, found)
    if kind == "seq":
        position = at
        for item in layout[1]:
            moved = _align(item, text, position, spans, found)
            if moved is None:
                return None
            position = moved
        return position
    if kind == "alt":
        for option in layout[1]:
            marks: set[int] = set()
            end = _align(option, text, at, spans, marks)
            if end is not None:
                found |= marks
                return end
        return None
    if kind == "opt":
        marks = set()
        matched = _align(layout[2], text, at, spans, marks)
        if matched is None:
            return at
        found |= marks
        if not any(name in spans for name in fields_in(layout[2])):
            found.add(layout[1])
        return matched
    # ("rep", item, low, high)
    count, where = 0, at
    while layout[3] < 0 or count < layout[3]:
        step = _align(layout[1], text, where, spans, found)
        if step is None or step == where:
            break
        count, where = count + 1, step
    return where if count >= layout[2] else None


# ---- writing ----


def write(
    layout: Layout,
    parts: Mapping[str, object],
    *,
    scheme: str,
    kept: frozenset[int] = frozenset(),
    names: Mapping[str, str] | None = None,
    start: str = "",
) -> str:
    """The text of a URL whose fields' productions hold ``parts`` (raw text, ``None`` if absent).

    ``scheme`` is written in place of the scheme name inside the start
    rule's first literal (``"http://"i`` becomes ``HTTP://`` for ``HTTP``);
    ``kept`` are the optional parts without a field to write (see
    :func:`present`). A production inside a repetition takes a tuple, one
    item per repetition. ``names`` gives the field name of each production,
    for the messages; ``start`` names the start rule in them. Raises
    ``ValueError`` when no text of the layout holds the parts.
    """
    return _Writer(parts, scheme, kept, names or {}, start).write(layout)


class _Writer:
    def __init__(
        self,
        parts: Mapping[str, object],
        scheme: str,
        kept: frozenset[int],
        names: Mapping[str, str],
        start: str,
    ) -> None:
        self.parts = parts
        self.scheme = scheme
        self.kept = kept
        self.names = names
        self.start = start

    def name(self, production: str) -> str:
        return self.names.get(production, production)

    def given(self, layout: Layout) -> frozenset[str]:
        return frozenset(p for p in fields_in(layout) if self.parts.get(p) is not None)

    def write(self, layout: Layout, why: str | None = None) -> str:
        kind = layout[0]
        if kind == "lit":
            text: str = layout[1]
            scheme = self.scheme
            if layout[2] and text.lower().startswith(scheme.lower() + ":"):
                return scheme + text[len(scheme) :]
            return text
        if kind == "chars":
            if len(layout[1]) != 1:
                raise ValueError(f"{self.start} has a part here that no field writes")
            return str(layout[1])
        if kind == "group":
            value = self.parts.get(layout[1])
            if value is not None:
                return str(value)
            if layout[2] is not None and self.given(layout[2]):
                return self.write(layout[2], why or self.first_given(layout[2]))
            raise ValueError(self.missing(layout[1], why))
        if kind == "seq":
            return "".join(self.write(item, why) for item in layout[1])
        if kind == "alt":
            option = self.choose(layout[1], why)
            # What chose this option: a given field the other options do not all have.
            common = frozenset.intersection(*(fields_in(o) for o in layout[1]))
            return self.write(option, why or self.first_given(option, common))
        if kind == "opt":
            if self.given(layout[2]):
                return self.write(layout[2], why or self.first_given(layout[2]))
            if layout[1] in self.kept and not _required(layout[2]):
                return self.write(layout[2], why)
            return ""
        return self.repeat(layout, why)

    def first_given(self, layout: Layout, but: frozenset[str] = frozenset()) -> str | None:
        """The first field of ``layout`` that is given: what makes the part written."""
        given = self.given(layout) - but
        return next((p for p in _order(layout) if p in given), None)

    def choose(self, options: tuple[Layout, ...], why: str | None) -> Layout:
        given = frozenset().union(*(self.given(option) for option in options))
        fitting = [option for option in options if given <= fields_in(option)]
        for option in fitting:
            if _required(option) <= given:
                return option
        if fitting:
            return fitting[0]  # writing it says which field is missing
        # Name only what tells the options apart (not the host every option has).
        common = frozenset.intersection(*(fields_in(option) for option in options))
        first, *others = sorted(given - common, key=lambda p: _position(options, p))
        together = " and ".join(self.name(p) for p in others)
        raise ValueError(
            f"give {self.name(first)} or {together}, not both: no {self.start} has them all"
        )

    def repeat(self, layout: Layout, why: str | None) -> str:
        _kind, item, low, high = layout
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
                written.append(self.write(item, why))
            finally:
                self.parts = outer
        return "".join(written)

    def missing(self, production: str, why: str | None) -> str:
        field = self.name(production)
        if why is None:
            return f"{self.start} always has a {field}: it cannot be None"
        return f"{self.name(why)} needs a {field} ({self.start}): give {field}='' too"


def _order(layout: Layout) -> list[str]:
    """The field productions of ``layout`` in the order they are written."""
    kind = layout[0]
    if kind == "group":
        inner = layout[2]
        return [layout[1], *(_order(inner) if inner is not None else [])]
    if kind in ("seq", "alt"):
        return [p for item in layout[1] for p in _order(item)]
    if kind == "opt":
        return _order(layout[2])
    if kind == "rep":
        return _order(layout[1])
    return []


def _position(options: tuple[Layout, ...], production: str) -> int:
    order = [p for option in options for p in _order(option)]
    return order.index(production) if production in order else len(order)


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

    def walk(node: Layout) -> bool:
        nonlocal last
        kind = node[0]
        if kind == "lit":
            last = node[1]
        elif kind == "chars":
            last = node[1] if len(node[1]) == 1 else ""
        elif kind == "group":
            if node[1] == production:
                return True
            last = ""
            return node[2] is not None and walk(node[2])
        elif kind in ("seq", "alt"):
            return any(walk(item) for item in node[1])
        elif kind == "opt":
            return walk(node[2])
        elif kind == "rep":
            return walk(node[1])
        return False

    if not walk(layout) or not last:
        raise ValueError(f"no literal before {production} in this layout")
    return last
