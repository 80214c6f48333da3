"""``rfc1738 grammar export``: the grammar as RE2, Java, ECMAScript or Python patterns."""

from __future__ import annotations

import json
import re

import rfc1738
from rfc1738.bnf.files import w3_1994_grammar_dir

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
