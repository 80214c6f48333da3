"""WaisURL (RFC 1738 section 3.9): the three kinds and every field."""

from __future__ import annotations

from rfc1738.urls import WaisURL
from tests.urls.helpers import Row, both_parsers, field_tests

ROWS: list[Row] = [
    (
        "wais://wais.example.org:2100/rfcs",
        {
            "kind": "database",
            "host": "wais.example.org",
            "raw_port": "2100",
            "port": 2100,
            "raw_database": "rfcs",
            "database": "rfcs",
            "raw_search": None,
            "search": None,
            "raw_wtype": None,
            "wtype": None,
            "raw_wpath": None,
            "wpath": None,
        },
    ),
    (
        "wais://h/rfcs?url%20syntax",
        {
            "kind": "index",
            "database": "rfcs",
            "raw_search": "url%20syntax",
            "search": "url syntax",
            "wtype": None,
            "wpath": None,
        },
    ),
    (
        "wais://h/rfcs/TEXT/0x1a%2B2b",
        {
            "kind": "doc",
            "database": "rfcs",
            "search": None,
            "raw_wtype": "TEXT",
            "wtype": "TEXT",
            "raw_wpath": "0x1a%2B2b",
            "wpath": "0x1a+2b",
        },
    ),
    ("wais://h/", {"kind": "database", "database": ""}),
    ("wais://h/?", {"kind": "index", "database": "", "search": ""}),
    ("wais://h///", {"kind": "doc", "database": "", "wtype": "", "wpath": ""}),
    ("wais://h/d%20b?a=b;c", {"database": "d b", "search": "a=b;c"}),
]

test_fields, test_every_field_is_checked = field_tests(WaisURL, ROWS)


def test_default_port() -> None:
    url = both_parsers("wais://h/db")
    assert (url.default_port, url.effective_port) == (210, 210)
