"""GenericURL (RFC 1738 sections 2.1, 3.1): opaque schemeparts and //login/urlpath."""

from __future__ import annotations

import pytest

import rfc1738
from rfc1738.urls import GenericURL
from tests.urls.helpers import Refused, Row, both_parsers, field_tests

NO_LOGIN = {
    "raw_user": None,
    "user": None,
    "raw_password": None,
    "password": None,
    "host": None,
    "raw_port": None,
    "port": None,
    "raw_urlpath": None,
    "urlpath": None,
}

ROWS: list[Row] = [
    (
        "urn:isbn:0451450523",
        {
            "raw_scheme": "urn",
            "scheme": "urn",
            "raw_schemepart": "isbn:0451450523",
            "schemepart": "isbn:0451450523",
            **NO_LOGIN,
        },
    ),
    ("X-Foo:a%20b", {"raw_scheme": "X-Foo", "scheme": "x-foo", "schemepart": "a b", **NO_LOGIN}),
    ("foo:", {"schemepart": "", **NO_LOGIN}),
    # "//" escaped is not the //login form.
    # An escape of a reserved character: the decoded schemepart cannot say it.
    ("foo:%2F%2Fh", {"schemepart": Refused("%2F", ("raw_schemepart",)), **NO_LOGIN}),
    ("foo:a%20b", {"schemepart": "a b", **NO_LOGIN}),
    # Not a login either: the grammar reads it as *xchar.
    ("foo://h_x/", {"schemepart": "//h_x/", **NO_LOGIN}),
    (
        "x-cvs://anon:p%40ss@cvs.example.org:2401/src/tree",
        {
            "raw_schemepart": "//anon:p%40ss@cvs.example.org:2401/src/tree",
            "raw_user": "anon",
            "user": "anon",
            "raw_password": "p%40ss",
            "password": "p@ss",
            "host": "cvs.example.org",
            "raw_port": "2401",
            "port": 2401,
            "raw_urlpath": "src/tree",
            "urlpath": "src/tree",
        },
    ),
    ("https://h", {"host": "h", "urlpath": None, "user": None, "port": None}),
    ("https://h/", {"host": "h", "urlpath": ""}),
    (
        "afs://@h/a%2Fb?c",
        {"user": "", "password": None, "urlpath": Refused("%2F", ("raw_urlpath",))},
    ),
    ("afs://@h/a%20b?c", {"urlpath": "a b?c"}),
]

test_fields, test_every_field_is_checked = field_tests(GenericURL, ROWS)


def test_no_default_port() -> None:
    url = both_parsers("https://h:443/")
    assert (url.port, url.default_port, url.effective_port) == (443, None, 443)


@pytest.mark.parametrize("text", ["http://user@host/", "FTP://h/;type=x", "news:"])
def test_predefined_schemes_are_not_rescued(text: str) -> None:
    with pytest.raises(rfc1738.URLSyntaxError):
        rfc1738.parse(text)
