"""NewsURL (RFC 1738 section 3.6): group, article or "*"."""

from __future__ import annotations

import pytest

import rfc1738
from rfc1738.urls import NewsURL
from tests.urls.helpers import Row, both_parsers, field_tests

ROWS: list[Row] = [
    (
        "news:comp.infosystems.www",
        {
            "group": "comp.infosystems.www",
            "raw_article": None,
            "article": None,
            "host": None,
            "all_groups": False,
        },
    ),
    ("news:*", {"group": "*", "article": None, "all_groups": True}),
    ("news:a+b_c-d.e9", {"group": "a+b_c-d.e9"}),
    (
        "news:1234%20x@news.example.org",
        {
            "group": None,
            "raw_article": "1234%20x@news.example.org",
            "article": "1234 x@news.example.org",
            "host": "news.example.org",
        },
    ),
    ("news:a%40b@10.1.2.3", {"article": "a@b@10.1.2.3", "host": "10.1.2.3"}),
    ("news:a/b?c:d;e&f=g@h", {"article": "a/b?c:d;e&f=g@h"}),
]

test_fields, test_every_field_is_checked = field_tests(NewsURL, ROWS)


@pytest.mark.parametrize("text", ["news:", "news:1abc", "news:@h", "news://h/group", "news:a@b@c"])
def test_not_a_newsurl(text: str) -> None:
    with pytest.raises(rfc1738.URLSyntaxError):
        rfc1738.parse(text)


def test_no_port() -> None:
    url = both_parsers("news:*")
    assert (url.port, url.default_port, url.effective_port) == (None, None, None)
