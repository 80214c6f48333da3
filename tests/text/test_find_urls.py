"""rfc1738.find_urls: URLs in running text, as RFC 1738's appendix writes them."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rfc1738
from rfc1738 import Found, FtpURL, HttpURL, URLSyntaxError, find_urls

DATA = Path(__file__).parent.parent / "data"

#: The appendix's example paragraph (SCHEMES.md, "URLs in running text").
APPENDIX = (
    "Yes, Jim, I found it under\n"
    "<URL:ftp://info.cern.ch/pub/www/doc;type=d> but you can probably pick it\n"
    "up from <URL:ftp://ds.internic.net/rfc>.  Note the warning in\n"
    "<URL:http://ds.internic.net/instructions/overview.html#WARNING>."
)


def found(text: str) -> list[Found]:
    return list(find_urls(text))


# ---- the appendix's paragraph ----


def test_appendix_paragraph() -> None:
    results = found(APPENDIX)
    assert [f.url_text for f in results] == [
        "ftp://info.cern.ch/pub/www/doc;type=d",
        "ftp://ds.internic.net/rfc",
        "http://ds.internic.net/instructions/overview.html",
    ]
    assert all(f.delimited and f.valid and f.alternatives == () for f in results)
    assert [f.fragment for f in results] == [None, None, "WARNING"]
    # Spans hold the brackets and the URL: prefix.
    assert [APPENDIX[f.start : f.end] for f in results] == [
        "<URL:ftp://info.cern.ch/pub/www/doc;type=d>",
        "<URL:ftp://ds.internic.net/rfc>",
        "<URL:http://ds.internic.net/instructions/overview.html#WARNING>",
    ]
    first = results[0].url
    assert isinstance(first, FtpURL)
    assert (first.host, first.typecode) == ("info.cern.ch", "d")
    assert results[2].reference == "http://ds.internic.net/instructions/overview.html#WARNING"


# ---- RFC 1738's reference list: URLs broken across lines ----


def test_reference_list() -> None:
    """Section 8 of RFC 1738 (transcribed in tests/data; [2] is broken after a hyphen)."""
    text = (DATA / "rfc1738-references.txt").read_text(encoding="utf-8")
    results = found(text)
    assert len(results) == 18
    assert all(f.valid and f.delimited and isinstance(f.url, FtpURL) for f in results)
    texts = [f.url_text for f in results]
    assert texts[0] == "ftp://ds.internic.net/rfc/rfc1436.txt;type=a"
    # Broken before "/": the whitespace is dropped.
    assert "ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt" in texts
    assert "ftp://prospero.isi.edu/pub/prospero/doc/prospero-protocol.PS.Z" in texts
    # Broken after "gopher-": both readings parse, the hyphen is kept.
    gopher = results[1]
    assert gopher.url_text == (
        "ftp://boombox.micro.umn.edu/pub/gopher/gopher-protocol/Gopher+/Gopher+.txt"
    )
    assert gopher.alternatives == (
        "ftp://boombox.micro.umn.edu/pub/gopher/gopherprotocol/Gopher+/Gopher+.txt",
    )
    # Every span is one bracketed URL, and the text between them holds no URL.
    for f in results:
        assert text[f.start] == "<" and text[f.end - 1] == ">"
        assert text[f.start + 1 : f.start + 5] == "URL:"


# ---- delimited URLs ----


@pytest.mark.parametrize(
    ("text", "url_text"),
    [
        ("<URL:http://h/>", "http://h/"),
        ("<url:http://h/>", "http://h/"),  # the prefix, without case
        ("<http://h/>", "http://h/"),  # no prefix, a predefined scheme
        ("<HTTP://h/>", "HTTP://h/"),
        ("< URL: ftp://h/ pub >", "ftp://h/pub"),  # whitespace anywhere
        ("<URL:ftp://h/a\n\t   /b>", "ftp://h/a/b"),
        ("<URL:x-cvs://h/src>", "x-cvs://h/src"),  # any scheme after URL:
    ],
)
def test_delimited(text: str, url_text: str) -> None:
    (result,) = found(text)
    assert (result.start, result.end) == (0, len(text))
    assert result.url_text == url_text
    assert result.delimited and result.valid


@pytest.mark.parametrize(
    "text",
    [
        "<joe@example.com>",  # no scheme
        "<b>bold</b>",
        "<x-cvs://h/src>",  # no prefix and no predefined scheme
        "<>",
        "< >",
        "a < b > c",
    ],
)
def test_not_urls(text: str) -> None:
    assert found(text) == []


def test_delimited_error_is_reported() -> None:
    (result,) = found("see <URL:http://user@host/> there")
    assert result.url is None and not result.valid
    assert isinstance(result.error, URLSyntaxError)
    assert result.error.text == "http://user@host/"
    assert result.error.rule == "httpurl"
    assert (result.start, result.end) == (4, 27)


def test_fragment_error_has_positions_in_the_reference() -> None:
    (result,) = found("<URL:http://h/a#b/c>")
    assert result.url_text == "http://h/a" and result.fragment == "b/c"
    assert result.error is not None
    assert result.error.text == "http://h/a#b/c"
    assert result.error.position == 12


def test_never_closed_is_searched_for_bare_urls() -> None:
    (result,) = found("<URL:http://h/ and on")
    assert (result.start, result.url_text, result.delimited) == (5, "http://h/", False)


def test_a_nested_open_bracket_restarts() -> None:
    results = found("a <b <URL:ftp://h/> c")
    assert [(f.start, f.url_text) for f in results] == [(5, "ftp://h/")]


# ---- a line break after a hyphen ----


def test_hyphen_dropped_when_only_that_reading_parses() -> None:
    (result,) = found("<URL:http://info.cern.-\n   ch/a>")
    assert result.url_text == "http://info.cern.ch/a"
    assert isinstance(result.url, HttpURL) and result.url.host == "info.cern.ch"
    assert result.alternatives == ("http://info.cern.-ch/a",)


def test_hyphen_kept_when_both_readings_parse() -> None:
    (result,) = found("<URL:ftp://h/draft-\n  ietf.txt>")
    assert result.url_text == "ftp://h/draft-ietf.txt"
    assert result.alternatives == ("ftp://h/draftietf.txt",)


def test_hyphen_before_a_space_is_not_ambiguous() -> None:
    (result,) = found("<URL:ftp://h/draft- ietf.txt>")
    assert result.alternatives == ()


def test_neither_reading_parses() -> None:
    (result,) = found("<URL:http://h-\n _x/>")
    assert result.error is not None
    assert result.url_text == "http://h-_x/"  # the first reading: the hyphen kept
    assert result.alternatives == ("http://h_x/",)


# ---- bare URLs ----


@pytest.mark.parametrize(
    ("text", "url_text"),
    [
        ("see ftp://h/pub.", "ftp://h/pub"),
        ("(see http://h/a)", "http://h/a"),
        ("see http://h/a_(b), then", "http://h/a_(b)"),
        ("mail mailto:joe@example.com!", "mailto:joe@example.com"),
        ("news:comp.lang.python; or", "news:comp.lang.python"),
        ('"http://h/x"', "http://h/x"),
        ("http://h/a b", "http://h/a"),  # a URL ends at whitespace
        ("http://h/a|b", "http://h/a"),  # ... and at a character no URL may hold
        ("Telnet://h/ ", "Telnet://h/"),
    ],
)
def test_bare(text: str, url_text: str) -> None:
    (result,) = found(text)
    assert result.url_text == url_text
    assert text[result.start : result.end] == url_text
    assert not result.delimited and result.valid


def test_bare_with_fragment() -> None:
    text = "at http://h/doc.html#intro."
    (result,) = found(text)
    assert (result.url_text, result.fragment) == ("http://h/doc.html", "intro")
    assert text[result.start : result.end] == "http://h/doc.html#intro"


@pytest.mark.parametrize(
    "text",
    [
        "xhttp://h/",  # a scheme must begin a word
        "a.ftp://h/",
        "http:// h/",  # does not parse: not reported
        "ftp:",
        "https://example.com/",  # not an RFC 1738 scheme
        "x-cvs://h/src",  # bare generic URLs are not looked for
        "no urls here",
    ],
)
def test_bare_not_found(text: str) -> None:
    assert found(text) == []


def test_mixed_in_order() -> None:
    text = "a http://h/1 <URL:ftp://h/2> news:x <http://h/3>"
    assert [f.url_text for f in found(text)] == ["http://h/1", "ftp://h/2", "news:x", "http://h/3"]


def test_bare_url_inside_non_url_brackets() -> None:
    (result,) = found('<a href="http://h/x">')
    assert result.url_text == "http://h/x" and not result.delimited


def test_type_error() -> None:
    with pytest.raises(TypeError):
        list(find_urls(b"http://h/"))  # type: ignore[arg-type]


def test_host_checks_off() -> None:
    assert found("http://h:99999/") == []
    (result,) = find_urls("http://h:99999/", host_checks=False)
    assert result.url is not None and result.url.port == 99999


def test_edited_grammar_set() -> None:
    grammar = rfc1738.load()
    assert [f.url_text for f in find_urls("ftp://h/", grammar=grammar)] == ["ftp://h/"]


def test_long_text_is_linear() -> None:
    # Many "<" with no ">", many schemes without a URL: each character looked at a few times.
    text = "<" * 50_000 + "http:" * 20_000 + "<URL:" + "ftp://h/" + "a" * 100_000
    (result,) = found(text)
    assert (result.start, result.end) == (150_005, len(text))


# ---- the property ----

ALPHABET = st.sampled_from(list('<>URL:htpfnewsmailo/#.-_ \n\t()ab%2F@,;?"|\x00é'))
PIECES = st.sampled_from(
    ["http://", "ftp://", "<URL:", "news:", "mailto:", "-\n", "#", ">", "<", "h.dom", "/a"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(ALPHABET, PIECES), max_size=40).map("".join) | st.text(max_size=80))
def test_property_never_raises_spans_ordered_urls_parse(text: str) -> None:
    end = 0
    for result in find_urls(text):
        assert end <= result.start < result.end <= len(text)
        end = result.end
        if result.error is None:
            assert result.url is not None
            assert rfc1738.parse(result.url_text) == result.url
            assert rfc1738.parse_reference(result.reference)[0] == result.url
        else:
            assert result.delimited and result.url is None
            assert result.error.text == result.reference
            with pytest.raises(URLSyntaxError):
                rfc1738.parse_reference(result.reference)
        if not result.delimited:
            assert text[result.start : result.end] == result.reference
