"""``rfc1738 grammar export``: the grammar as RE2, Java, ECMAScript or Python patterns."""

from __future__ import annotations

import json
import re

import rfc1738
from rfc1738.bnf.files import w3_1994_grammar_dir
from rfc1738.compile.dialects import DIALECTS
from rfc1738.runtime.exported import DIALECT_NAMES

from .helpers import run


def test_json_is_the_export() -> None:
    result = run("grammar", "export", "--dialect", "java")
    assert result.status == 0
    assert json.loads(result.out) == rfc1738.export("java").as_json()


def test_one_scheme_as_text_is_the_pattern_alone() -> None:
    result = run("grammar", "export", "--dialect", "python", "--scheme", "HTTP", "--format", "text")
    pattern = re.compile(result.out.rstrip("\n"))
    assert pattern.search("http://example.com/").group("host") == "example.com"
    dispatching = run(
        "grammar", "export", "--dialect", "re2", "--scheme", "any", "--format", "text"
    )
    assert dispatching.out.rstrip("\n") == rfc1738.export("re2").any


def test_one_scheme_as_json() -> None:
    data = json.loads(run("grammar", "export", "--dialect", "ecmascript", "--scheme", "news").out)
    assert list(data["schemes"]) == ["news"]
    assert "any" not in data
    assert data["omits"]


def test_an_unknown_scheme_or_a_grammar_that_is_not_regular_is_a_usage_error() -> None:
    unknown = run("grammar", "export", "--dialect", "re2", "--scheme", "gopher+")
    assert unknown.status == 2
    assert "no scheme 'gopher+'" in unknown.err
    w3 = run("grammar", "export", "--dialect", "re2", "--grammar", str(w3_1994_grammar_dir()))
    assert w3.status == 2
    assert "refers back to itself" in w3.err


def test_the_dialects_are_named_once() -> None:
    """The command line offers the dialects the exporter has, named in one place."""
    assert tuple(DIALECTS) == DIALECT_NAMES
    for dialect in DIALECT_NAMES:
        assert rfc1738.export(dialect).dialect == dialect
    offered = run("grammar", "export", "--help").out
    assert "{" + ",".join(DIALECT_NAMES) + "}" in offered
    assert run("grammar", "export", "--dialect", "perl").status == 2
