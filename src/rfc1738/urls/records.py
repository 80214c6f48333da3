"""``to_dict()`` as JSON text, written straight from a match: for many URLs at once.

``rfc1738 check --jsonl`` writes the fields of every valid line of a file.
Building each object's dictionary (:meth:`URL.to_dict
<rfc1738.urls.URL.to_dict>`) and handing it to :func:`json.dumps` costs several
times what matching the line does. :func:`members_writer` works out once per
class what it writes (:func:`~rfc1738.urls.base.members`: the names
``to_dict()`` gives and where each value comes from) and returns a function
from a line and the registers of its match to the same JSON text:

- the raw fields are read straight from the match's registers, as
  ``URL._read`` reads them from the spans (a class with a hook of its own,
  gopher's or prospero's, reads them with the hook);
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
from json.encoder import encode_basestring_ascii
from typing import Any

from ..parse.parsers import ParserSet
from ._fields import Field, Number, Path, Verbatim
from .base import URL, Parts, _plain, by_spelling, members, primed, reads_spans

__all__ = ["Groups", "json_value", "members_json", "members_writer"]

#: Per production, the numbers of the groups that may hold it (``FastParser.fields``).
Groups = tuple[tuple[str, tuple[int, ...]], ...]

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


def members_json(url: URL) -> str:
    """``json.dumps(url.to_dict())`` without its braces and its ``text`` member.

    What :func:`members_writer`'s functions give, for any object.
    """
    data = url.to_dict()
    del data["text"]
    return json.dumps(data)[1:-1]


def members_writer(
    cls: type[URL], groups: Groups, *, grammar: ParserSet | None, host_checks: bool
) -> Callable[[str, re.Match[str]], str]:
    """``write(text, match)``: :func:`members_json` of the object ``match`` makes.

    ``match`` is a match of ``text`` by the compiled expression whose groups
    are ``groups`` (the fast parser's ``fields``, host checks done), as
    :func:`rfc1738.parse.bulk.match_lines` gives it;
    the object would be ``cls`` built from them with ``grammar`` and
    ``host_checks``. The text is the same as :func:`members_json` of that
    object, without building its dictionary.
    """
    return _Writer(cls, groups, grammar, host_checks).write


#: How a field's ``decode`` treats a raw text without escapes, and ``None`` (see :func:`_kind`).
_SAME, _ESCAPED, _NUMBER, _OTHER = 0, 1, 2, 3

#: How many spellings of a scheme keep their template (``http``, ``HTTP``, ...).
_SPELLINGS_KEPT = 256


class _Writer:
    """What :func:`members_writer` works out once per class, and the function it returns.

    The JSON text is a template with one ``%s`` per member: members that are
    the same for every URL with the same scheme as written
    (:func:`~rfc1738.urls.base.by_spelling`: the scheme, the default port)
    are filled in once per spelling; for each line, each field's raw text is
    read from the match (or by the class's hook) and gives the members of
    that field, and the remaining properties are read from the object.
    """

    def __init__(
        self, cls: type[URL], groups: Groups, grammar: ParserSet | None, host_checks: bool
    ) -> None:
        self.build = cls.builder(groups, grammar)
        self.host_checks = host_checks
        plan = [member for member in members(cls) if member[0] != "text"]
        constant = by_spelling(cls)
        #: The template's parts: a member's name and ``%s``, or its name alone
        #: where it is filled in per spelling.
        self.parts: list[tuple[str, str | None]] = [("class", _quoted(cls.__name__))]
        slots: dict[tuple[str, str | None], int] = {}
        #: Properties read from the object, and their slots.
        self.attributes: list[tuple[str, int]] = []
        for name, role, key, _read in plan:
            if name in constant:
                self.parts.append((name, None))
                continue
            self.parts.append((name, "%s"))
            slots[role, key if key is not None else name] = len(slots)
            if key is None:
                self.attributes.append((name, len(slots) - 1))
        self.slots = len(slots)
        #: Per spelling of the scheme, the template with its constants filled in.
        self.templates: dict[str, str] = {}
        #: Whether raw fields are read from the match (substrings of the text).
        self.by_span = reads_spans(cls)
        numbers = dict(groups)
        #: Where each raw field is: the one group of its production, or -1 and all of them.
        self.readers = tuple(
            (field.raw_name, *_where(numbers.get(field.production, ()))) for field in cls.DECLARED
        )
        reads = {(role, key): read for _name, role, key, read in plan}
        #: Per field declaration, a _FieldPlan as a plain tuple (the loop
        #: unpacks one per field, and a tuple subclass unpacks slower).
        self.fields: tuple[_FieldPlan, ...] = tuple(
            (
                field.raw_name,
                (field.name,),
                _kind(field),
                reads.get(("decoded", field.raw_name)) or field.decode,
                slots.get(("decoded", field.raw_name), -1),
                slots.get(("raw", field.raw_name), -1),
                slots.get(("segments", field.raw_name), -1),
                reads.get(("segments", field.raw_name)),
                isinstance(field, Path) and type(field).segments is Path.segments,
            )
            for field in cls.DECLARED
        )

    def template(self, spelling: str, url: URL) -> str:
        """The template for URLs of this class whose scheme is written ``spelling``."""
        found = self.templates.get(spelling)
        if found is None:
            parts = []
            for name, value in self.parts:
                if value is None:
                    value = json_value(_plain(getattr(url, name))).replace("%", "%%")
                parts.append(f"{_quoted(name)}: {value}")
            found = ", ".join(parts)
            if len(self.templates) < _SPELLINGS_KEPT:
                self.templates[spelling] = found
        return found

    def write(self, text: str, match: re.Match[str]) -> str:
        url = self.build(text, match, self.host_checks)
        if len(_quoted(text)) != len(text) + 2:
            return members_json(url)  # something in it needs escaping: the general way
        spelling = text[: text.index(":")]
        template = self.templates.get(spelling) or self.template(spelling, url)
        by_span = self.by_span
        if by_span:
            # As URL._read reads them, from the spans of the productions.
            raw: Parts = {"raw_scheme": spelling}
            regs = match.regs
            for key, number, found in self.readers:
                if number >= 0:
                    start, end = regs[number]
                    raw[key] = text[start:end] if start >= 0 else None
                else:
                    raw[key] = _first(text, regs, found)
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
                same = kind != _OTHER  # decode(None) is None
            elif value.__class__ is str:
                written = as_json(value)
                # What Field.decode gives back as it is (ASCII without escapes).
                same = kind == _SAME or (kind == _ESCAPED and value.isascii() and "%" not in value)
            else:
                written = json_value(_plain(value))
                same = False
            if decoded >= 0:
                if same:
                    out[decoded] = written
                else:
                    # Kept where the object looks for it (URL._decoded): properties read it.
                    result = raw[cached] = decode(value)  # type: ignore[index]
                    out[decoded] = json_value(_plain(result))
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
                    out[segments] = json_value(_plain(split(value)))
        for name, slot in self.attributes:
            out[slot] = json_value(_plain(getattr(url, name)))
        return template % tuple(out)


def _unquoted(text: str) -> str:
    """A text that JSON writes as it is, between quotes."""
    return '"' + text + '"'


def _where(found: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return (found[0] if len(found) == 1 else -1), found


def _first(text: str, regs: tuple[tuple[int, int], ...], found: tuple[int, ...]) -> str | None:
    """The text of the first of the groups ``found`` that matched, as ``spans_from_regs`` picks."""
    for number in found:
        start, end = regs[number]
        if start >= 0:
            return text[start:end]
    return None


#: One field declaration, as :meth:`_Writer.write` reads and writes it:
#: ``(key, cached, kind, decode, decoded, as_written, segments, split, plain)``:
#: the raw field's name (``raw_path``, ``host``); where the object keeps its
#: decoded value (``(name,)``, see ``URL._decoded``); how its ``decode`` treats
#: a text without escapes (:func:`_kind`); its ``decode``; the slots of its
#: decoded value, its raw text and its segments (-1: not written); how its
#: segments are read, where it has them; whether that is
#: :meth:`Path.segments <rfc1738.urls.Path.segments>`.
_FieldPlan = tuple[
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


def _kind(field: Field[Any]) -> int:
    """How ``field.decode`` treats a raw text without escapes, and ``None``.

    :data:`_SAME`: gives every raw text back (:class:`Verbatim`);
    :data:`_ESCAPED`: gives back one without escapes (:meth:`Field.decode`);
    :data:`_NUMBER`: a number, ``None`` for ``None`` (:class:`Number`);
    :data:`_OTHER`: anything else (the scheme in lower case, pairs), always called.
    """
    decode = type(field).decode
    if decode is Verbatim.decode:
        return _SAME
    if decode is Field.decode:
        return _ESCAPED
    if decode is Number.decode:
        return _NUMBER
    return _OTHER
