"""A record shape as one generated function (``rfc1738.output.codegen``)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from operator import itemgetter

import pytest

from rfc1738.output.codegen import (
    DIGITS_WIDTH,
    Constant,
    Digits,
    Encoded,
    HookedShape,
    Known,
    Segments,
    hooked_line_function,
    line_function,
    presence,
    record_function,
)


def test_each_step_fills_its_place() -> None:
    known = {("port", "http", "080"): "80", ("effective", "http", "8080"): "8080"}
    record = record_function(
        '"segments": ["%s"], "port": %s, "effective": %s, "pairs": %s, "named": %s, '
        '"default": %s, "path": "%s", "100%%": true',
        [3, 4, 5, 6, 7, 8, 1],
        [
            Segments(1),
            Digits(2, ("port", "http")),
            Known(2, ("effective", "http")),
            Encoded(0, ""),
            Encoded(2, "read0"),
            Constant("null"),
        ],
        3,
        known,
        json.dumps,
        {"read0": len},
    )
    assert record(((("a", "b"),), "x/y", "8080")) == (
        '"segments": ["x", "y"], "port": 8080, "effective": 8080, "pairs": [["a", "b"]], '
        '"named": 4, "default": null, "path": "x/y", "100%": true'
    )
    # Digits that are not a JSON number are looked up; what is not known gives no record.
    assert record(((), "", "080")) is None  # "080" is known as a port, not as "effective"
    known[("effective", "http", "080")] = "80"
    assert record(((), "", "080")) == (
        '"segments": [""], "port": 80, "effective": 80, "pairs": [], "named": 3, '
        '"default": null, "path": "", "100%": true'
    )


def test_digits_as_wide_as_a_number_is_written() -> None:
    record = record_function("%s", [1], [Digits(0, ("port",))], 1, {}, json.dumps, {})
    assert record(("9" * DIGITS_WIDTH,)) == "9" * DIGITS_WIDTH
    assert record(("9" * (DIGITS_WIDTH + 1),)) is None
    assert record(("0",)) == "0"
    assert record(("00",)) is None
    assert record(("",)) is None


@pytest.mark.parametrize(
    "text", ["'", '"', "\\", "{", "}", "{}", "{values[0]}", "\\'", "%%s", "\\u00e9", "a'b\"c"]
)
def test_the_template_text_is_written_as_it_is(text: str) -> None:
    template = text + "%s" + text
    record = record_function(template, [0], [], 1, {}, json.dumps, {})
    assert record(("x",)) == (template % ("x",))


@pytest.mark.parametrize("text", ["\n", "\x00", "caf\u00e9"])
def test_text_that_is_not_printable_ascii_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="not printable ASCII"):
        record_function(text + "%s", [0], [], 1, {}, json.dumps, {})


def test_a_constant_is_a_literal_whatever_it_holds() -> None:
    for text in ["'", "\\", "{x}", "\n", "caf\u00e9"]:
        record = record_function("%s", [1], [Constant(text)], 1, {}, json.dumps, {})
        assert record(("",)) == text


def test_names_and_places_are_checked() -> None:
    with pytest.raises(ValueError, match="cannot name"):
        record_function("%s", [1], [Encoded(0, "known")], 1, {}, json.dumps, {})
    with pytest.raises(ValueError, match="cannot name"):
        record_function("%s", [1], [Encoded(0, "a b")], 1, {}, json.dumps, {})
    with pytest.raises(ValueError, match="more places"):
        record_function("%s", [0, 0], [], 1, {}, json.dumps, {})


def test_a_line_function_finds_the_shape_by_spelling_and_presence() -> None:
    pattern = re.compile(r"(?P<s>[a-zA-Z]+)://(?:([a-z]+)|([0-9]+))(?::([0-9]+))?/(x)?")
    slow: list[str] = []

    def write_slowly(text: str, match: object, plain: bool | None) -> str:
        slow.append(text)
        return "slow"

    # Values: the text, group 4 (the port), the first of groups 2 and 3 (the
    # host) and one None; the presence of the two in between tells the shape.
    shapes: dict[str, dict[int, Callable[[tuple[object, ...]], str | None]]] = {
        "http": {
            presence(("", None, "h", None), 3): lambda values: f"port-less {values[2]}",
            presence(("", "80", "h", None), 3): lambda values: None,  # no record: slow
        }
    }
    write = line_function([4], [(2, 3)], 1, shapes, write_slowly, json.dumps)

    def line(text: str, plain: bool | None = None) -> str:
        match = pattern.fullmatch(text)
        assert match is not None
        return write(text, match, plain)

    assert line("http://h/") == "port-less h"
    assert line("http://42/", True) == "port-less 42"
    assert slow == []
    assert line("HTTP://h/") == "slow"  # another spelling
    assert line("http://h:80/") == "slow"  # its function gives no record
    assert line("http://h/", False) == "slow"  # the caller says it needs escapes
    assert slow == ["HTTP://h/", "http://h:80/", "http://h/"]


def test_a_line_function_of_the_text_alone() -> None:
    shapes = {"news": {0: lambda values: f"text {values[0]}"}}
    write = line_function([], [], 0, shapes, lambda *line: "slow", json.dumps)
    match = re.fullmatch(r"news:[a-z.]+", "news:comp.lang")
    assert match is not None
    assert write("news:comp.lang", match) == "text news:comp.lang"
    escaped = re.fullmatch(r"news:.+", 'news:a"b')
    assert escaped is not None
    assert write('news:a"b', escaped) == "slow"  # JSON escapes '"'
    percent = re.fullmatch(r"news:.+", "news:a%20b")
    assert percent is not None
    assert write("news:a%20b", percent) == "slow"  # an escape: the writer decodes it


def test_a_hooked_line_function_runs_the_hook_and_finds_the_shape_by_types() -> None:
    # "x://head/tail%09more": group 1 the head, group 2 what the hook cuts at "%09".
    pattern = re.compile(r"([a-zA-Z]+)://([a-z]+)/(.*)")
    slow: list[str] = []

    def write_slowly(text: str, match: object, plain: bool | None) -> str:
        slow.append(text)
        return "slow"

    def cut(raw: dict[str, object], text: str, spans: object, layout: Callable[[], str]) -> None:
        assert spans == {"rest": pattern.fullmatch(text).span(3)}  # type: ignore[union-attr]
        rest = raw.pop("rest_text")
        assert isinstance(rest, str)
        first, _, second = rest.partition(layout())
        raw["first"], raw["second"] = first, second or None

    # Values read: the text, the head, the rest; after the hook: the scheme as
    # written, the head, the two parts.
    none = type(None)
    shapes: dict[str, dict[tuple[type, ...], HookedShape]] = {
        "x": {
            (str, str, str, none): (lambda after: f"one {after[2]}", None),
            (str, str, str, str): (
                lambda after: f"two {after[2]}+{after[3]}",
                itemgetter(2, 3),
            ),
        }
    }
    write = hooked_line_function(
        [2, 3],
        [],
        0,
        ["raw_scheme", "head", "rest_text"],
        ["raw_scheme", "head", "first", "second"],
        False,
        shapes,
        {"x": lambda: "%09"},
        cut,  # type: ignore[arg-type]
        (("rest", (3,)),),
        write_slowly,
        json.dumps,
    )

    def line(text: str, plain: bool | None = None) -> str:
        match = pattern.fullmatch(text)
        assert match is not None
        return write(text, match, plain)

    assert line("x://h/a") == "one a"
    assert line("x://h/a%09b") == "two a+b"
    assert slow == []
    assert line("X://h/a") == "slow"  # no shapes, no layout for that spelling
    assert line("x://h/a%09b%41") == "slow"  # a text the hook gave holds an escape
    assert line("x://h/a", False) == "slow"
    assert slow == ["X://h/a", "x://h/a%09b%41", "x://h/a"]


def test_a_hooked_line_function_tells_shapes_by_what_was_there_before_the_hook() -> None:
    # The types after the hook, then those of the values read (the text, the
    # group, and None for the field no group holds), as the writer's shapes are.
    pattern = re.compile(r"n:(?:([a-z]+)|(\*))")

    def cut(raw: dict[str, object], text: str, spans: object, layout: object) -> None:
        if raw["group"] is None:
            raw["group"] = "*"

    none = type(None)
    shapes: dict[str, dict[tuple[type, ...], HookedShape]] = {
        "n": {
            (str, str, str, str, none): (lambda after: f"group {after[1]}", None),
            (str, str, str, none, none): (lambda after: "all groups", None),
        }
    }
    write = hooked_line_function(
        [1],
        [],
        1,  # a field no group holds: None before the hook, in the shape too
        ["raw_scheme", "group", "count"],
        ["raw_scheme", "group"],
        True,
        shapes,
        {"n": lambda: None},
        cut,
        (),
        lambda *line: "slow",
        json.dumps,  # type: ignore[arg-type]
    )
    for text, record in [("n:abc", "group abc"), ("n:*", "all groups")]:
        match = pattern.fullmatch(text)
        assert match is not None
        assert write(text, match) == record


def test_a_hooked_line_function_has_a_key_for_each_value() -> None:
    with pytest.raises(ValueError, match="one key for each value"):
        hooked_line_function(
            [1], [], 1, ["raw_scheme", "a"], ["raw_scheme"], False, {}, {}, print, (), print, str
        )
