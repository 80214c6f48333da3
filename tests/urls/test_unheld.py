"""A rewrite keeps the text of every part of the start rule that no field holds.

The edited grammar of the fuzzers (``tests/fuzz/edited.py``) has an http rule
that takes a login; :class:`~rfc1738.HttpURL` has no user or password field,
so the login is a part no field holds. ``normalize`` and ``replace`` write it
as the URL's text has it (they once wrote ``http://:@host/a``); a URL made
from fields alone has no text for it, and is written as the grammar alone
says (an optional part left out, a choice of characters an error).
"""

from __future__ import annotations

import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.runtime.layout import unheld
from rfc1738.strategies import urls
from tests.budget import examples
from tests.fuzz.edited import write_edited_grammar


@pytest.fixture(scope="module")
def edited(tmp_path_factory: pytest.TempPathFactory) -> rfc1738.Grammar:
    return rfc1738.load(write_edited_grammar(tmp_path_factory.mktemp("edited")))


@pytest.fixture(scope="module")
def digit_first(tmp_path_factory: pytest.TempPathFactory) -> rfc1738.Grammar:
    """A copy of the shipped grammar whose http URLs start with a digit and a ``-``."""
    directory = tmp_path_factory.mktemp("digit") / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    http = directory / "http.lark"
    old = 'httpurl: "http://"i hostport'
    text = http.read_text(encoding="utf-8")
    assert old in text
    http.write_text(text.replace(old, 'httpurl: "http://"i DIGIT "-" hostport'), encoding="utf-8")
    return rfc1738.load(directory)


def unheld_texts(url: rfc1738.URL) -> dict[tuple[int, ...], str]:
    """The text of each part of ``url`` that no field holds, by its place in the layout."""
    return dict(unheld(url._layout(), url.text, url._spans).texts)


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("http://us:pw@host/a", "http://us:pw@host/a"),
        ("http://us:pw@H/", "http://us:pw@h/"),  # docs/objects.md
        ("http://us@host/a", "http://us@host/a"),
        ("http://:@host/a", "http://:@host/a"),
        ("http://@host/a", "http://@host/a"),
        ("http://host/a", "http://host/a"),
        # Section 3's normalizations still apply to the fields around the login.
        ("HTTP://Us:P%41@HOST:080/%7e?%3f", "http://Us:P%41@host/~?%3F"),
        ("http://us:pw@host:8080", "http://us:pw@host:8080/"),
    ],
)
def test_normalize_keeps_the_login(edited: rfc1738.Grammar, text: str, normal: str) -> None:
    url = edited.parse(text)
    assert type(url) is rfc1738.HttpURL
    assert str(url.normalize()) == normal
    assert url.normalize().normalize() == url.normalize()


def test_replace_keeps_the_login(edited: rfc1738.Grammar) -> None:
    url = edited.parse("http://us:pw@host/a")
    assert str(url.replace(host="example.org")) == "http://us:pw@example.org/a"
    assert str(url.replace(port=8080, search="q")) == "http://us:pw@host:8080/a?q"
    assert str(url.replace(path=None)) == "http://us:pw@host"


def test_from_fields_writes_no_login(edited: rfc1738.Grammar) -> None:
    # No text has the login: the optional part is left out, as before.
    url = rfc1738.HttpURL.from_fields(grammar=edited, host="h", path="a")
    assert str(url) == "http://h/a"


def test_a_required_part_no_field_holds(digit_first: rfc1738.Grammar) -> None:
    url = digit_first.parse("HTTP://7-Host/a")
    assert str(url.normalize()) == "http://7-host/a"
    assert str(url.replace(host="x")) == "HTTP://7-x/a"
    # Made from fields alone, nothing says which digit: an error, as before.
    with pytest.raises(ValueError, match="httpurl has a part here that no field writes"):
        rfc1738.HttpURL.from_fields(grammar=digit_first, host="h")


def test_the_texts_are_those_of_the_parts_no_field_holds(edited: rfc1738.Grammar) -> None:
    # The user and the password, each whole (not each character again).
    assert sorted(unheld_texts(edited.parse("http://us:pw@host/a")).values()) == ["pw", "us"]
    assert unheld_texts(edited.parse("http://host/a")) == {}
    # The shipped http rule has no such part.
    assert unheld_texts(rfc1738.parse("http://host/a")) == {}


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_normalize_loses_nothing_no_field_says(
    edited: rfc1738.Grammar, data: st.DataObject
) -> None:
    url = edited.parse(data.draw(urls(grammar=edited), label="url"))
    normal = url.normalize()
    again = edited.parse(str(normal))
    assert again == normal
    assert normal.normalize() == normal
    assert unheld_texts(again) == unheld_texts(url)
    assert unheld_texts(url.replace()) == unheld_texts(url)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_http_keeps_its_user_and_password(edited: rfc1738.Grammar, data: st.DataObject) -> None:
    url = edited.parse(data.draw(urls("http", grammar=edited), label="url"))
    login = _login(url.text)
    assert _login(str(url.normalize())) == login
    assert _login(str(url.replace(host="example.org"))) == login


def _login(text: str) -> str:
    """What comes before the ``@`` of an http URL's login (user and password: neither
    takes ``@`` or ``/``), or ``""``."""
    authority = text.partition("://")[2].partition("/")[0]
    return authority.rpartition("@")[0]
