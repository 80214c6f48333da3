"""``to_dict()`` as JSON text, written straight from a match: for many URLs at once.

``rfc1738 check --jsonl`` writes the fields of every valid line of a file.
Building each object's dictionary (:meth:`URL.to_dict
<rfc1738.urls.URL.to_dict>`) and handing it to :func:`json.dumps` costs several
times what matching the line does. :func:`members_writer` takes what a record
of the class holds and where each value comes from
(:class:`~.plan.RecordPlan`, worked out once per class) and returns a
function from a line and the registers of its match to the same JSON text:

- the raw fields are read straight from the match's registers, as
  ``URL._read`` reads them from the spans (a class with a hook of its own,
  gopher's or prospero's, reads them with the hook), and the properties
  that depend on the spelling, on short raw texts or on which fields are
  present are worked out once for each (:mod:`.plan`);
- a decoded value that ``decode`` gives back unchanged (a field without
  escapes: :meth:`Field.decode <rfc1738.urls.Field.decode>`) is written as
  its raw text is, with no second encoding;
- a text that JSON writes as it is (printable ASCII without ``"`` or ``\\``,
  which :func:`json.encoder.encode_basestring_ascii` tells) has substrings
  that JSON writes as they are: a raw field is its text between quotes, a
  path's segments are its text with ``/`` written ``", "``;
- the rest (numbers, escaped text, properties) goes through the
  ``json`` module's own C string encoder, each value as :func:`json.dumps`
  writes it.

The text is byte for byte what ``json.dumps(url.to_dict())`` writes, less the
braces and the ``text`` member (the tests compare both on generated URLs of
every scheme).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from json.encoder import c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Protocol, cast

from ..runtime.spans import Groups
from ..urls.base import URL, Parts, json_ready
from .codegen import (
    DIGITS_WIDTH,
    Constant,
    Digits,
    Encoded,
    HookedShape,
    Known,
    Segments,
    Step,
    hooked_line_function,
    line_function,
    presence,
    record_function,
)
from .plan import (
    ESCAPED,
    NUMBER,
    OTHER,
    SAME,
    SPELLINGS_KEPT,
    RecordPlan,
    primed,
    refused,
    refusing,
)

if TYPE_CHECKING:
    from ..urls.grammar import Grammar

__all__ = ["MembersWriter", "json_value", "members_json", "members_writer"]

_quoted: Callable[[str], str] = encode_basestring_ascii


def json_value(value: object) -> str:
    """``value`` as :func:`json.dumps` writes it (``ensure_ascii``, default separators).

    ``None``, booleans, ``str``, ``int`` and lists are written here, strings
    by the ``json`` module's own encoder; anything else by :func:`json.dumps`.

    >>> json_value(["a\\u00e9", None, 80, True])
    '["a\\\\u00e9", null, 80, true]'
    """
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    kind = type(value)
    if kind is str:
        return _quoted(value)  # type: ignore[arg-type]
    if kind is int:
        return int.__repr__(value)
    if kind is list:
        return "[" + ", ".join([json_value(item) for item in value]) + "]"  # type: ignore[attr-defined]
    return json.dumps(value)


#: The ``json`` module's own C encoder, made as :func:`json.dumps` makes it for
#: its defaults (``ensure_ascii``, ``", "`` and ``": "``, ``allow_nan``), without
#: the check for circular references (plain values have none); ``None`` where the
#: C accelerator is missing.
_encoder: Callable[[object, int], tuple[str, ...]] | None = (
    c_make_encoder(None, None, encode_basestring_ascii, None, ": ", ", ", False, False, True)
    if c_make_encoder is not None
    else None
)


def _json(value: object) -> str:
    """``json_value(json_ready(value))``: a tuple or list by the C encoder in one call."""
    if value is None:
        return "null"
    if value.__class__ is str:
        return _quoted(value)
    if _encoder is not None and (value.__class__ is tuple or value.__class__ is list):
        try:
            return "".join(_encoder(value, 0))
        except (TypeError, ValueError):
            pass  # a number too long to write, a value JSON has no form for: as json_ready says
    return json_value(json_ready(value))


def members_json(url: URL) -> str:
    """``json.dumps(url.to_dict())`` without its braces and its ``text`` member.

    What :func:`members_writer`'s functions give, for any object.
    """
    data = url.to_dict()
    del data["text"]
    return json.dumps(data)[1:-1]


class MembersWriter(Protocol):
    """What :func:`members_writer` gives: ``write(text, match, plain=None)``."""

    def __call__(self, text: str, match: re.Match[str], plain: bool | None = None) -> str: ...


def members_writer(
    cls: type[URL], groups: Groups, *, grammar: Grammar | None, host_checks: bool
) -> MembersWriter:
    """``write(text, match, plain=None)``: :func:`members_json` of the object ``match`` makes.

    ``match`` is a match of ``text`` by the compiled expression whose groups
    are ``groups`` (the fast parser's ``fields``, host checks done), as
    :func:`rfc1738.runtime.bulk.match_lines` gives it;
    the object would be ``cls`` built from them with ``grammar`` and
    ``host_checks``. The text is the same as :func:`members_json` of that
    object, without building its dictionary. ``plain`` says whether JSON
    writes ``text`` as it is (``len(encode_basestring_ascii(text)) ==
    len(text) + 2``), for a caller that has written it already; ``None``:
    the writer finds out.
    """
    writer = _JsonWriter(cls, groups, grammar, host_checks)
    # Most lines: one generated function finds the shape's function, and the
    # writer writes the rest.
    if writer.by_span:
        return cast(
            MembersWriter,
            line_function(
                writer.numbers,
                writer.several,
                len(writer.nones),
                writer.spelled,
                writer.write,
                _quoted,
            ),
        )
    if writer.by_hook and not writer.reads_object:
        return cast(
            MembersWriter,
            hooked_line_function(
                writer.numbers,
                writer.several,
                len(writer.nones),
                writer.read_keys,
                writer.get_raw_keys,
                bool(writer.presence),
                writer.hooked,
                writer.layouts,
                writer.cut,
                writer.hook_groups,
                writer.write,
                _quoted,
            ),
        )
    return writer.write


class _JsonWriter(RecordPlan):
    """What :func:`members_writer` works out once per class, and the function it returns.

    Two ways, one text:

    - a line that JSON writes as it is and whose raw texts hold no escape
      (most lines) is written by its *shape*, the scheme as written and
      which fields are present (:meth:`_shape`): the shape's template has
      the members that are the same for all its lines written in, and takes
      the raw texts read from the match as they are; what is left (a port
      as a number, a path's segments, a property) is filled per line, and
      what depends on a short raw text alone (``effective_port`` on
      ``raw_port``, :func:`~.plan.by_fields`) is worked out once
      per value;
    - any other line (:meth:`written`): a template with one ``%s`` per
      member, members that are the same for every URL with the same scheme
      as written (:func:`~.plan.by_spelling`: the scheme, the
      default port) filled in once per spelling; each field's raw text is
      read from the match (or by the class's hook) and gives the members of
      that field, and the remaining properties are read from the object.
    """

    def __init__(
        self, cls: type[URL], groups: Groups, grammar: Grammar | None, host_checks: bool
    ) -> None:
        super().__init__(cls, groups, grammar, host_checks)
        #: The template's parts: a member's name and ``%s``, or its name alone
        #: where it is filled in per spelling.
        self.parts: list[tuple[str, str | None]] = [("class", _quoted(cls.__name__))]
        for name, _role, _key, _read in self.members:
            self.parts.append((name, None if name in self.constant else "%s"))
        #: Per spelling of the scheme, the template with its constants filled in.
        self.templates: dict[str, str] = {}
        #: Per shape, the record's template and what fills it (see :meth:`_shape`).
        self.shapes: dict[tuple[object, ...], _Shape] = {}
        #: For a class read from the match, per spelling, the shapes' functions by
        #: which values are ``None`` (:func:`~.codegen.line_function`).
        self.spelled: dict[str, dict[int, Callable[[tuple[Any, ...]], str | None]]] = {}
        #: For a class whose hook reads its fields, per spelling, the shapes'
        #: functions and texts by the values' types
        #: (:func:`~.codegen.hooked_line_function`).
        self.hooked: dict[str, dict[tuple[type, ...], HookedShape]] = {}
        #: Per slot and values it depends on, its JSON text (see :meth:`_fill`).
        self.known: dict[tuple[object, ...], str] = {}

    def template(self, spelling: str, url: URL) -> str:
        """The template for URLs of this class whose scheme is written ``spelling``."""
        found = self.templates.get(spelling)
        if found is None:
            parts = []
            for name, value in self.parts:
                if value is None:
                    value = json_value(json_ready(getattr(url, name))).replace("%", "%%")
                parts.append(f"{_quoted(name)}: {value}")
            found = ", ".join(parts)
            if len(self.templates) < SPELLINGS_KEPT:
                self.templates[spelling] = found
        return found

    def write(self, text: str, match: re.Match[str], plain: bool | None = None) -> str:
        if plain is None:
            plain = len(_quoted(text)) == len(text) + 2
        if not plain:
            # Something in it needs escaping: the general way.
            return members_json(self.build(text, match, self.host_checks))
        spelling = text[: text.index(":")]
        url: URL | None = None
        values: tuple[Any, ...]
        if self.by_span:
            if "%" in text:
                return self.written(text, match, spelling)
            # As URL._read reads them, from the groups of the productions.
            values = self.values(match)
            shape = (spelling, *map(type, values))
        elif self.by_hook:
            # As URL._read_fields reads them: from the groups of the productions,
            # then the class's hook, with the layout of the spelling.
            given = self.values(match)  # as the productions gave them
            raw = self.cut_raw(text, match, given)
            values = self.get_raw(raw)
            if self.reads_object:
                # The object its properties are read from, given what was read.
                url = self.build(text, match, self.host_checks)
                primed(url, raw)
            if self.presence:
                # Which fields were present before the hook is part of the shape too.
                shape = (spelling, *map(type, values), *map(type, given))
            else:
                shape = (spelling, *map(type, values))
        else:
            url = self.build(text, match, self.host_checks)
            values = self.get_raw(url._raw())  # the class's hook reads them
            shape = (spelling, *map(type, values))
        found = self.shapes.get(shape)
        if found is None:
            found = self._shape(shape, text, match, values, url)
        template, fills, pick, texts, fast = found
        if texts is not None and (not self.by_hook or "%" in text):
            # The hook's texts, written as they are if JSON would write them so
            # (one test for them all) and they hold no escape. (The parts of a
            # text that JSON writes as it is, as URL._cut gives, are written so.)
            joined = "".join(texts(values))
            if "%" in joined or len(_quoted(joined)) != len(joined) + 2:
                return self.written(text, match, spelling, url)
        if fast is not None:
            written = fast(values)
            if written is not None:
                return written
        if not fills:
            return template if pick is None else template % pick(values)
        filled: list[str] = []
        known = self.known
        for kind, at, slot, read, key in fills:
            if kind == _SEGMENTS:
                filled.append(values[at].replace("/", '", "'))
                continue
            if kind == _DIGITS:
                value = values[at]
                if (
                    value.isdigit()
                    and (value[0] != "0" or len(value) == 1)
                    and len(value) <= DIGITS_WIDTH
                ):
                    filled.append(value)  # the number's JSON is its digits
                    continue
            if kind == _ATTRIBUTE and url is not None:
                filled.append(_json(getattr(url, slot)))  # read from the object, every line
                continue
            written = None
            if key >= 0:
                value = values[key]
                if value is None or value.__class__ is str:  # what _fill keeps texts by
                    written = known.get((slot, spelling, value))
                elif kind == _VALUE:  # a hook's tuple (prospero's pairs): never kept
                    filled.append(_json(value if read is None else read(value)))
                    continue
            if written is None:
                url = self._fill(filled, kind, at, slot, read, text, match, values, url)
            else:
                filled.append(written)
        assert pick is not None
        record: str = template % pick((*values, *filled))
        return record

    def _shape(
        self,
        shape: tuple[object, ...],
        text: str,
        match: re.Match[str],
        values: tuple[Any, ...],
        url: URL | None,
    ) -> _Shape:
        """The template of the records of one shape, and what fills it.

        A shape is the scheme as written and the type of each value (``str``,
        ``None``, a tuple of pairs...), and where a hook reads the fields and
        the class has properties that depend on which are present
        (:func:`~.plan.by_presence`), the type of each before the
        hook too; for a text that JSON writes as it is
        and whose raw texts hold no escape, so that the decoded value of a
        field that gives back a text without escapes (:func:`~.plan.decode_kind`) is its
        raw text. The template is a ``%`` format: the members the same for a
        spelling are written in it, an absent field as ``null``; each
        ``%s`` takes a raw text as it is (between the template's quotes: read
        from the match, or given by the class's hook and checked by
        :meth:`write`), or what a :data:`_Fill` gives from the line's values.
        ``pick`` takes the arguments of the format from the values and the
        fills' texts, in the template's order.
        """
        if url is None:
            url = self.object(text, match, values)
        parts = ['"class": ' + _quoted(self.cls.__name__)]
        fills: dict[tuple[int, str], _Fill] = {}
        places: list[int | tuple[int, str]] = []  # a value's index, or a fill's key

        def value_at(key: str) -> str:
            places.append(self.index[key])
            return "%s"

        # The indexes of the hook's texts (str values), which write checks.
        hooked = (
            []
            if self.by_span
            else [at for at, kind in enumerate(shape[1 : 1 + len(values)]) if kind is str]
        )

        def fill(kind: int, key: str, slot: str, read: Callable[[Any], object] | None) -> str:
            at = self.index.get(key, -1)
            # The index of the one value the fill's text is kept by (see _fill), or -1.
            kept_by = -1
            if kind in (_VALUE, _DIGITS):
                kept_by = at
            elif kind == _BY_FIELDS and len(self.by_fields[key]) == 1:
                kept_by = self.index[self.by_fields[key][0]]
            fills.setdefault((kind, slot), (kind, at, slot, read, kept_by))
            places.append((kind, slot))
            return "%s"

        for name, role, key, read in self.members:
            if name in self.constant:
                value = json_value(json_ready(getattr(url, name))).replace("%", "%%")
            elif name in self.presence:
                # The same for every line of the shape: which fields are present.
                value = json_value(json_ready(getattr(url, name))).replace("%", "%%")
            elif role == "attribute":
                kind = _BY_FIELDS if name in self.by_fields else _ATTRIBUTE
                value = fill(kind, name, name, None)
            else:
                assert key is not None
                plan = self.by_key[key]
                raw = values[self.index[key]]
                if raw is None and role in ("raw", "decoded") and plan[2] != OTHER:
                    value = "null"  # decode(None) is None
                elif raw.__class__ is str and (
                    role == "raw" or (role == "decoded" and plan[2] in (SAME, ESCAPED))
                ):
                    # The decoded value of a text without escapes is that text
                    # too; JSON writes it as it is.
                    value = '"' + value_at(key) + '"'
                elif role == "raw":
                    value = fill(_VALUE, key, key, None)
                elif role == "decoded" and plan[2] == NUMBER and raw.__class__ is str:
                    value = fill(_DIGITS, key, name, read)
                elif role == "segments" and plan[8] and raw is None:
                    value = "[]"
                elif role == "segments" and plan[8]:
                    value = '["' + fill(_SEGMENTS, key, name, None) + '"]'
                else:
                    value = fill(_VALUE, key, name, read)
            parts.append(f"{_quoted(name)}: {value}")
        template = ", ".join(parts)
        ordered = tuple(fills.values())
        # The fills' texts come after the values, in the order of ``ordered``.
        after = {(fill[0], fill[2]): len(values) + at for at, fill in enumerate(ordered)}
        indexes = [place if isinstance(place, int) else after[place] for place in places]
        pick: Callable[[tuple[Any, ...]], Any] | None = None
        if len(indexes) == 1:
            (only,) = indexes
            pick = lambda values: (values[only],)  # noqa: E731
        elif indexes:
            pick = itemgetter(*indexes)
        elif not ordered:
            template = template % ()  # nothing to fill: its %% are % again
        texts: Callable[[tuple[Any, ...]], Any] | None = None
        if hooked:
            texts = itemgetter(*hooked)  # one index: the text itself, which join gives back
        fast = None
        if indexes:
            fast = self._record_function(
                template, indexes, ordered, shape, text, match, values, url
            )
        found = (template, ordered, pick, texts, fast)
        spelling = shape[0]
        if self.by_span and fast is not None and isinstance(spelling, str):
            spelled = self.spelled.get(spelling)
            if spelled is None and len(self.spelled) < SPELLINGS_KEPT:
                spelled = self.spelled[spelling] = {}
            if spelled is not None and len(spelled) < _SHAPES_KEPT:
                spelled[presence(values, len(values) - len(self.nones))] = fast
        if self.by_hook and fast is not None and isinstance(spelling, str):
            by_types = self.hooked.get(spelling)
            if by_types is None and len(self.hooked) < SPELLINGS_KEPT:
                by_types = self.hooked[spelling] = {}
            if by_types is not None and len(by_types) < _SHAPES_KEPT:
                by_types[cast("tuple[type, ...]", shape[1:])] = (fast, texts)
        if len(self.shapes) < _SHAPES_KEPT:
            self.shapes[shape] = found
        return found

    def _record_function(
        self,
        template: str,
        places: list[int],
        fills: tuple[_Fill, ...],
        shape: tuple[object, ...],
        text: str,
        match: re.Match[str],
        values: tuple[Any, ...],
        url: URL,
    ) -> Callable[[tuple[Any, ...]], str | None] | None:
        """The shape's record as one function (:mod:`.codegen`), where its fills allow.

        Each fill becomes the step the loop of :meth:`write` would take on a
        line of the shape, a value that is ``None`` in the shape (so the same
        for all its lines) worked out now; ``None`` (no function: the loop
        writes every line) where a fill needs the object.
        """
        spelling = shape[0]
        assert isinstance(spelling, str)
        steps: list[Step] = []
        names: dict[str, Callable[[Any], object]] = {}
        for kind, at, slot, read, key in fills:
            if kind == _SEGMENTS:
                steps.append(Segments(at))
            elif kind == _DIGITS:
                steps.append(Digits(at, (slot, spelling)))
            elif kind == _ATTRIBUTE or key < 0:
                return None
            elif shape[1 + key] is type(None):
                written: list[str] = []
                self._fill(written, kind, at, slot, read, text, match, values, url)
                steps.append(Constant(written[0]))
            elif shape[1 + key] is str:
                steps.append(Known(key, (slot, spelling)))
            elif kind == _VALUE:
                name = ""
                if read is not None:
                    name = f"read{len(names)}"
                    names[name] = read
                steps.append(Encoded(at, name))
            else:
                return None
        try:
            return record_function(template, places, steps, len(values), self.known, _json, names)
        except ValueError:  # a constant text the f-string cannot hold as it is
            return None

    def _fill(
        self,
        filled: list[str],
        kind: int,
        at: int,
        slot: str,
        read: Callable[[Any], object] | None,
        text: str,
        match: re.Match[str],
        values: tuple[Any, ...],
        url: URL | None,
    ) -> URL | None:
        """Append the JSON text of a :data:`_VALUE`, :data:`_BY_FIELDS` or :data:`_ATTRIBUTE` fill.

        A value of a short raw text (a port, a scheme written in capitals),
        and a property that depends on the spelling and such texts alone
        (:func:`~.plan.by_fields`), are worked out once for each.
        Returns the object, where it had to be built.
        """
        known: tuple[object, ...] = ()
        if kind != _ATTRIBUTE:
            if kind == _BY_FIELDS:
                depends = [values[self.index[name]] for name in self.by_fields[slot]]
            else:
                depends = [values[at]]
            known = (slot, text[: text.index(":")], *depends)
            for value in depends:
                # Short texts only: the values kept are few and small.
                if value is not None and (value.__class__ is not str or len(value) > _KNOWN_WIDTH):
                    known = ()
                    break
        written = self.known.get(known) if known else None
        if written is None:
            if kind in (_VALUE, _DIGITS):
                value = values[at] if read is None else read(values[at])
            else:
                if url is None:
                    url = self.object(text, match, values)
                value = getattr(url, slot)
            written = _json(value)
            if known and len(self.known) < _KNOWN_KEPT:
                self.known[known] = written
        filled.append(written)
        return url

    def written(
        self, text: str, match: re.Match[str], spelling: str, url: URL | None = None
    ) -> str:
        """The record of a text with escapes: each field read and decoded in turn."""
        if url is None:
            url = self.build(text, match, self.host_checks)
        if self.refusing is None:
            self.refusing = refusing(url)
        if self.refusing and refused(url):
            # A decoded value the URL cannot give: to_dict() leaves it out.
            return members_json(url)
        template = self.templates.get(spelling) or self.template(spelling, url)
        by_span = self.by_span
        if by_span:
            raw: Parts = self.spanned(text, match, spelling)
            primed(url, raw)
            # A substring of a text that JSON writes as it is needs no escaping.
            as_json: Callable[[str], str] = _unquoted
        else:
            raw = url._raw()  # the class's hook reads them
            as_json = _quoted
        out = [""] * self.slots
        for key, cached, kind, decode, decoded, as_written, segments, split, plain in self.fields:
            value: Any = raw[key]
            if value is None:
                written = "null"
                same = kind != OTHER  # decode(None) is None
            elif value.__class__ is str:
                written = as_json(value)
                # What Field.decode gives back as it is (ASCII without escapes).
                same = kind == SAME or (kind == ESCAPED and value.isascii() and "%" not in value)
            else:
                written = json_value(json_ready(value))
                same = False
            if decoded >= 0:
                if same:
                    out[decoded] = written
                else:
                    # Kept where the object looks for it (URL._decoded): properties read it.
                    result = raw[cached] = decode(value)  # type: ignore[index]
                    out[decoded] = json_value(json_ready(result))
            if as_written >= 0:
                out[as_written] = written
            if segments >= 0:
                if plain and value is None:
                    out[segments] = "[]"
                elif plain and by_span and "%" not in value:
                    # Path.segments of a text without escapes: its parts, as they are.
                    out[segments] = '["' + value.replace("/", '", "') + '"]'
                else:
                    assert split is not None
                    out[segments] = json_value(json_ready(split(value)))
        for name, slot in self.attributes:
            out[slot] = json_value(json_ready(getattr(url, name)))
        return template % tuple(out)


def _unquoted(text: str) -> str:
    """A text that JSON writes as it is, between quotes."""
    return '"' + text + '"'


#: How one ``%s`` of a shape's template (see :meth:`_Writer._shape`) is filled
#: from a line's values: ``(kind, at, slot, read, key)``. :data:`_SEGMENTS`: the
#: raw path at ``at``, a text JSON writes as it is, with ``/`` written ``", "``;
#: :data:`_VALUE`: ``read`` of the value at ``at`` (``None``: the value itself)
#: as JSON; :data:`_DIGITS`: the same for a :class:`Number` field, whose text of
#: ASCII digits without a leading zero is the JSON of its number (at most
#: :data:`~.codegen.DIGITS_WIDTH` of them: ``json_ready`` writes a longer number as text);
#: :data:`_BY_FIELDS`, :data:`_ATTRIBUTE`: the property ``slot`` of the
#: object as JSON. ``slot`` names the fill (a member, or a raw field); ``key``
#: is the index of the one value its text is kept by, or -1 (see
#: :meth:`_Writer._fill`).
_Fill = tuple[int, int, str, "Callable[[Any], object] | None", int]
#: A shape's template, its fills, what picks the format's arguments from the
#: values and the fills' texts (``None``: the template is the record), what
#: picks the texts a hook gave (``None``: the values come from the match), and
#: the record as one function (``None``: none, the loop writes it).
_Shape = tuple[
    str,
    tuple[_Fill, ...],
    "Callable[[tuple[Any, ...]], Any] | None",
    "Callable[[tuple[Any, ...]], Any] | None",
    "Callable[[tuple[Any, ...]], str | None] | None",
]
_SEGMENTS, _VALUE, _DIGITS, _BY_FIELDS, _ATTRIBUTE = range(5)

#: How many shapes a writer keeps; how many values worked out once, of raw texts
#: of at most how many characters (a port, a scheme, a type code).
_SHAPES_KEPT = 4096
_KNOWN_KEPT = 4096
_KNOWN_WIDTH = 64
