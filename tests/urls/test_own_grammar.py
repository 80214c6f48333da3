"""Objects escape, normalize, replace and pickle by the grammar that parsed them (issue 10)."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.text.find import find_urls


@pytest.fixture(scope="module")
def tilde(tmp_path_factory: pytest.TempPathFactory) -> rfc1738.Grammar:
    """A copy of the shipped grammar whose hsegment and xchar also take "~"."""
    directory = tmp_path_factory.mktemp("tilde") / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    http = directory / "http.lark"
    old = 'hsegment: ( UCHAR | ";" | ":" | "@" | "&" | "=" )*'
    text = http.read_text(encoding="utf-8")
    assert old in text
    http.write_text(text.replace(old, old[:-2] + ' | "~" )*'), encoding="utf-8")
    common = directory / "common.lark"
    xchar = "XCHAR: UNRESERVED | RESERVED | ESCAPE"
    text = common.read_text(encoding="utf-8")
    assert xchar in text
    common.write_text(text.replace(xchar, xchar + ' | "~"'), encoding="utf-8")
    return rfc1738.load(directory)


def test_the_shipped_grammar_refuses_the_tilde() -> None:
    assert not rfc1738.is_valid("http://h/~joe")


def test_normalize_by_its_grammar(tilde: rfc1738.Grammar) -> None:
    url = tilde.parse("HTTP://H/~joe")
    assert url.grammar is tilde
    normal = url.normalize()
    assert str(normal) == "http://h/~joe"
    assert normal.grammar is tilde


def test_replace_by_its_grammar(tilde: rfc1738.Grammar) -> None:
    assert str(tilde.parse("http://h/~joe").replace(search="x")) == "http://h/~joe?x"
    # "~" stands for itself in this grammar's hsegment: it is not escaped.
    assert str(tilde.parse("http://h/a").replace(path="~joe")) == "http://h/~joe"
    assert str(tilde.parse("http://h/a").replace(segments=("~a", "b c"))) == "http://h/~a/b%20c"
    # The search is not hsegment: "~" is still escaped there.
    assert str(tilde.parse("http://h/a").replace(search="~")) == "http://h/a?%7E"


def test_the_shipped_grammar_still_escapes() -> None:
    assert str(rfc1738.parse("http://h/a").replace(path="~joe")) == "http://h/%7Ejoe"


def test_character_sets_are_per_grammar(tilde: rfc1738.Grammar) -> None:
    assert "~" in tilde.rule_chars("http", "hsegment")
    assert "~" not in rfc1738.shipped().rule_chars("http", "hsegment")


def test_round_trip_and_pickle(tilde: rfc1738.Grammar) -> None:
    for text in ("http://h/~joe/a%20b?q", "http://h:81/~", "ftp://u@h/x;type=d"):
        url = tilde.parse(text)
        assert str(url) == text
        copy = pickle.loads(pickle.dumps(url))
        assert copy == url
        # Unpickling loads the same directory again (once per process).
        assert isinstance(copy.grammar, rfc1738.Grammar)
        assert copy.grammar.directory == tilde.directory
        assert copy.normalize() == url.normalize()
        assert str(copy.replace(port=8)) == str(url.replace(port=8))
        assert copy.to_dict() == url.to_dict()


def test_pickle_keeps_the_shipped_grammar_and_host_checks() -> None:
    url = rfc1738.parse("http://h:99999/a", host_checks=False)
    copy = pickle.loads(pickle.dumps(url))
    assert copy == url and copy.host_checks is False and copy.port == 99999
    assert copy.grammar is rfc1738.shipped()


def test_find_urls_uses_the_grammar_it_is_given(tilde: rfc1738.Grammar) -> None:
    text = "see http://h/~joe and <URL:http://h/a>."
    assert [f.url_text for f in find_urls(text, grammar=tilde)] == ["http://h/~joe", "http://h/a"]
    found = [f.url_text for f in find_urls(text) if f.url is not None]
    assert found == ["http://h/", "http://h/a"]  # the shipped xchar stops at "~"


def test_grammar_file_written_here_is_read(tmp_path: Path, tilde: rfc1738.Grammar) -> None:
    # A second, separate load of an edited copy has its own sets (no process-wide cache).
    directory = tmp_path / "grammar"
    shutil.copytree(tilde.directory, directory)
    assert rfc1738.load(directory).rule_chars("http", "hsegment") == tilde.rule_chars(
        "http", "hsegment"
    )
