"""What a record of each class holds, and where each value comes from: for many URLs at once.

A writer of many records (``rfc1738 check --jsonl``; a CSV or Parquet writer
the same way) writes the members :meth:`URL.to_dict
<rfc1738.urls.URL.to_dict>` gives, straight from each line's match, without
building an object for most lines. What it needs to know of a class is
here, worked out once per class by :class:`RecordPlan`; how the values are
encoded is the writer's (:mod:`.jsonl`):

- which members a record has (:func:`~rfc1738.urls.base.members`), and
  where each value comes from: a raw field, a field's ``decode`` of it, a
  path's segments, or a property;
- what each property depends on, read off its :class:`~rfc1738.urls.Computed`
  declaration: nothing but the class and the scheme as written
  (:func:`by_spelling`: written once per spelling), the values of some raw
  fields (:func:`by_fields`: once per spelling and such values), or which
  raw fields are present (:func:`by_presence`: once per *shape*); any other
  property is read from an object for every record;
- where each raw field is in the match (the groups of its production), and
  whether the raw fields are those texts (:func:`reads_spans`) or those
  texts changed by the class's hook (:func:`reads_cut`), so that a line's
  values are read without an object.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ..runtime.layout import Layout
from ..runtime.spans import Groups, spans_from_regs
from ..urls._fields import Computed, Field, Number, Path, Verbatim
from ..urls.base import URL, Parts, class_attribute, member, members
from .codegen import first_group

if TYPE_CHECKING:
    from ..urls.grammar import Grammar

__all__ = [
    "ESCAPED",
    "NUMBER",
    "OTHER",
    "SAME",
    "FieldPlan",
    "RecordPlan",
    "by_fields",
    "by_presence",
    "by_spelling",
    "decode_kind",
    "depends",
    "primed",
    "reads_cut",
    "reads_fields",
    "reads_spans",
    "refused",
    "refusing",
]

# ---- what a property depends on ----

#: The scheme as written: what a *spelling* is (``http``, ``HTTP``).
_SPELLING = URL.__dict__["raw_scheme"]

#: What a value depends on besides the class and the scheme as written: the raw
#: fields whose values it reads, and whether it reads which raw fields are present.
Depends = tuple[tuple[str, ...], bool]


def depends(cls: type[URL], name: str) -> Depends | None:
    """What the value of ``cls``'s attribute ``name`` depends on besides the class and the
    scheme as written; ``None``: the object (a property that declares nothing).

    Read off the declarations: :class:`URL`'s ``raw_scheme`` is the spelling;
    a :class:`~rfc1738.urls.Computed` depends on what it reads (each resolved
    in turn) and, where it names ``present`` raw fields or ``matched``
    productions, on which are present; a field read as every field is, its
    raw twin and a path's segments on their raw field
    (:func:`~rfc1738.urls.base.member`); a class constant (``SCHEME``) on
    nothing.
    """
    attribute = class_attribute(cls, name)
    if attribute is _SPELLING:
        return (), False
    if isinstance(attribute, Computed):
        values: dict[str, None] = {}
        presence = False
        for read in attribute.reads:
            found = depends(cls, read)
            if found is None:
                return None
            values.update(dict.fromkeys(found[0]))
            presence = presence or found[1]
        raw = {"raw_scheme", *(field.raw_name for field in cls.DECLARED)}
        spanned = {field.production for field in cls.DECLARED if field.name not in cls.READ_BY_HOOK}
        # Which are present is what the raw fields read from the match say,
        # before the hook (matched) and after it (present).
        if not (set(attribute.present) <= raw and set(attribute.matched) <= spanned):
            return None
        return tuple(values), presence or bool(attribute.present or attribute.matched)
    key = member(cls, name)[2]
    if key is not None:
        return (key,), False  # a field, its raw twin, a path's segments
    if attribute is not None and not hasattr(type(attribute), "__get__"):
        return (), False  # a class constant
    return None


def _properties(cls: type[URL]) -> list[str]:
    """The names :meth:`URL.to_dict` writes for ``cls`` that are read as attributes."""
    return [name for name, role, _key, _read in members(cls) if role == "attribute"]


def by_spelling(cls: type[URL]) -> frozenset[str]:
    """The names :meth:`URL.to_dict` writes for ``cls`` that are the same for every URL
    of ``cls`` with the same scheme as written (``http``, ``HTTP``).

    ``raw_scheme``, ``scheme``, ``default_port``, and a ``port`` and
    ``effective_port`` where the class has no port field: a writer of many
    records works each out once per spelling.
    """
    return frozenset(
        name for name in _properties(cls) if name != "text" and depends(cls, name) == ((), False)
    )


def by_fields(cls: type[URL]) -> dict[str, tuple[str, ...]]:
    """The names :meth:`URL.to_dict` writes for ``cls`` as properties whose value depends on
    the scheme as written and on some raw fields alone, with those fields.

    ``effective_port`` of a class whose ``port`` is a field gives
    ``{"effective_port": ("raw_port",)}``. A writer of many records works
    each out once per spelling and values of those raw fields.
    """
    found: dict[str, tuple[str, ...]] = {}
    for name in _properties(cls):
        reads = depends(cls, name)
        if reads is not None and reads[0] and not reads[1]:
            found[name] = reads[0]
    return found


def by_presence(cls: type[URL]) -> frozenset[str]:
    """The names :meth:`URL.to_dict` writes for ``cls`` as properties whose value depends on
    the scheme as written and on which raw fields are present alone (wais's ``kind``).

    A writer of many records works each out once per spelling and raw fields
    present (before and after the class's hook).
    """
    return frozenset(name for name in _properties(cls) if depends(cls, name) == ((), True))


# ---- how the raw fields are read ----


def reads_spans(cls: type[URL]) -> bool:
    """Whether ``cls`` reads each raw field from its production's span, with no hook.

    Its raw fields are then ``raw_scheme`` (the text before the first
    ``:``) and, for each declaration, the text of the first group of its
    production that matched, or ``None``: what ``URL._read`` gives.
    """
    return reads_cut(cls) and not cls._HOOKS and _function(cls._cut) is _function(URL._cut)


def reads_cut(cls: type[URL]) -> bool:
    """Whether ``cls``'s raw fields are those of :func:`reads_spans`, changed by its hook
    ``URL._cut`` (if it has one) alone."""
    return reads_fields(cls) and _function(cls._read_fields) is _function(URL._read_fields)


def reads_fields(cls: type[URL]) -> bool:
    """Whether ``cls`` reads its raw fields with ``URL._read_fields`` (its own hook or none).

    They are then a function of the text, its spans and the layout of the
    scheme as written: no object is needed to read them.
    """
    return cls._read is URL._read and cls._raw is URL._raw and cls._spans is URL._spans


def _function(method: object) -> object:
    """The function a class method calls."""
    return getattr(method, "__func__", method)


def primed(url: URL, raw: Parts) -> None:
    """Give ``url`` its raw fields, read by the caller as ``URL._read`` reads them.

    For a writer that read them straight from the match (:func:`reads_spans`):
    the object's properties then find them instead of reading them again.
    """
    _set_cache(url, raw)


#: Sets the slot of the raw fields read (past ``URL.__setattr__``).
_set_cache = URL.__dict__["_cache"].__set__


# ---- decoded values ----


def _views(field: Field[Any]) -> tuple[str, ...]:
    """The decoded attributes ``field`` gives: its name, and ``segments`` for a path."""
    return (
        (field.name, "segments")
        if isinstance(field, Path) and field.has_segments
        else (field.name,)
    )


def refusing(url: URL) -> bool:
    """Whether some decoded field of ``url``'s class may be one a URL cannot give, in
    ``url``'s grammar (:class:`~rfc1738.AmbiguousFieldError`)."""
    return any(
        url._escape_sets(field, view)[-1] for field in url.DECLARED for view in _views(field)
    )


def refused(url: URL) -> bool:
    """Whether ``url`` has a decoded field it cannot give, which ``to_dict()`` leaves out."""
    raw = url._raw()
    for field in url.DECLARED:
        value = raw[field.raw_name]
        if value is None or (isinstance(value, str) and "%" not in value):
            continue
        if any(url._lost(field, view, value) is not None for view in _views(field)):
            return True
    return False


#: How a field's ``decode`` treats a raw text without escapes (see :func:`decode_kind`).
SAME, ESCAPED, NUMBER, OTHER = 0, 1, 2, 3


def decode_kind(field: Field[Any]) -> int:
    """How ``field.decode`` treats a raw text without escapes, and ``None``.

    :data:`SAME`: gives every raw text back (:class:`Verbatim`);
    :data:`ESCAPED`: gives back one without escapes (:meth:`Field.decode`);
    :data:`NUMBER`: a number, ``None`` for ``None`` (:class:`Number`);
    :data:`OTHER`: anything else (the scheme in lower case, pairs), always called.
    """
    decode = type(field).decode
    if decode is Verbatim.decode:
        return SAME
    if decode is Field.decode:
        return ESCAPED
    if decode is Number.decode:
        return NUMBER
    return OTHER


#: One field declaration in a record:
#: ``(key, cached, kind, decode, decoded, as_written, segments, split, plain)``:
#: the raw field's name (``raw_path``, ``host``); where the object keeps its
#: decoded value (``(name,)``, see ``URL._decoded``); how its ``decode`` treats
#: a text without escapes (:func:`decode_kind`); its ``decode``; the slots of its
#: decoded value, its raw text and its segments (-1: not in the record); how its
#: segments are read, where it has them; whether that is
#: :meth:`Path.segments <rfc1738.urls.Path.segments>`. (A plain tuple: a
#: writer's loop unpacks one per field, and a tuple subclass unpacks slower.)
FieldPlan = tuple[
    str,
    tuple[str],
    int,
    Callable[[Any], object],
    int,
    int,
    int,
    Callable[[Any], object] | None,
    bool,
]

#: How many spellings of a scheme keep the layout its hook reads.
SPELLINGS_KEPT = 256


class RecordPlan:
    """The records of class ``cls`` for lines matched by an expression whose groups are ``groups``.

    ``groups`` are the numbers of the groups that may hold each production
    (the fast parser's ``fields``, host checks done); the object of a line
    would be ``cls`` built from the match with ``grammar`` and ``host_checks``.

    A record is its members (:attr:`members`), in order, less ``text``: those
    the same for every line of a spelling (:attr:`constant`), and the others,
    each in a *slot* of its own (:attr:`slots` of them): a field's decoded
    value, raw text and segments (:attr:`fields`), and the properties
    (:attr:`attributes`), of which some are worked out per spelling and raw
    values (:attr:`by_fields`) or per shape (:attr:`presence`). A line's
    *values* are what :meth:`values` reads from its match: the text, then
    the raw fields (as :attr:`index` places them). A writer of a format
    builds on it (:mod:`.jsonl`'s writer is one): it encodes, and keeps what
    it encoded by what the plan says the text depends on.
    """

    def __init__(
        self, cls: type[URL], groups: Groups, grammar: Grammar | None, host_checks: bool
    ) -> None:
        self.cls = cls
        self.build = cls.builder(groups, grammar)
        self.host_checks = host_checks
        #: The members of a record, as :func:`~rfc1738.urls.base.members` gives them, less ``text``.
        self.members = [member for member in members(cls) if member[0] != "text"]
        #: The members the same for every line with the same scheme as written.
        self.constant = by_spelling(cls)
        slots: dict[tuple[str, str], int] = {}
        #: Properties read from the object (or worked out once), and their slots.
        self.attributes: list[tuple[str, int]] = []
        for name, role, key, _read in self.members:
            if name in self.constant:
                continue
            slots[role, key if key is not None else name] = len(slots)
            if key is None:
                self.attributes.append((name, len(slots) - 1))
        #: How many members of a record vary from line to line.
        self.slots = len(slots)
        #: Whether raw fields are read from the match (substrings of the text).
        self.by_span = reads_spans(cls)
        #: Whether they are read from the match and changed by the class's hook
        #: (``URL._cut``), without an object.
        self.by_hook = not self.by_span and reads_cut(cls)
        #: The class's hook (``URL._cut``).
        self.cut = cls._cut
        #: The groups of the productions the hook is given the spans of: all of the class's.
        self.hook_groups = groups
        #: Per spelling of the scheme, the layout its hook reads (``layout()``).
        self.layouts: dict[str, Callable[[], Layout]] = {}
        numbers = dict(groups)
        #: Where each raw field is: the one group of its production, or -1 and all of them.
        self.readers = tuple(
            (field.raw_name, *_where(numbers.get(field.production, ()))) for field in cls.DECLARED
        )
        reads = {(role, key): read for _name, role, key, read in self.members}
        #: Per field declaration, its :data:`FieldPlan`.
        self.fields: tuple[FieldPlan, ...] = tuple(
            (
                field.raw_name,
                (field.name,),
                decode_kind(field),
                reads.get(("decoded", field.raw_name)) or field.decode,
                slots.get(("decoded", field.raw_name), -1),
                slots.get(("raw", field.raw_name), -1),
                slots.get(("segments", field.raw_name), -1),
                reads.get(("segments", field.raw_name)),
                isinstance(field, Path) and type(field).segments is Path.segments,
            )
            for field in cls.DECLARED
        )
        #: Per raw field, its :data:`FieldPlan`.
        self.by_key: dict[str, FieldPlan] = {plan[0]: plan for plan in self.fields}
        #: Properties worked out once per spelling and values of the raw fields they read.
        self.by_fields = by_fields(cls)
        #: Properties worked out once per shape (which raw fields are present): where the
        #: values say which are, before the hook and after it.
        self.presence = by_presence(cls) if self.by_span or self.by_hook else frozenset()
        keys = [field.raw_name for field in cls.DECLARED]
        #: The values of a line, as :meth:`values` reads them: from the match,
        #: the text (group 0), then the raw fields whose production has one
        #: group, then those with several; from a hook's raw fields, the
        #: scheme as written, then each raw field (a tuple either way).
        self.numbers = tuple(number for _key, number, _found in self.readers if number >= 0)
        self.several = tuple(found for _key, number, found in self.readers if number < 0 and found)
        #: ``None`` for each raw field whose production has no group (a hook's: see URL._cut).
        self.nones = tuple(None for _key, number, found in self.readers if not found)
        order = [key for key, number, _found in self.readers if number >= 0]
        order += [key for key, number, found in self.readers if number < 0 and found]
        order += [key for key, _number, found in self.readers if not found]
        #: The keys of the values read from the match (the text first, as ``raw_scheme``).
        self.read_keys = ("raw_scheme", *order)
        if self.by_span:
            self.index = {key: at for at, key in enumerate(order, 1)}
        else:
            self.get_raw_keys = ("raw_scheme", *keys)
            self.get_raw = itemgetter(*self.get_raw_keys)
            self.index = {key: at for at, key in enumerate(keys, 1)}
        #: Whether a line's record reads a property from its object (not per spelling,
        #: raw values or shape).
        self.reads_object = any(
            name not in self.by_fields and name not in self.presence for name, _ in self.attributes
        )
        #: Whether a decoded value of the class may be one the URL cannot give
        #: (:func:`refusing`, worked out on the first line with an escape).
        self.refusing: bool | None = None

    def values(self, match: re.Match[str]) -> tuple[Any, ...]:
        """The values read from ``match``: the text, then the raw fields as their groups
        give them (the hook's ``None`` where their production has no group)."""
        # (group(0) alone gives a str, not a tuple.)
        values = match.group(0, *self.numbers) if self.numbers else (match.group(0),)
        if self.several:
            values += tuple([first_group(match, found) for found in self.several])
        if self.nones:
            values += self.nones
        return values

    def cut_raw(self, text: str, match: re.Match[str], given: tuple[Any, ...]) -> Parts:
        """The raw fields of a line whose :meth:`values` are ``given``, changed by the hook."""
        # (As many keys as values; strict= would cost what the zip does.)
        raw = dict(zip(self.read_keys, given))  # noqa: B905
        spelling = raw["raw_scheme"] = text[: text.index(":")]
        layout = self.layouts.get(spelling) or self.layout(spelling, text, match)
        self.cut(raw, text, spans_from_regs(match.regs, self.hook_groups), layout)
        return raw

    def layout(self, spelling: str, text: str, match: re.Match[str]) -> Callable[[], Layout]:
        """``layout`` for the hook of URLs whose scheme is written ``spelling``: an object's.

        Worked out when the hook first asks for it, as the object's own hook would.
        """
        url = self.build(text, match, self.host_checks)

        def found() -> Layout:
            layout = url._layout()

            def known() -> Layout:
                return layout

            if spelling in self.layouts:
                self.layouts[spelling] = known  # the next lines' hooks: no look-up
            return layout

        if len(self.layouts) < SPELLINGS_KEPT:
            self.layouts[spelling] = found
        return found

    def raw(self, values: tuple[Any, ...]) -> Parts:
        """The raw fields, as ``URL._read`` gives them, from a line's values.

        Read from the match (the text first) or by the hook (the scheme as written first).
        """
        if not self.by_span:
            return dict(zip(("raw_scheme", *self.index), values, strict=True))
        raw: Parts = {"raw_scheme": values[0][: values[0].index(":")]}
        for key, at in self.index.items():
            raw[key] = values[at]
        return raw

    def spanned(self, text: str, match: re.Match[str], spelling: str) -> Parts:
        """The raw fields of a class read from the match (:attr:`by_span`), as ``URL._read``
        reads them from the spans of the productions."""
        raw: Parts = {"raw_scheme": spelling}
        regs = match.regs
        for key, number, found in self.readers:
            if number >= 0:
                start, end = regs[number]
                raw[key] = text[start:end] if start >= 0 else None
            else:
                raw[key] = _first(text, regs, found)
        return raw

    def object(self, text: str, match: re.Match[str], values: tuple[Any, ...]) -> URL:
        """The object of a line, given the raw fields its values say."""
        url = self.build(text, match, self.host_checks)
        primed(url, self.raw(values))
        return url


def _where(found: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return (found[0] if len(found) == 1 else -1), found


def _first(text: str, regs: tuple[tuple[int, int], ...], found: tuple[int, ...]) -> str | None:
    """The text of the first of the groups ``found`` that matched, as ``spans_from_regs`` picks."""
    for number in found:
        start, end = regs[number]
        if start >= 0:
            return text[start:end]
    return None
