"""NntpURL (RFC 1738 section 3.7): every field, raw and decoded."""

from __future__ import annotations

from rfc1738.urls import NntpURL
from tests.urls.helpers import Row, both_parsers, field_tests

ROWS: list[Row] = [
    (
        "nntp://news.example.org:1119/comp.lang.python/4711",
        {
            "host": "news.example.org",
            "raw_port": "1119",
            "port": 1119,
            "group": "comp.lang.python",
            "raw_article_number": "4711",
            "article_number": 4711,
        },
    ),
    (
        "nntp://h/alt.test",
        {"port": None, "group": "alt.test", "raw_article_number": None, "article_number": None},
    ),
    ("nntp://h:119/a/007", {"raw_article_number": "007", "article_number": 7}),
    # The port's digits come first: the article number is read after the group.
    ("nntp://h:12/a12/12", {"port": 12, "group": "a12", "article_number": 12}),
]

test_fields, test_every_field_is_checked = field_tests(NntpURL, ROWS)


def test_default_port() -> None:
    url = both_parsers("nntp://h/g")
    assert (url.default_port, url.effective_port) == (119, 119)
