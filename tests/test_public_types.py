"""Every public entry of ``rfc1738.__all__`` gives ``TypeError`` for what is not a ``str``.

docs/security.md promises it ("a non-``str`` raises ``TypeError`` from every
entry point"): a URL, a reference, a text, a line, a dialect name. The test
walks ``__all__``: each name is either an entry below, called with each
value that is not text, or one of :data:`TAKES_NO_TEXT`, so that a new
entry must be added to one of them. ``check_lines([None])`` raised
``AttributeError`` before (issue 19, item 8).
"""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest

import rfc1738
from rfc1738.runtime.bulk import lines, match_blocks, match_lines

#: What is not text: nothing, a number, bytes (the most likely slip), any object.
NOT_TEXT: list[object] = [None, 1, b"http://h/", bytearray(b"http://h/"), object()]

#: Names of ``__all__`` that take no text: constants, records, exceptions.
TAKES_NO_TEXT = {
    "AmbiguousFieldError",
    "CLASSES",
    "MAX_REFERENCE_LENGTH",
    "__version__",
    "Export",
    "Found",
    "LineResult",
    "LineMatch",
    "FrozenURLError",
    "GrammarError",
    "InputTooLongError",
    "RFC1738Error",
    "URLSyntaxError",
}

Call = Callable[[object], object]


def url_class_entries(cls: type[rfc1738.URL]) -> list[Call]:
    return [
        lambda v: cls.parse(v),  # type: ignore[arg-type]
        lambda v: cls.parse(v, parser="reference"),  # type: ignore[arg-type]
    ]


def grammar_entries() -> list[Call]:
    grammar = rfc1738.shipped()
    return [
        lambda v: grammar.parse(v),  # type: ignore[arg-type]
        lambda v: grammar.parse(v, parser="reference"),  # type: ignore[arg-type]
        lambda v: grammar.parse(v, host_checks=False),  # type: ignore[arg-type]
        lambda v: grammar.is_valid(v),  # type: ignore[arg-type]
        lambda v: grammar.is_valid(v, host_checks=False),  # type: ignore[arg-type]
        lambda v: grammar.parse_tree(v),  # type: ignore[arg-type]
        lambda v: grammar.scheme_file(v),  # type: ignore[arg-type]
    ]


#: Each text-taking entry of ``__all__``, as calls of one value that should be text.
ENTRIES: dict[str, list[Call]] = {
    "parse": [
        lambda v: rfc1738.parse(v),  # type: ignore[arg-type]
        lambda v: rfc1738.parse(v, rfc1738.HttpURL),  # type: ignore[arg-type]
        lambda v: rfc1738.parse(v, parser="reference"),  # type: ignore[arg-type]
        lambda v: rfc1738.parse(v, host_checks=False),  # type: ignore[arg-type]
    ],
    "is_valid": [
        lambda v: rfc1738.is_valid(v),  # type: ignore[arg-type]
        lambda v: rfc1738.is_valid(v, parser="reference"),  # type: ignore[arg-type]
        lambda v: rfc1738.is_valid(v, host_checks=False),  # type: ignore[arg-type]
    ],
    "parse_tree": [lambda v: rfc1738.parse_tree(v)],  # type: ignore[arg-type]
    "parse_reference": [
        lambda v: rfc1738.parse_reference(v),  # type: ignore[arg-type]
        lambda v: rfc1738.parse_reference(v, parser="reference"),  # type: ignore[arg-type]
    ],
    "find_urls": [lambda v: list(rfc1738.find_urls(v))],  # type: ignore[arg-type]
    "check_lines": [
        # A line of an iterable; the source itself (a str or bytes is not a file of lines).
        lambda v: list(rfc1738.check_lines([v])),  # type: ignore[list-item]
        lambda v: list(rfc1738.check_lines(["http://h/", v])),  # type: ignore[list-item]
        lambda v: list(rfc1738.check_lines(v)),  # type: ignore[arg-type]
        lambda v: list(rfc1738.check_lines([v], grammar=rfc1738.shipped())),  # type: ignore[list-item]
    ],
    "match_lines": [lambda v: list(rfc1738.match_lines([v]))],  # type: ignore[list-item]
    "match_blocks": [lambda v: list(rfc1738.match_blocks([v]))],  # type: ignore[list-item]
    "line_error": [lambda v: rfc1738.line_error(v)],  # type: ignore[arg-type]
    "export": [lambda v: rfc1738.export(v)],  # type: ignore[arg-type]
    "generate": [lambda v: rfc1738.generate(None, v)],  # type: ignore[arg-type]
    "load": [
        lambda v: rfc1738.load(v),  # type: ignore[arg-type]
        lambda v: rfc1738.load(None, classes={"http": v}),  # type: ignore[dict-item]
    ],
    "Grammar": [*grammar_entries(), lambda v: rfc1738.Grammar(v)],  # type: ignore[arg-type]
    "URL": url_class_entries(rfc1738.URL),
    **{
        name: url_class_entries(getattr(rfc1738, name))
        for name in rfc1738.__all__
        if name.endswith("URL") and name not in ("URL", "URLSyntaxError")
    },
}

#: The functions of rfc1738.runtime.bulk that rfc1738 check and the URL layer use.
BULK: list[Call] = [
    lambda v: list(lines([v])),  # type: ignore[list-item]
    lambda v: list(match_lines(rfc1738.shipped(), [v])),  # type: ignore[list-item]
    lambda v: list(match_blocks(rfc1738.shipped(), [v])),  # type: ignore[list-item]
]


#: The calls where a value here is no slip: ``None`` for the shipped grammar's
#: directory; bytes for a line (read as UTF-8, as from a binary file).
IS_A_VALUE = {
    ("load", 0, None),
    ("Grammar", len(ENTRIES["Grammar"]) - 1, None),
    ("check_lines", 0, bytes),
    ("check_lines", 1, bytes),
    ("check_lines", 3, bytes),
    ("match_lines", 0, bytes),
    ("match_blocks", 0, bytes),
}


def test_every_public_name_is_an_entry_or_takes_no_text() -> None:
    assert set(ENTRIES) | TAKES_NO_TEXT == set(rfc1738.__all__)
    assert not set(ENTRIES) & TAKES_NO_TEXT


@pytest.mark.parametrize(
    ("name", "index", "value"),
    [
        pytest.param(name, index, value, id=f"{name}-{index}-{type(value).__name__}")
        for name, calls in ENTRIES.items()
        for index in range(len(calls))
        for value in NOT_TEXT
        if (name, index, None if value is None else type(value)) not in IS_A_VALUE
    ],
)
def test_each_entry_gives_type_error(name: str, index: int, value: object) -> None:
    with pytest.raises(TypeError):
        ENTRIES[name][index](value)


@pytest.mark.parametrize("call", BULK)
@pytest.mark.parametrize("value", [None, 1, bytearray(b"x"), object()], ids=repr)
def test_the_bulk_readers_give_type_error(call: Call, value: object) -> None:
    with pytest.raises(TypeError, match="a line must be a str or bytes"):
        call(value)


def test_the_messages_say_what_was_given() -> None:
    with pytest.raises(TypeError, match="a line must be a str or bytes, not NoneType"):
        list(rfc1738.check_lines([None]))  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"not str \(give one line as a list of one\)"):
        list(rfc1738.check_lines("http://h/"))
    with pytest.raises(TypeError, match="dialect must be a str, not NoneType"):
        rfc1738.export(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a URL must be a str, not int"):
        rfc1738.shipped().scheme_file(1)  # type: ignore[arg-type]


def test_a_file_that_reads_neither_text_nor_bytes_gives_type_error() -> None:
    class Numbers:
        def read(self, size: int) -> int:
            return 1

    with pytest.raises(TypeError, match="a file of lines must read str or bytes, not int"):
        list(rfc1738.check_lines(Numbers()))  # type: ignore[arg-type]


def test_what_is_text_still_reads() -> None:
    """The checks refuse only what is not text: str, bytes and files of either still read."""
    expected = [(1, "http://h/", True), (2, "x y", False)]
    sources: list[object] = [
        ["http://h/\n", "x y"],
        [b"http://h/\r\n", b"x y"],
        io.BytesIO(b"http://h/\nx y"),
        io.StringIO("http://h/\nx y"),
        iter(["http://h/", "x y"]),
    ]
    for source in sources:
        found = rfc1738.check_lines(source)  # type: ignore[arg-type]
        assert [(r.number, r.text, r.valid) for r in found] == expected, source


def test_a_str_subclass_is_text() -> None:
    class Text(str):
        pass

    assert rfc1738.parse(Text("http://h/")).host == "h"
    assert [r.valid for r in rfc1738.check_lines([Text("http://h/")])] == [True]
