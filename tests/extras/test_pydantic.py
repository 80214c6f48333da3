"""rfc1738.pydantic with real Pydantic v2 models: strict, exact, with the library's errors."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from typing import Annotated, Any

import pytest

pytest.importorskip("pydantic", reason="pydantic is not installed (pip install rfc1738[pydantic])")

from hypothesis import HealthCheck, given, settings
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

import rfc1738
import rfc1738.pydantic as rp
from rfc1738.strategies import InvalidURL, invalid_urls, urls

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: Each scheme's annotated type.
TYPES: dict[str, Any] = {cls.SCHEME: getattr(rp, cls.__name__) for cls in rfc1738.CLASSES.values()}


class Link(BaseModel):
    url: rp.HttpURL


class Anything(BaseModel):
    # The settings a model may have that change strings: none may touch a URL.
    model_config = ConfigDict(str_strip_whitespace=True, str_to_lower=True)
    url: rp.URL
    more: list[rp.URL] = []


def only_error(caught: pytest.ExceptionInfo[ValidationError]) -> dict[str, Any]:
    errors = caught.value.errors()
    assert len(errors) == 1
    return dict(errors[0])


@pytest.mark.parametrize("scheme", sorted(TYPES))
def test_each_type_takes_the_urls_of_its_class_as_written(scheme: str) -> None:
    adapter = TypeAdapter(TYPES[scheme])

    @SETTINGS
    @given(urls(scheme))
    def check(text: str) -> None:
        url = adapter.validate_python(text)
        assert type(url) is rfc1738.CLASSES[scheme]
        assert url == rfc1738.parse(text)
        assert adapter.dump_python(url) == text
        assert adapter.dump_json(url) == json.dumps(text, separators=(",", ":")).encode()
        assert adapter.validate_json(adapter.dump_json(url)) == url

    check()


@pytest.mark.parametrize("scheme", sorted(set(TYPES) - {"generic"}))
def test_a_url_of_another_class_is_refused_at_position_0(scheme: str) -> None:
    adapter = TypeAdapter(TYPES[scheme])
    other = "news:comp.lang.c" if scheme != "news" else "http://h/"
    with pytest.raises(ValidationError) as caught:
        adapter.validate_python(other)
    error = only_error(caught)
    assert error["type"] == rp.ERROR_TYPE
    assert error["ctx"]["position"] == 0
    assert error["ctx"]["rule"] == rfc1738.shipped().files[scheme].start


def test_the_error_is_the_librarys_with_position_rule_and_expected() -> None:
    with pytest.raises(ValidationError) as caught:
        Link(url="http://user@host/")
    error = only_error(caught)
    with pytest.raises(rfc1738.URLSyntaxError) as library:
        rfc1738.HttpURL.parse("http://user@host/")
    assert error["type"] == rp.ERROR_TYPE
    assert error["loc"] == ("url",)
    assert error["input"] == "http://user@host/"
    assert error["ctx"] == {
        "reason": library.value.reason,
        "position": library.value.position,
        "rule": library.value.rule,
        "expected": sorted(library.value.expected),
    }
    assert error["msg"] == f"{library.value.reason} (at position 11, in httpurl)"
    # JSON mode, and the errors as JSON: the context is plain data.
    with pytest.raises(ValidationError) as caught:
        Link.model_validate_json('{"url": "http://user@host/"}')
    assert json.loads(caught.value.json())[0]["ctx"]["position"] == 11


def test_the_error_of_every_near_miss_is_where_the_strategy_says() -> None:
    adapter = TypeAdapter(rp.URL)

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(invalid_urls())
    def check(miss: InvalidURL) -> None:
        with pytest.raises(ValidationError) as caught:
            adapter.validate_python(miss.text)
        error = only_error(caught)
        assert error["type"] == rp.ERROR_TYPE
        assert error["ctx"]["position"] == miss.position
        if miss.rule is not None:
            assert error["ctx"]["rule"] == miss.rule

    check()


def test_lists_and_optional_fields_say_where() -> None:
    with pytest.raises(ValidationError) as caught:
        Anything(url="news:a", more=["http://h/", "ftp://h/ x"])
    error = only_error(caught)
    assert error["loc"] == ("more", 1)
    assert error["ctx"]["position"] == 8

    class Maybe(BaseModel):
        url: rp.HttpURL | None = None

    assert Maybe().url is None
    assert str(Maybe(url="http://h/").url) == "http://h/"


@pytest.mark.parametrize(
    "text",
    [" http://h/", "http://h/ ", "http://h/\n", "http://h/a b", "HTTP://h/%7e", "http:///"],
    ids=repr,
)
def test_nothing_is_repaired(text: str) -> None:
    # The model strips and lowers strings; a URL field is read as given, or refused.
    try:
        expected: object = rfc1738.parse(text)
    except rfc1738.URLSyntaxError as error:
        expected = error.position
    try:
        got: object = Anything(url=text).url
    except ValidationError as caught:
        got = caught.errors()[0]["ctx"]["position"]
    assert got == expected
    if isinstance(got, rfc1738.URL):
        assert str(got) == text


def test_nothing_is_normalized() -> None:
    model = Anything(url="HTTP://Example.COM:80/a%7e")
    assert str(model.url) == "HTTP://Example.COM:80/a%7e"
    assert model.model_dump() == {"url": "HTTP://Example.COM:80/a%7e", "more": []}
    assert model.model_dump_json() == '{"url":"HTTP://Example.COM:80/a%7e","more":[]}'


@pytest.mark.parametrize("value", [b"http://h/", bytearray(b"http://h/"), 3, None, ["http://h/"]])
def test_only_strings_and_urls_are_taken(value: object) -> None:
    for strict in (False, True):
        with pytest.raises(ValidationError) as caught:
            Link.model_validate({"url": value}, strict=strict)
        assert only_error(caught)["type"] == "string_type"
    with pytest.raises(ValidationError) as caught:
        Link.model_validate_json(json.dumps({"url": 3}))
    assert only_error(caught)["type"] == "string_type"


def test_a_url_object_is_read_again() -> None:
    url = rfc1738.parse("http://h/a")
    assert Link(url=url).url == url
    # Parsed without the host checks: the field applies them.
    loose = rfc1738.parse("http://h:99999/", host_checks=False)
    with pytest.raises(ValidationError) as caught:
        Link(url=loose)
    assert only_error(caught)["ctx"]["rule"] == "port"
    with pytest.raises(ValidationError):
        Link(url=rfc1738.parse("ftp://h/"))


def test_host_checks_may_be_turned_off() -> None:
    Loose = TypeAdapter(Annotated[rfc1738.HttpURL, rp.ParsedBy(rfc1738.HttpURL, host_checks=False)])
    assert Loose.validate_python("http://h:99999/").port == 99999
    with pytest.raises(ValidationError):
        TypeAdapter(rp.HttpURL).validate_python("http://h:99999/")


def test_an_edited_grammar(edited: rfc1738.Grammar) -> None:
    adapter = TypeAdapter(Annotated[rfc1738.URL, rp.ParsedBy(grammar=edited)])
    assert adapter.validate_python("http://h/~joe").grammar is edited
    assert adapter.validate_python("afs://cell.example/a").scheme == "afs"
    with pytest.raises(ValidationError):
        TypeAdapter(rp.URL).validate_python("http://h/~joe")  # the shipped grammar refuses it
    http = TypeAdapter(Annotated[rfc1738.HttpURL, rp.ParsedBy(rfc1738.HttpURL, grammar=edited)])
    with pytest.raises(ValidationError) as caught:
        http.validate_python("afs://cell.example/a")
    error = only_error(caught)
    assert error["ctx"]["position"] == 0
    assert "takes HttpURL only" in error["msg"]
    # Its JSON Schema: the edited http pattern takes "~".
    pattern = http.json_schema()["pattern"]
    assert re.search(pattern, "http://h/~joe")
    assert not re.search(pattern, "afs://cell.example/a")


# ---- JSON Schema ----

#: A named group's opening ``(?<name>``, where its parenthesis is not escaped.
_NAMED_GROUP = re.compile(r"(?<!\\)((?:\\\\)*)\(\?<[A-Za-z_][A-Za-z0-9_]*>")


def _json_schema(pattern: str) -> str:
    """The exported ECMAScript pattern with the two changes the schema makes (the oracle)."""
    plain = _NAMED_GROUP.sub(r"\1(", pattern)
    assert plain.endswith("$") and not plain.endswith("\\$")
    return plain[:-1] + r"(?![\s\S])"


def test_the_json_schema_is_the_exported_ecmascript_pattern() -> None:
    export = rfc1738.export("ecmascript")
    for scheme, annotated in TYPES.items():
        schema = TypeAdapter(annotated).json_schema()
        assert schema == {
            "type": "string",
            "pattern": _json_schema(export.schemes[scheme].pattern),
        }
    assert TypeAdapter(rp.URL).json_schema() == {
        "type": "string",
        "pattern": _json_schema(export.any),
    }
    # In a model, for validation and serialization alike.
    for mode in ("validation", "serialization"):
        field = Link.model_json_schema(mode=mode)["properties"]["url"]
        assert field["pattern"] == _json_schema(export.schemes["http"].pattern)


def test_the_schema_s_pattern_keeps_the_groups_numbered_and_anchors_the_end() -> None:
    pattern = TypeAdapter(rp.HttpURL).json_schema()["pattern"]
    assert "(?<" not in pattern
    assert pattern.startswith("^") and pattern.endswith(r"(?![\s\S])")
    # The groups keep their numbers: the export's number of each still holds it.
    numbers = rfc1738.export("ecmascript").schemes["http"].numbers
    match = re.search(pattern, "http://example.com:8080/a?q")
    assert match is not None
    assert match.group(numbers["host"], numbers["port"], numbers["search"]) == (
        "example.com",
        "8080",
        "q",
    )
    assert not re.search(pattern, "http://h/\n")  # Python's $ would take the newline


def schema_patterns() -> dict[str, str]:
    patterns = {s: TypeAdapter(t).json_schema()["pattern"] for s, t in TYPES.items()}
    patterns["any"] = TypeAdapter(rp.URL).json_schema()["pattern"]
    return patterns


def test_the_schema_patterns_take_what_the_bare_grammar_takes_in_python() -> None:
    # What validators on Python's re (jsonschema) do: search the pattern.
    patterns = {name: re.compile(p) for name, p in schema_patterns().items()}

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(urls(), invalid_urls())
    def check(text: str, miss: InvalidURL) -> None:
        scheme = rfc1738.shipped().scheme_file(text).scheme
        assert patterns[scheme].search(text)
        assert patterns["any"].search(text)
        bare = rfc1738.is_valid(miss.text, host_checks=False)
        assert bool(patterns["any"].search(miss.text)) == bare

    check()


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_schema_patterns_take_what_the_bare_grammar_takes_in_ecmascript() -> None:
    # What validators in JavaScript do (ajv): new RegExp(pattern, "u").test(text).
    texts: list[str] = []

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(urls(), invalid_urls())
    def collect(text: str, miss: InvalidURL) -> None:
        texts.extend((text, miss.text, text + "\n"))

    collect()
    script = (
        "const {patterns, texts} = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "const compiled = Object.fromEntries("
        "  Object.entries(patterns).map(([k, p]) => [k, new RegExp(p, 'u')]));"
        "console.log(JSON.stringify(texts.map(t => compiled.any.test(t))));"
    )
    data = json.dumps({"patterns": schema_patterns(), "texts": texts})
    found = subprocess.run(
        ["node", "-e", script], input=data, capture_output=True, text=True, check=True
    )
    verdicts = json.loads(found.stdout)
    wrong = [
        t
        for t, v in zip(texts, verdicts, strict=True)
        if v != rfc1738.is_valid(t, host_checks=False)
    ]
    assert not wrong, wrong[:5]
