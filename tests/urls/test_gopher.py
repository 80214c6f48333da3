"""GopherURL (RFC 1738 section 3.4): the split at the first and second %09."""

from __future__ import annotations

from rfc1738.urls import GopherURL
from tests.urls.helpers import Row, both_parsers, field_tests

ROWS: list[Row] = [
    # An empty gopher-path: type "1" by default, with or without the "/".
    (
        "gopher://h",
        {
            "host": "h",
            "raw_port": None,
            "port": None,
            "raw_gtype": None,
            "gtype": None,
            "gopher_type": "1",
            "raw_selector": None,
            "selector": None,
            "raw_search": None,
            "search": None,
            "raw_gopher_plus": None,
            "gopher_plus": None,
        },
    ),
    ("gopher://h/", {"gtype": None, "gopher_type": "1", "selector": None}),
    # A gtype alone: the selector is "" (the text cannot tell it from none).
    ("gopher://h:7070/0", {"port": 7070, "gtype": "0", "gopher_type": "0", "selector": ""}),
    (
        "gopher://gopher.example.org/7find%20it%09rfc%20822%09+",
        {
            "raw_gtype": "7",
            "raw_selector": "find%20it",
            "selector": "find it",
            "raw_search": "rfc%20822",
            "search": "rfc 822",
            "raw_gopher_plus": "+",
            "gopher_plus": "+",
        },
    ),
    # Split at the FIRST and SECOND %09; a third belongs to the gopher+ string.
    ("gopher://h/1a%09b%09c%09d", {"selector": "a", "search": "b", "gopher_plus": "c\td"}),
    ("gopher://h/1%09%09", {"selector": "", "search": "", "gopher_plus": ""}),
    ("gopher://h/1sel%09", {"selector": "sel", "search": "", "gopher_plus": None}),
    # The search after the first %09 is whatever is there (section 3.4), even
    # characters the search production would not take.
    ("gopher://h/1a%09b/c?d", {"selector": "a", "raw_search": "b/c?d", "search": "b/c?d"}),
    # The gtype is one xchar: an escape, or even "/".
    ("gopher://h/%09x", {"raw_gtype": "%09", "gtype": "\t", "selector": "x"}),
    ("gopher://h//x/y", {"gtype": "/", "selector": "x/y"}),
    ("gopher://h/1%2509", {"selector": "%09", "search": None}),
]

test_fields, test_every_field_is_checked = field_tests(GopherURL, ROWS)


def test_default_port() -> None:
    url = both_parsers("gopher://h")
    assert (url.default_port, url.effective_port) == (70, 70)
