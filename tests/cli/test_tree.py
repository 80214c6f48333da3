"""``rfc1738 tree URL``: the reference parse tree, one line per production."""

from __future__ import annotations

from pathlib import Path

import pytest

import rfc1738
from rfc1738.tools.treeview import format_tree
from tests.cases import ACCEPT, SCHEMES

from .helpers import edited_grammar, error_of, run


@pytest.mark.parametrize("scheme", SCHEMES)
def test_tree_of_a_url_of_every_scheme(scheme: str) -> None:
    url = ACCEPT[scheme][0].url
    result = run("tree", url)
    assert result.status == 0, result.err
    assert result.out == format_tree(rfc1738.parse_tree(url), url) + "\n"


def test_the_picture() -> None:
    assert run("tree", "news:comp.lang").out == (
        "newsurl      news:comp.lang\n  grouppart  comp.lang\n    group    comp.lang\n"
    )


def test_full_shows_every_token() -> None:
    result = run("tree", "--full", "news:*")
    assert result.status == 0
    assert result.out == rfc1738.parse_tree("news:*").pretty()
    assert "news:" in result.out


def test_an_invalid_url_goes_to_stderr_with_exit_status_1() -> None:
    result = run("tree", "http://h/a b")
    assert (result.status, result.out) == (1, "")
    error = error_of("http://h/a b", rfc1738.parse_tree)
    assert result.err == f"rfc1738: {error}\n"
    assert result.err.endswith("  http://h/a b\n            ^\n")


def test_edited_grammar(tmp_path: Path) -> None:
    grammar = edited_grammar(tmp_path)
    assert run("tree", "http://u@h/").status == 1
    result = run("tree", "--grammar", grammar, "http://u@h/")
    assert result.status == 0
    assert "\n  login " in result.out
    assert "\n    user " in result.out


def test_usage() -> None:
    assert run("tree").status == 2
    assert run("tree", "a:b", "c:d").status == 2
