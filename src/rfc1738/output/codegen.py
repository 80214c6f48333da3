"""One record shape of :mod:`.jsonl` as one generated Python function.

A shape's record is a template whose ``%s`` take raw texts read from the
match and texts worked out per line (a path's segments, a port's digits, a
value worked out once per raw text). Filling it with a loop over the fills
and ``template % args`` costs more than the rest of writing the record;
:func:`record_function` writes the same steps out as the source of one
function, its text in one f-string, as :func:`collections.namedtuple` and
:mod:`dataclasses` write theirs. The function gives ``None`` where a line
needs more than those steps (a port with a leading zero, a value not
worked out yet): the caller's loop, which handles every line, writes it.
:func:`line_function` and :func:`hooked_line_function` write out, per
class, how a line's values are read and its shape's function found, the
writer's own ``write`` taking every line they cannot.

What goes into the source is indexes, names bound to the caller's values,
and texts the same for every line of the shape (its constant JSON, the
scheme as written), each written as a Python literal: :func:`repr` for a
string, and for the f-string's own text escapes for ``\\``, ``'`` and
braces, on printable ASCII alone (JSON with ``ensure_ascii`` is that).
"""

# No `from __future__ import annotations`: the NamedTuple fields' annotations stay
# types, not strings that typing compiles one by one at import (docs/architecture.md, "Start-up").
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

__all__ = [
    "Constant",
    "Digits",
    "Encoded",
    "HookedShape",
    "Known",
    "Segments",
    "Step",
    "first_group",
    "hooked_line_function",
    "line_function",
    "presence",
    "record_function",
]


class Segments(NamedTuple):
    """The raw path at ``values[at]``, a text JSON writes as it is, with ``/`` written ``", "``."""

    at: int


class Known(NamedTuple):
    """The text ``known`` keeps for ``(*key, values[at])``; where it keeps none, no record."""

    at: int
    key: tuple[str, ...]


class Digits(NamedTuple):
    """The digits at ``values[at]`` as a JSON number, if they are one; else as :class:`Known`.

    Digits without a leading zero, and at most :data:`DIGITS_WIDTH` of
    them, are the JSON of their number. The values are ASCII (a writer
    takes this way only for lines that are), so ``str.isdigit`` tells.
    """

    at: int
    key: tuple[str, ...]


class Encoded(NamedTuple):
    """``encode(read(values[at]))``, ``read`` a name that ``names`` binds (``""``: none)."""

    at: int
    read: str


class Constant(NamedTuple):
    """A text the same for every line of the shape."""

    text: str


#: How one fill of a shape's template is worked out.
Step = Segments | Digits | Known | Encoded | Constant

#: At most how many digits a :class:`Digits` fill writes as a number.
DIGITS_WIDTH = 4000

#: What a shape's template holds besides its text: a ``%s`` or a ``%%``.
_PLACE = re.compile(r"%[s%]")


def record_function(
    template: str,
    places: Sequence[int],
    steps: Sequence[Step],
    values: int,
    known: Mapping[tuple[object, ...], str],
    encode: Callable[[object], str],
    names: Mapping[str, Callable[[Any], object]],
) -> Callable[[tuple[Any, ...]], str | None]:
    """``record(values)``: ``template % args``, or ``None`` where a step cannot say.

    ``template`` is a ``%`` format with ``%s`` and ``%%``; ``places`` the
    index of each ``%s``'s argument in ``(*values, *fills)``, ``values``
    texts read from a line and ``fills`` the texts ``steps`` work out from
    them, one per step; ``values`` is how many values a line has.
    ``known`` maps a step's ``(*key, raw text)`` to the text of the value
    worked out for it; ``encode`` writes a value as JSON; ``names`` binds the
    functions :class:`Encoded` steps name.

    >>> record = record_function(
    ...     '{"path": "%s", "segments": ["%s"], "port": %s}',
    ...     [1, 3, 4], [Segments(1), Digits(2, ("port",))], 3, {}, str, {},
    ... )
    >>> record(("http://h:80/a/b", "a/b", "80"))
    '{"path": "a/b", "segments": ["a", "b"], "port": 80}'
    >>> record(("http://h:080/a/b", "a/b", "080")) is None
    True
    """
    lines = ["def record(values):"]
    for number, step in enumerate(steps):
        fill = f"fill{number}"
        if isinstance(step, Segments):
            (at,) = step
            lines.append(f"    {fill} = values[{at}].replace('/', '\", \"')")
        elif isinstance(step, Digits):
            at, key = step
            lines += [
                f"    {fill} = values[{at}]",
                f"    if not ({fill}.isdigit() and ({fill}[0] != '0' or len({fill}) == 1)"
                f" and len({fill}) <= {DIGITS_WIDTH}):",
                f"        {fill} = known.get(({_items(key)}{fill}))",
                f"        if {fill} is None:",
                "            return None",
            ]
        elif isinstance(step, Known):
            at, key = step
            lines += [
                f"    {fill} = known.get(({_items(key)}values[{at}]))",
                f"    if {fill} is None:",
                "        return None",
            ]
        elif isinstance(step, Encoded):
            at, read = step
            if not read:
                lines.append(f"    {fill} = encode(values[{at}])")
                continue
            if not read.isidentifier() or read in ("known", "encode", "values"):
                raise ValueError(f"{read!r} cannot name a function")
            lines.append(f"    {fill} = encode({read}(values[{at}]))")
        else:
            lines.append(f"    {fill} = {step.text!r}")
    pieces: list[str] = []
    arguments = iter(places)
    end = 0
    for place in _PLACE.finditer(template):
        pieces.append(_in_fstring(template[end : place.start()]))
        if place.group() == "%%":
            pieces.append("%")
        else:
            at = next(arguments)
            pieces.append(f"{{values[{at}]}}" if at < values else f"{{fill{at - values}}}")
        end = place.end()
    pieces.append(_in_fstring(template[end:]))
    if next(arguments, None) is not None:
        raise ValueError("more places than the template has %s")
    lines.append("    return f'" + "".join(pieces) + "'")
    function: Callable[[tuple[Any, ...]], str | None] = _defined(
        lines, "<rfc1738 record>", {"known": known, "encode": encode, **names}
    )
    return function


def _defined(lines: list[str], filename: str, names: dict[str, Any]) -> Any:
    """The function the source ``lines`` define (the first line names it), with ``names``
    as its globals."""
    exec(compile("\n".join(lines), filename, "exec"), names)
    return names[lines[0].removeprefix("def ").partition("(")[0]]


def _line_names(
    by_spelling: object, slow: object, encode: object, several: Sequence[Sequence[int]]
) -> dict[str, Any]:
    """The globals the functions of :func:`line_function` and :func:`hooked_line_function` share."""
    return {
        "by_spelling": by_spelling,
        "slow": slow,
        "encode": encode,
        "several": tuple(tuple(found) for found in several),
        "first_group": first_group,
    }


def _items(key: tuple[str, ...]) -> str:
    """The texts of ``key`` as the first items of a tuple display (``'a', 'b', ``)."""
    return "".join(f"{item!r}, " for item in key)


def _in_fstring(text: str) -> str:
    """``text`` as the literal part of an f-string between single quotes."""
    if not text.isascii() or not text.isprintable():
        raise ValueError(f"not printable ASCII: {text!r}")
    return text.replace("\\", "\\\\").replace("'", "\\'").replace("{", "{{").replace("}", "}}")


def line_function(
    numbers: Sequence[int],
    several: Sequence[Sequence[int]],
    nones: int,
    by_spelling: Mapping[str, Mapping[int, Callable[[tuple[Any, ...]], str | None]]],
    slow: Callable[[str, Any, bool | None], str],
    encode: Callable[[str], str],
) -> Callable[[str, Any, bool | None], str]:
    """``write(text, match, plain=None)`` for a class whose raw fields are its groups' texts.

    The values of a line are ``match.group(0, *numbers)``, the first group
    of each of ``several`` that took part, and ``nones`` times ``None``, as
    :meth:`.jsonl._JsonWriter.write` reads them. Its record is
    ``by_spelling[spelling][presence](values)``, ``spelling`` the scheme as
    written and ``presence`` a number with bit ``i - 1`` set where
    ``values[i]`` is ``None`` (``i`` from 1, the values before the
    ``nones``): that is, the shape's function of ``values`` (those of a
    class read from the match are texts or ``None``, so which are ``None``
    tells the shape, with the spelling). Where ``text`` needs escaping in
    JSON (``plain``, as ``slow`` takes it; ``None``: worked out with
    ``encode``) or holds a ``%``, where no function is known, or where the
    function gives no record, ``slow(text, match, plain)`` writes it.

    With the shipped grammar's http expression, its host and port groups:

    >>> import rfc1738
    >>> fast = rfc1738.shipped().engine("http")
    >>> host, port = (dict(fast.fields)[name][0] for name in ("host", "port"))
    >>> shapes = {"http": {0b10: lambda values: f'"host": "{values[1]}", "port": null'}}
    >>> write = line_function([host, port], [], 0, shapes, lambda *line: "slow", str)
    >>> write("http://h.example/", fast.pattern.fullmatch("http://h.example/"), True)
    '"host": "h.example", "port": null'
    >>> write("http://h:8/", fast.pattern.fullmatch("http://h:8/"))
    'slow'
    """
    groups = ", ".join(["0", *map(str, numbers)])
    count = 1 + len(numbers) + len(several)
    lines = [
        "def write(text, match, plain=None):",
        "    if plain is None:",
        "        plain = len(encode(text)) == len(text) + 2",
        "    if plain and '%' not in text:",
        "        shapes = by_spelling.get(text[: text.index(':')])",
        "        if shapes is not None:",
        f"            values = match.group({groups}){',' if not numbers else ''}",
    ]
    for at in range(len(several)):
        lines.append(f"            values += (first_group(match, several[{at}]),)")
    if nones:
        lines.append(f"            values += {(None,) * nones!r}")
    presence = " | ".join(f"((values[{at}] is None) << {at - 1})" for at in range(1, count))
    lines += [
        f"            found = shapes.get({presence or '0'})",
        "            if found is not None:",
        "                record = found(values)",
        "                if record is not None:",
        "                    return record",
        "    return slow(text, match, plain)",
    ]
    function: Callable[[str, Any, bool | None], str] = _defined(
        lines, "<rfc1738 line>", _line_names(by_spelling, slow, encode, several)
    )
    return function


def presence(values: Sequence[object], count: int) -> int:
    """The number :func:`line_function` looks a shape up by: bit ``i - 1`` set where
    ``values[i]`` is ``None``, for ``i`` from 1 to ``count - 1``.

    >>> presence(("http://h/", "h", None, "", None), 5)
    10
    """
    return sum(1 << (at - 1) for at in range(1, count) if values[at] is None)


def first_group(match: Any, found: Sequence[int]) -> str | None:
    """The text of the first of the groups ``found`` that took part in ``match``."""
    for number in found:
        value = match.group(number)
        if value is not None:
            return value  # type: ignore[no-any-return]
    return None


def _spans_lines(groups: tuple[tuple[str, tuple[int, ...]], ...], indent: str) -> list[str]:
    """Source lines that set ``spans`` to ``spans_from_regs(match.regs, groups)``, written out:
    per production, the span of its first group that matched."""
    lines = ["regs = match.regs", "spans = {}"]
    for name, numbers in groups:
        if len(numbers) == 1:
            lines += [f"span = regs[{numbers[0]}]", f"if span[0] >= 0: spans[{name!r}] = span"]
        elif numbers:
            lines += [
                f"for number in {numbers!r}:",
                "    span = regs[number]",
                "    if span[0] >= 0:",
                f"        spans[{name!r}] = span",
                "        break",
            ]
    return [indent + line for line in lines]


#: A shape of a hooked class's records, as :func:`hooked_line_function` finds it:
#: its function of the values, and what picks the texts the hook gave (``None``: none).
HookedShape = tuple[
    Callable[[tuple[Any, ...]], "str | None"], "Callable[[tuple[Any, ...]], Any] | None"
]


def hooked_line_function(
    numbers: Sequence[int],
    several: Sequence[Sequence[int]],
    nones: int,
    read_keys: Sequence[str],
    raw_keys: Sequence[str],
    given: bool,
    by_spelling: Mapping[str, Mapping[tuple[type, ...], HookedShape]],
    layouts: Mapping[str, Callable[[], Any]],
    cut: Callable[[dict[str, Any], str, Any, Callable[[], Any]], None],
    hook_groups: tuple[tuple[str, tuple[int, ...]], ...],
    slow: Callable[[str, Any, bool | None], str],
    encode: Callable[[str], str],
) -> Callable[[str, Any, bool | None], str]:
    """``write(text, match, plain=None)`` for a class whose hook (``URL._cut``) reads its fields.

    What :meth:`.jsonl._JsonWriter.write` does for such a class, written out:
    the values read from the match (``match.group(0, *numbers)``, the first
    group of each of ``several`` that took part, and ``nones`` times
    ``None``), under ``read_keys``, go into the dictionary of raw fields
    (``raw_scheme`` the scheme as written), ``cut`` changes it with the spans of ``hook_groups``
    (each production's first group that matched, as
    :func:`~rfc1738.runtime.spans.spans_from_regs` finds them, written out) and the
    spelling's layout (``layouts``), and the raw fields in the order
    of ``raw_keys`` are the values of the record. Its shape is their types
    (and, where ``given``, those of the values before the hook), looked up
    in ``by_spelling[spelling]``; where the text holds a ``%``, the texts
    the hook gave must be ones JSON writes as they are, with no ``%``.
    Anything else (a text JSON escapes, a spelling or a shape not seen yet,
    a function that gives no record) is written by ``slow(text, match,
    plain)``.
    """
    groups = ", ".join(["0", *map(str, numbers)])
    if len(read_keys) != 1 + len(numbers) + len(several) + nones:
        raise ValueError("one key for each value read")
    entries = ["'raw_scheme': spelling"]
    entries += [f"{key!r}: values[{at}]" for at, key in enumerate(read_keys[1:], 1)]
    after = "".join(f"raw[{key!r}], " for key in raw_keys)
    key = "(*map(type, after), *map(type, values))" if given else "tuple(map(type, after))"
    lines = [
        "def write(text, match, plain=None):",
        "    if plain is None:",
        "        plain = len(encode(text)) == len(text) + 2",
        "    if plain:",
        "        spelling = text[: text.index(':')]",
        "        shapes = by_spelling.get(spelling)",
        "        layout = layouts.get(spelling)",
        "        if shapes is not None and layout is not None:",
        f"            values = match.group({groups}){',' if not numbers else ''}",
        *(
            f"            values += (first_group(match, several[{at}]),)"
            for at in range(len(several))
        ),
        *([f"            values += {(None,) * nones!r}"] if nones else []),
        "            raw = {" + ", ".join(entries) + "}",
        *_spans_lines(hook_groups, "            "),
        "            cut(raw, text, spans, layout)",
        f"            after = ({after})",
        f"            found = shapes.get({key})",
        "            if found is not None:",
        "                record_of, texts = found",
        "                if texts is not None and '%' in text:",
        "                    joined = ''.join(texts(after))",
        "                    if '%' in joined or len(encode(joined)) != len(joined) + 2:",
        "                        return slow(text, match, plain)",
        "                record = record_of(after)",
        "                if record is not None:",
        "                    return record",
        "    return slow(text, match, plain)",
    ]
    names = _line_names(by_spelling, slow, encode, several)
    names |= {"layouts": layouts, "cut": cut}
    function: Callable[[str, Any, bool | None], str] = _defined(
        lines, "<rfc1738 hooked line>", names
    )
    return function
