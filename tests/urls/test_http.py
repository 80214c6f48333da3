"""HttpURL (RFC 1738 section 3.3): every field, raw and decoded."""

from __future__ import annotations

import pytest

import rfc1738
from rfc1738.urls import HttpURL
from tests.urls.helpers import Refused, Row, both_parsers, field_tests

ROWS: list[Row] = [
    (
        "http://www.example.com",
        {
            "host": "www.example.com",
            "raw_port": None,
            "port": None,
            "raw_path": None,
            "path": None,
            "segments": (),
            "raw_search": None,
            "search": None,
        },
    ),
    ("http://www.example.com/", {"raw_path": "", "path": "", "segments": ("",), "search": None}),
    (
        "http://www.example.com:8080/docs/a%20b.html?q=rfc",
        {
            "host": "www.example.com",
            "raw_port": "8080",
            "port": 8080,
            "raw_path": "docs/a%20b.html",
            "path": "docs/a b.html",
            "segments": ("docs", "a b.html"),
            "raw_search": "q=rfc",
            "search": "q=rfc",
        },
    ),
    # %2F is a "/" inside one segment, not a separator: the decoded path cannot say it.
    (
        "http://h/a%2Fb/c",
        {"path": Refused("%2F", ("segments", "raw_path")), "segments": ("a/b", "c")},
    ),
    # Section 3.3 reserves ";" in the path: an escaped one is data, which no
    # decoded value can tell from a ";" written as itself.
    (
        "http://h/a%3Bb;c",
        {"path": Refused("%3B", ("raw_path",)), "segments": Refused("%3B", ("raw_path",))},
    ),
    ("http://h/a;b%3Ac", {"path": "a;b:c", "segments": ("a;b:c",)}),
    # A query string: an escaped "&" or "=" is data, one written as itself is not.
    ("http://h/?q=a%26b", {"search": Refused("%26", ("raw_search",)), "raw_search": "q=a%26b"}),
    ("http://h/?q=a&b=%20", {"search": "q=a&b= "}),
    # Empty search and empty segments differ from none.
    ("http://h/?", {"raw_path": "", "raw_search": "", "search": ""}),
    ("http://h//x/", {"segments": ("", "x", "")}),
    ("http://h/%3Fq?%2F%3F", {"path": "?q", "raw_search": "%2F%3F", "search": "/?"}),
    ("http://h/;a:b@c&d=e", {"segments": (";a:b@c&d=e",)}),
    ("http://10.0.0.1:0/", {"host": "10.0.0.1", "port": 0, "raw_port": "0"}),
    ("HTTP://H/", {"raw_scheme": "HTTP", "scheme": "http", "host": "H"}),
    # Octets that are UTF-8 decode to characters; others to surrogate escapes.
    ("http://h/caf%C3%A9", {"path": "café"}),
    ("http://h/%FF", {"path": "\udcff"}),
]

test_fields, test_every_field_is_checked = field_tests(HttpURL, ROWS)


def test_ports() -> None:
    url = both_parsers("http://h/")
    assert (url.port, url.default_port, url.effective_port) == (None, 80, 80)
    url = both_parsers("http://h:8080/")
    assert (url.port, url.default_port, url.effective_port) == (8080, 80, 8080)


@pytest.mark.parametrize(
    "text",
    ["http://user@host/", "http://user:pw@host/", "http://h?q", "http://h/a#frag", "http://h/a b"],
)
def test_not_an_httpurl(text: str) -> None:
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        rfc1738.parse(text)
    assert caught.value.text == text


def test_user_name_error_names_section_3_3() -> None:
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        rfc1738.parse("http://user@host/")
    assert caught.value.rule == "httpurl"
    assert "3.3" in str(caught.value)
