"""``Computed`` properties: a value computed from what its declaration names, and nothing else.

The declaration is what a writer of many records (``rfc1738.output.plan``)
reads to work a value out once per spelling, raw values or shape; a class
of one's own declares its properties the same way, and its records are
still byte for byte ``json.dumps(to_dict())``.
"""

from __future__ import annotations

import inspect
import json
import pydoc

import pytest

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.output.jsonl import members_writer
from rfc1738.output.plan import by_fields, by_presence, by_spelling, depends
from rfc1738.urls import URL, Computed, HttpURL


def _secure(port: int | None) -> bool:
    return port == 443


def _asks(search: bool) -> bool:
    return search


def _bare(hpath: bool) -> bool:
    return not hpath


def _checked(host_checks: bool) -> str:
    return "checked" if host_checks else "bare grammar"


class Ported(HttpURL):
    """An http URL with properties of its own, one of each kind of declaration."""

    secure = Computed(_secure, reads=("port",), doc="Whether the port named is 443.")
    asks = Computed(_asks, present=("raw_search",), doc="Whether the URL has a search.")
    bare = Computed(_bare, matched=("hpath",), doc="Whether the URL has no path.")
    checked = Computed(_checked, reads=("host_checks",), doc="How the host was checked.")


TEXTS = [
    "http://h/",
    "http://h",
    "HTTP://h:443/a?q",
    "http://h:0443/a%20b?",
    "http://h:80/?a%41",
    "http://h:443",
]


def test_what_each_declaration_depends_on() -> None:
    assert by_fields(Ported) == {"effective_port": ("raw_port",), "secure": ("raw_port",)}
    assert by_presence(Ported) == {"asks", "bare"}
    assert by_spelling(Ported) == by_spelling(HttpURL)
    # host_checks is a property that declares nothing: read from each object.
    assert depends(Ported, "checked") is None
    assert depends(Ported, "scheme") == ((), False)
    assert depends(Ported, "effective_port") == (("raw_port",), False)


@pytest.mark.parametrize("host_checks", [True, False])
def test_the_records_of_a_class_of_ones_own(host_checks: bool) -> None:
    grammar = rfc1738.load(shipped_grammar_dir(), classes={"http": Ported})
    fast = grammar.engine("http")
    write = members_writer(Ported, fast.fields, grammar=grammar, host_checks=host_checks)
    for text in TEXTS * 2:  # the second time, from what the writer kept
        url = grammar.parse(text, host_checks=host_checks)
        assert isinstance(url, Ported)
        assert url.secure is (url.port == 443)
        assert url.asks is (url.search is not None)
        assert url.bare is (url.path is None)
        data = url.to_dict()
        assert data["checked"] == url.checked
        del data["text"]
        match = fast.pattern.fullmatch(text)
        assert match is not None
        assert write(text, match) == json.dumps(data)[1:-1], text


def test_compute_gets_exactly_what_is_declared() -> None:
    class Wrong(HttpURL):
        # Declares one value, computes from none: reading it fails, whatever the URL.
        broken = Computed(lambda: True, reads=("port",), doc="Declared wrong.")

    grammar = rfc1738.load(shipped_grammar_dir(), classes={"http": Wrong})
    url = grammar.parse("http://h/")
    with pytest.raises(TypeError):
        url.broken  # noqa: B018


def test_a_computed_value_is_a_property_with_its_docstring() -> None:
    for name in ("raw_scheme", "scheme", "facts", "default_port", "port", "effective_port"):
        attribute = inspect.getattr_static(URL, name)
        assert isinstance(attribute, Computed)
        assert isinstance(attribute, property)
        assert attribute.__doc__
    shown = pydoc.render_doc(Ported, renderer=pydoc.plaintext)
    assert "Whether the port named is 443." in shown
    with pytest.raises(AttributeError):
        rfc1738.parse("http://h/").scheme = "ftp"  # type: ignore[misc]
