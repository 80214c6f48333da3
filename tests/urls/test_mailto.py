"""MailtoURL (RFC 1738 section 3.5): every field, raw and decoded."""

from __future__ import annotations

from rfc1738.urls import MailtoURL
from tests.urls.helpers import Row, both_parsers, field_tests

ROWS: list[Row] = [
    ("mailto:joe@example.com", {"raw_address": "joe@example.com", "address": "joe@example.com"}),
    # "%" in an address is written %25 (section 3.5).
    (
        "mailto:joe%25work@example.com",
        {"raw_address": "joe%25work@example.com", "address": "joe%work@example.com"},
    ),
    ("MAILTO:a/b?c=d;e", {"raw_scheme": "MAILTO", "scheme": "mailto", "address": "a/b?c=d;e"}),
    ("mailto:%22J%20D%22@h", {"address": '"J D"@h'}),
]

test_fields, test_every_field_is_checked = field_tests(MailtoURL, ROWS)


def test_no_port() -> None:
    url = both_parsers("mailto:x")
    assert (url.port, url.default_port, url.effective_port) == (None, None, None)
