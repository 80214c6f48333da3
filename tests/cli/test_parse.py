"""``rfc1738 parse URL...``: one JSON object per URL, exit status 1 if any is invalid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rfc1738
from tests.cases import ACCEPT, REJECT, SCHEMES

from .helpers import edited_grammar, error_of, run

#: One valid URL of each of the eleven forms.
ONE_OF_EACH = [ACCEPT[scheme][0].url for scheme in SCHEMES]


def lines(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_one_object_a_line_for_each_url_of_every_scheme() -> None:
    result = run("parse", *ONE_OF_EACH)
    assert result.status == 0, result.err
    assert result.err == ""
    found = lines(result.out)
    assert found == [
        {"text": url, "valid": True} | rfc1738.parse(url).to_dict() for url in ONE_OF_EACH
    ]
    assert [item["class"] for item in found] == [
        type(rfc1738.parse(url)).__name__ for url in ONE_OF_EACH
    ]


def test_output_is_ascii_with_surrogates_escaped() -> None:
    result = run("parse", "ftp://h/%FF/caf%C3%A9")
    assert result.status == 0
    assert result.out.isascii()
    assert '"segments": ["\\udcff", "caf\\u00e9"]' in result.out
    assert json.loads(result.out)["segments"] == ["\udcff", "café"]


def test_an_invalid_url_gives_its_error_and_exit_status_1() -> None:
    result = run("parse", "http://h/", "http://h/a b")
    assert result.status == 1
    valid, invalid = lines(result.out)
    assert valid["valid"] is True
    error = error_of("http://h/a b")
    assert invalid == {
        "text": "http://h/a b",
        "valid": False,
        "error": {
            "position": 10,
            "expected": sorted(error.expected),
            "rule": "hsegment",
            "reason": error.reason,
        },
    }
    assert invalid["error"]["expected"] == sorted(invalid["error"]["expected"])


@pytest.mark.parametrize("scheme", SCHEMES)
def test_errors_match_the_library(scheme: str) -> None:
    urls = [case.url for case in REJECT[scheme]]
    result = run("parse", "--", *urls)
    assert result.status == 1
    for url, found in zip(urls, lines(result.out), strict=True):
        error = error_of(url)
        assert found["text"] == url
        assert found["error"] == {
            "position": error.position,
            "expected": sorted(error.expected),
            "rule": error.rule,
            "reason": error.reason,
        }


def test_pretty_indents() -> None:
    result = run("parse", "--pretty", "news:*")
    assert result.status == 0
    assert result.out.startswith('{\n  "text": "news:*",\n  "valid": true,\n')
    assert json.loads(result.out)["all_groups"] is True


def test_reference_parser_gives_the_same_objects() -> None:
    fast = run("parse", *ONE_OF_EACH)
    reference = run("parse", "--parser", "reference", *ONE_OF_EACH)
    assert reference.status == 0
    assert reference.out == fast.out


def test_no_host_checks() -> None:
    url = "http://h:65536/"
    assert run("parse", url).status == 1
    result = run("parse", "--no-host-checks", url)
    assert result.status == 0
    assert json.loads(result.out)["port"] == 65536


def test_python_dash_m_runs_the_same_command() -> None:
    assert run("parse", *ONE_OF_EACH, module=True) == run("parse", *ONE_OF_EACH)


def test_edited_grammar(tmp_path: Path) -> None:
    grammar = edited_grammar(tmp_path)
    assert run("parse", "http://user@h/").status == 1
    result = run("parse", "--grammar", grammar, "http://user@h/")
    assert result.status == 0, result.out
    assert json.loads(result.out)["host"] == "h"


@pytest.mark.parametrize(
    "args",
    [
        ["parse"],
        ["parse", "--parser", "earley", "http://h/"],
        ["parse", "--no-such-option", "http://h/"],
        [],
        ["frobnicate"],
    ],
    ids=["no-url", "bad-parser", "bad-option", "no-command", "bad-command"],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    result = run(*args)
    assert result.status == 2
    assert result.out == ""
    assert "usage: rfc1738" in result.err


def test_a_grammar_that_does_not_load_exits_2(tmp_path: Path) -> None:
    result = run("parse", "--grammar", tmp_path / "nowhere", "http://h/")
    assert (result.status, result.out) == (2, "")
    assert result.err.startswith("rfc1738: no grammar directory at ")
    broken = edited_grammar(tmp_path)
    (broken / "ftp.lark").write_text("ftpurl: (\n", encoding="utf-8")
    result = run("parse", "--grammar", broken, "ftp://h/")
    assert (result.status, result.out) == (2, "")
    assert "ftp.lark" in result.err
