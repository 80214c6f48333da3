"""The common API of the URL classes: CLASSES, PRODUCTIONS, facts, value semantics, docs."""

from __future__ import annotations

import pytest

import rfc1738
from rfc1738.bnf.files import scheme_files, shipped_grammar_dir
from rfc1738.bnf.names import base_name
from rfc1738.compile.pipeline import CompiledFile
from rfc1738.runtime.facts import OTHER_SCHEMES, SCHEME_FACTS, facts_for
from rfc1738.urls import CLASSES, URL, GenericURL, HttpURL

EXAMPLES = {
    "http": "http://h/",
    "ftp": "ftp://h/",
    "file": "file:///x",
    "gopher": "gopher://h",
    "mailto": "mailto:a@b",
    "news": "news:*",
    "nntp": "nntp://h/g",
    "telnet": "telnet://h",
    "wais": "wais://h/db",
    "prospero": "prospero://h/x",
    "generic": "x-new:thing",
}
SECTIONS = {
    "ftp": "3.2",
    "http": "3.3",
    "gopher": "3.4",
    "mailto": "3.5",
    "news": "3.6",
    "nntp": "3.7",
    "telnet": "3.8",
    "wais": "3.9",
    "file": "3.10",
    "prospero": "3.11",
}
DEFAULT_PORTS = {"ftp": 21, "http": 80, "gopher": 70, "nntp": 119, "telnet": 23}
DEFAULT_PORTS |= {"wais": 210, "prospero": 1525}


def test_classes_cover_every_grammar_file() -> None:
    assert set(CLASSES) == set(scheme_files(shipped_grammar_dir()))
    assert CLASSES["generic"] is GenericURL
    assert all(issubclass(cls, URL) for cls in CLASSES.values())
    for name in CLASSES.values():
        assert getattr(rfc1738, name.__name__) is name


@pytest.mark.parametrize("scheme", sorted(CLASSES))
def test_productions_are_rules_of_the_grammar(scheme: str) -> None:
    grammar = CompiledFile(scheme_files(shipped_grammar_dir())[scheme].path)
    rules = {base_name(name) for name in grammar.rules}
    assert rules >= CLASSES[scheme].PRODUCTIONS


@pytest.mark.parametrize("scheme", sorted(CLASSES))
def test_parse_gives_the_class_of_the_scheme(scheme: str) -> None:
    url = rfc1738.parse(EXAMPLES[scheme])
    assert type(url) is CLASSES[scheme]
    assert str(url) == EXAMPLES[scheme]
    assert repr(url) == f"{type(url).__name__}({EXAMPLES[scheme]!r})"
    assert url.default_port == DEFAULT_PORTS.get(scheme)
    assert url.effective_port == DEFAULT_PORTS.get(scheme)
    assert url.facts is facts_for(scheme)


def test_facts_table() -> None:
    assert {name: f.section for name, f in SCHEME_FACTS.items()} == SECTIONS
    ports = {name: f.default_port for name, f in SCHEME_FACTS.items() if f.default_port}
    assert ports == DEFAULT_PORTS
    assert {name for name, f in SCHEME_FACTS.items() if f.login} == {"ftp", "telnet"}
    assert all(f.start == f"{name}url" for name, f in SCHEME_FACTS.items())
    assert facts_for("HTTP") is SCHEME_FACTS["http"]
    assert facts_for("x-other") is OTHER_SCHEMES
    assert facts_for("h\u0130ttp") is OTHER_SCHEMES


def test_scheme_is_lower_case_raw_scheme_as_written() -> None:
    url = rfc1738.parse("HtTp://h/")
    assert (url.scheme, url.raw_scheme) == ("http", "HtTp")


def test_value_semantics() -> None:
    a, b = rfc1738.parse("http://h/x"), rfc1738.parse("http://h/x", parser="reference")
    assert a == b and hash(a) == hash(b)
    assert len({a, b, rfc1738.parse("http://h/y")}) == 2
    assert a != rfc1738.parse("ftp://h/x")
    assert a != "http://h/x"
    with pytest.raises(rfc1738.FrozenURLError):
        a.text = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="cannot assign to field 'host'"):
        a.host = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del a.host
    assert not hasattr(a, "__dict__")


def test_from_spans_is_the_builder() -> None:
    text = "http://h:81/p?q"
    spans = {"host": (7, 8), "port": (9, 11), "hpath": (12, 13), "search": (14, 15)}
    url = HttpURL.from_spans(text, spans)
    assert url == rfc1738.parse(text)


@pytest.mark.parametrize("cls", sorted(CLASSES.values(), key=lambda c: c.__name__))
def test_docstring_has_bnf_section_picture_example(cls: type[URL]) -> None:
    doc = cls.__doc__ or ""
    assert "BNF: ``" in doc
    assert "RFC 1738 section" in doc
    assert "\\__" in doc  # the ASCII picture of the parts
    assert ">>> " in doc
