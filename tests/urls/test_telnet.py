"""TelnetURL (RFC 1738 section 3.8): every field, raw and decoded."""

from __future__ import annotations

from rfc1738.urls import TelnetURL
from tests.urls.helpers import Row, both_parsers, field_tests

ROWS: list[Row] = [
    (
        "telnet://guest:vis%40itor@library.example.edu:2323/",
        {
            "raw_user": "guest",
            "user": "guest",
            "raw_password": "vis%40itor",
            "password": "vis@itor",
            "host": "library.example.edu",
            "raw_port": "2323",
            "port": 2323,
        },
    ),
    ("telnet://h", {"user": None, "password": None, "host": "h", "raw_port": None, "port": None}),
    ("telnet://@h/", {"raw_user": "", "user": "", "password": None}),
    ("telnet://u:@h", {"user": "u", "raw_password": "", "password": ""}),
    ("telnet://1.2.3.4:23", {"host": "1.2.3.4", "port": 23}),
]

test_fields, test_every_field_is_checked = field_tests(TelnetURL, ROWS)


def test_trailing_slash_kept() -> None:
    assert str(both_parsers("telnet://h/")) == "telnet://h/"
    assert str(both_parsers("telnet://h/").replace(port=99)) == "telnet://h:99/"
    assert str(both_parsers("telnet://h").replace(port=99)) == "telnet://h:99"


def test_default_port() -> None:
    assert both_parsers("telnet://h").effective_port == 23
