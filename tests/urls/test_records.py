"""The JSON of ``to_dict()`` written straight from a match (``rfc1738.output.jsonl``).

For every URL, the writer's text is byte for byte ``json.dumps(url.to_dict())``
less the braces and ``text``, and ``to_dict()`` (which reads its values the
same way) is what reading each name as an attribute gives.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.output.jsonl import _json, json_value, members_json, members_writer
from rfc1738.output.plan import by_fields, by_presence, by_spelling
from rfc1738.urls import CLASSES, URL, HttpURL, NewsURL
from rfc1738.urls.base import exported, json_ready, members
from tests.cases import ACCEPT

from .helpers import Refused, grammar_urls, read

SCHEMES = sorted(CLASSES)

ALL_ACCEPTED = [case.url for cases in ACCEPT.values() for case in cases]


def by_attributes(url: URL) -> dict[str, object]:
    """``to_dict()`` as it was first written: each name read as an attribute (less those
    the URL cannot give decoded)."""
    values = {name: read(url, name) for name in exported(type(url))}
    return {"class": type(url).__name__} | {
        name: json_ready(value) for name, value in values.items() if not isinstance(value, Refused)
    }


def expected_members(url: URL) -> str:
    data = dict(url.to_dict())
    del data["text"]
    return json.dumps(data)[1:-1]


def written(grammar: rfc1738.Grammar, text: str, *, host_checks: bool = True) -> str:
    """What the writer of ``text``'s class gives from its match."""
    scheme = grammar.scheme_file(text).scheme
    fast = grammar.engine(scheme)
    match = fast.pattern.fullmatch(text)
    assert match is not None, text
    write = members_writer(
        grammar.url_class(scheme), fast.fields, grammar=grammar, host_checks=host_checks
    )
    return write(text, match)


def check(grammar: rfc1738.Grammar, text: str, *, host_checks: bool = True) -> None:
    url = grammar.parse(text, host_checks=host_checks)
    assert url.to_dict() == by_attributes(url)
    assert list(url.to_dict()) == list(by_attributes(url))
    assert members_json(url) == expected_members(url)
    assert written(grammar, text, host_checks=host_checks) == expected_members(url)
    # A second object of the same class, spelled the same: the per-spelling parts again.
    assert written(grammar, text, host_checks=host_checks) == expected_members(url)


@pytest.mark.parametrize("text", ALL_ACCEPTED)
def test_every_accepted_case(text: str) -> None:
    check(rfc1738.shipped(), text)


@pytest.mark.parametrize("scheme", SCHEMES)
@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_generated_urls_of_every_scheme(scheme: str, data: st.DataObject) -> None:
    # Strings of the scheme's own production (any case, any escapes, %FF
    # included), with the host checks off so that every one of them parses.
    text = data.draw(grammar_urls(scheme), label="url")
    grammar = rfc1738.shipped()
    if grammar.scheme_file(text).scheme != scheme:
        return  # a generic URL of a predefined scheme's name: that scheme's test
    check(grammar, text, host_checks=False)


WRITTEN_ALIKE = [
    "http://h/",
    "HTTP://h/",
    "Http://H:80/a%20b/c%2Fd?x%41",
    "http://h:0080/",
    "ftp://@h/;type=a",
    "ftp://u%3A:p%40@h:21/%2F/a;type=D",
    "gopher://h",
    "gopher://h/",
    "gopher://h/7",
    "gopher://h/7a%09b",
    "gopher://h/7a%09b%09+c%09d",
    "gopher://h/%09%09",
    "news:*",
    "news:a.b",
    "news:a%20b@H.com",
    "nntp://h/g",
    "nntp://h:119/g/0042",
    "nntp://h:0/g/0",
    "nntp://h:00/g/10",
    "telnet://u:p@1.2.3.4:23",
    "wais://h/db",
    "wais://h/db?a%20b",
    "wais://h/db/t/p%2F",
    "file:///",
    "file://localhost/a/b",
    "file://h/%FF%C3%A9",
    "prospero://h/a%2Fb;x=%41;y=",
    "prospero://h/",
    "mailto:a%2Cb@c",
    "x-y://u@h:1/p%2F",
    "X-Y://u@h:1/p",
    "urn:isbn:1",
    "https:",
]


@pytest.mark.parametrize("text", WRITTEN_ALIKE)
def test_spellings_escapes_and_hooks(text: str) -> None:
    check(rfc1738.shipped(), text)


def test_huge_numbers_are_digits() -> None:
    text = "nntp://h:" + "9" * 5000 + "/g/" + "1" * 5000
    check(rfc1738.shipped(), text, host_checks=False)


def test_json_value_is_json_dumps() -> None:
    for value in (None, True, False, 0, -3, 10**30, "", 'a"b\\c\u00e9\udcff\n', [], [[1, "x"]]):
        assert json_value(value) == json.dumps(value)
    assert json_value((1, 2)) == json.dumps((1, 2))
    assert json_value({"a": 1}) == json.dumps({"a": 1})


def test_arrays_by_the_c_encoder_are_json_dumps() -> None:
    huge = 10**5000
    for value in ((("a", "b\u00e9"), ("", "\udcff")), ["x", None, 80, True], (), (huge, "a")):
        assert _json(value) == json.dumps(json_ready(value))


def test_what_is_the_same_for_a_spelling() -> None:
    assert by_spelling(HttpURL) == {"scheme", "raw_scheme", "default_port"}
    assert by_spelling(CLASSES["mailto"]) == {
        "scheme",
        "raw_scheme",
        "default_port",
        "effective_port",
        "port",
    }
    # The generic URL's scheme is a field (lower case of the scheme production),
    # read from each URL; its raw_scheme is URL's own, and its port a field.
    assert by_spelling(CLASSES["generic"]) == {"raw_scheme", "default_port"}
    assert [m[1] for m in members(HttpURL)] == [
        "attribute",  # text
        "attribute",  # scheme
        "attribute",  # raw_scheme
        "decoded",  # host
        "decoded",  # port
        "raw",
        "decoded",  # path
        "segments",
        "raw",
        "decoded",  # search
        "raw",
        "attribute",  # default_port
        "attribute",  # effective_port
    ]


class ByHost(HttpURL):
    """An http URL whose default port and scheme depend on its host: nothing per spelling."""

    @property
    def default_port(self) -> int | None:
        return 8080 if self.host.startswith("alt.") else 80

    @property
    def raw_scheme(self) -> str:
        return self.text[: self.text.index(":")] + ("+alt" if "alt." in self.text else "")


def test_what_depends_on_the_spelling_and_raw_fields() -> None:
    assert by_fields(HttpURL) == {"effective_port": ("raw_port",)}
    assert by_fields(CLASSES["generic"]) == {"effective_port": ("raw_port",)}
    # mailto has no port field: its effective_port is the same for a spelling.
    assert by_fields(CLASSES["mailto"]) == {}
    # A property of the class's own (wais's kind) is read from each object.
    assert by_fields(CLASSES["wais"]) == {"effective_port": ("raw_port",)}


def test_a_class_of_its_own_is_read_from_each_object() -> None:
    grammar = rfc1738.load(shipped_grammar_dir(), classes={"http": ByHost})
    assert by_spelling(ByHost) == frozenset()
    # Its default_port is its own: effective_port is read from each object too.
    assert by_fields(ByHost) == {}
    for text in ("http://alt.h/a", "http://h/a", "http://alt.h:81/a", "http://h/"):
        url = grammar.parse(text)
        assert isinstance(url, ByHost)
        check(grammar, text)


class Bare(URL):
    """A URL with no field of its own: the text, the scheme and the port properties."""

    SCHEME = "about"


def test_a_class_without_fields(tmp_path_factory: pytest.TempPathFactory) -> None:
    # Only a start rule with no part to hold takes one (load() refuses it for
    # mailto: tests/urls/test_grammar_checks.py).
    directory = tmp_path_factory.mktemp("about") / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    (directory / "about.lark").write_text('abouturl: "about:blank"i\n', encoding="utf-8")
    grammar = rfc1738.load(directory, classes={"about": Bare})
    for text in ("about:blank", "ABOUT:Blank"):
        assert isinstance(grammar.parse(text), Bare)
        check(grammar, text)


@pytest.fixture(scope="module")
def quotes(tmp_path_factory: pytest.TempPathFactory) -> rfc1738.Grammar:
    """A copy of the shipped grammar whose hsegment also takes '"', '\\' and 'é'."""
    directory = tmp_path_factory.mktemp("quotes") / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    http = directory / "http.lark"
    old = 'hsegment: ( UCHAR | ";" | ":" | "@" | "&" | "=" )*'
    source = http.read_text(encoding="utf-8")
    assert old in source
    http.write_text(
        source.replace(old, old[:-2] + ' | "\\"" | "\\\\" | "\u00e9" )*'), encoding="utf-8"
    )
    return rfc1738.load(directory)


def test_text_that_json_escapes(quotes: rfc1738.Grammar) -> None:
    for text in ('http://h/a"b', "http://h/a\\b/c", "http://h/caf\u00e9/%41", "http://h/a%20b"):
        check(quotes, text)


def test_one_writer_for_many_shapes() -> None:
    # Lines of one class with and without each optional field, escapes, capitals:
    # each shape's template, and the values worked out once, serve the next lines.
    grammar = rfc1738.shipped()
    texts = [
        f"{scheme}://{user}h{i}.com{port}/a/{i}{search}"
        for i, (scheme, user, port, search) in enumerate(
            (s, u, p, q)
            for s in ("http", "HTTP", "x-y")
            for u in ("", "u:p@", "@")
            for p in ("", ":80", ":080", ":8080", ":")
            for q in ("", "?", "?q=1", "?a%20b")
        )
    ]
    writers: dict[str, Callable[[str, re.Match[str]], str]] = {}
    checked = 0
    for text in texts * 2:
        if not grammar.is_valid(text):
            continue
        scheme = grammar.scheme_file(text).scheme
        fast = grammar.engine(scheme)
        write = writers.get(scheme)
        if write is None:
            write = writers[scheme] = members_writer(
                grammar.url_class(scheme), fast.fields, grammar=grammar, host_checks=True
            )
        match = fast.pattern.fullmatch(text)
        assert match is not None
        assert write(text, match) == expected_members(grammar.parse(text)), text
        checked += 1
    assert checked > 100


#: One writer per scheme for the whole run: what a writer keeps from one line
#: (shapes, values per spelling and field, properties per shape, the hook's
#: layout per spelling) is what the next lines of the scheme get.
_WRITERS: dict[str, Callable[[str, re.Match[str]], str]] = {}


@pytest.mark.parametrize("scheme", SCHEMES)
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_one_writer_for_many_generated_lines(scheme: str, data: st.DataObject) -> None:
    # What a class's Computed properties declare they read (reads, present, matched)
    # and what its hook reads (URL._cut), held to to_dict() over many lines.
    text = data.draw(grammar_urls(scheme), label="url")
    grammar = rfc1738.shipped()
    if grammar.scheme_file(text).scheme != scheme:
        return
    fast = grammar.engine(scheme)
    write = _WRITERS.get(scheme)
    if write is None:
        write = _WRITERS[scheme] = members_writer(
            grammar.url_class(scheme), fast.fields, grammar=grammar, host_checks=False
        )
    match = fast.pattern.fullmatch(text)
    assert match is not None
    assert write(text, match) == expected_members(grammar.parse(text, host_checks=False))


def test_what_classes_declare_their_properties_read() -> None:
    assert by_fields(CLASSES["gopher"])["gopher_type"] == ("raw_gtype",)
    assert by_fields(CLASSES["news"]) == {"host": ("raw_article",)}
    assert by_presence(CLASSES["wais"]) == frozenset({"kind"})
    assert by_presence(CLASSES["news"]) == frozenset({"all_groups"})
    assert by_presence(HttpURL) == frozenset()

    class Kind(CLASSES["wais"]):  # type: ignore[misc,valid-type]
        @property
        def kind(self) -> str:  # type: ignore[override]
            return "mine"

    # A property defined again is read from each object.
    assert by_presence(Kind) == frozenset()


def test_one_writer_for_many_lines() -> None:
    # Many lines of one class through one writer: nothing is carried from one to the next.
    grammar = rfc1738.shipped()
    texts = [f"ftp://u{i}@h{i}.com{':21' if i % 3 else ''}/a%2{i % 10}/b;type=a" for i in range(50)]
    fast = grammar.engine("ftp")
    write = members_writer(grammar.url_class("ftp"), fast.fields, grammar=grammar, host_checks=True)
    for text in texts:
        match = fast.pattern.fullmatch(text)
        assert match is not None
        assert write(text, match) == expected_members(grammar.parse(text))


@pytest.mark.parametrize(
    "text",
    [
        "http://h1.example/a/b?q",
        "ftp://u:p@h:2121/pub/f.txt;type=i",
        "gopher://h:70/1sel%09search%09plus",
        "mailto:u@example.com",
        "news:comp.lang.python",
        "news:*",
        "nntp://h/comp.lang.c/12",
        "telnet://u@192.0.2.1:23/",
        "wais://h/db?query",
        "file:///home/u/notes.txt",
        "prospero://h//pros/name;field=value",
        "x-any://h/a",
    ],
)
def test_the_usual_shapes_are_written_by_one_function(text: str) -> None:
    # Each shape of these lines has its record as one generated function
    # (output.codegen), which writes the next lines of the shape.
    grammar = rfc1738.shipped()
    scheme = grammar.scheme_file(text).scheme
    fast = grammar.engine(scheme)
    write = members_writer(
        grammar.url_class(scheme), fast.fields, grammar=grammar, host_checks=True
    )
    match = fast.pattern.fullmatch(text)
    assert match is not None
    assert write(text, match) == write(text, match) == expected_members(grammar.parse(text))
    # A generated function finds the shape's: by which values are None for a
    # class read from the match (line_function), by their types after the
    # hook for a hooked class (hooked_line_function).
    writer = getattr(write, "__self__", None) or write.__globals__["slow"].__self__  # type: ignore[attr-defined]
    assert [found[4] is not None for found in writer.shapes.values()] == [True]
    spelling = text[: text.index(":")]
    by_spelling = writer.spelled if writer.by_span else writer.hooked
    assert [len(shapes) for shapes in by_spelling.values()] == [1]
    assert list(by_spelling) == [spelling]
    assert {} in (writer.spelled, writer.hooked)


def test_all_news_groups_and_one_group_are_two_shapes() -> None:
    # After the hook both have a group ("*" from grouppart's span): which
    # fields the productions gave is part of the shape (all_groups: matched=).
    grammar = rfc1738.shipped()
    fast = grammar.engine("news")
    write = members_writer(NewsURL, fast.fields, grammar=grammar, host_checks=True)
    for text in ["news:comp.lang", "news:*", "news:a@b.c", "NEWS:*", "news:x"] * 2:
        match = fast.pattern.fullmatch(text)
        assert match is not None
        assert write(text, match) == expected_members(grammar.parse(text)), text
