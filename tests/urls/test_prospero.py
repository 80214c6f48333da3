"""ProsperoURL (RFC 1738 section 3.11): hsoname and fieldspecs."""

from __future__ import annotations

from rfc1738.urls import ProsperoURL
from tests.urls.helpers import Row, both_parsers, field_tests

ROWS: list[Row] = [
    (
        "prospero://pros.example.org:1526/pros/name;version=2;type=x%3Dy",
        {
            "host": "pros.example.org",
            "raw_port": "1526",
            "port": 1526,
            "raw_path": "pros/name",
            "path": "pros/name",
            "raw_fieldspecs": (("version", "2"), ("type", "x%3Dy")),
            "fieldspecs": (("version", "2"), ("type", "x=y")),
        },
    ),
    # The hsoname is opaque: "/" means nothing special (section 3.11).
    ("prospero://host.dom//pros/name", {"path": "/pros/name", "fieldspecs": ()}),
    ("prospero://h/", {"raw_path": "", "path": "", "raw_fieldspecs": ()}),
    ("prospero://h/a%3Bb;=;x=", {"path": "a;b", "fieldspecs": (("", ""), ("x", ""))}),
    ("prospero://h/a;n%3Bm=v%3B", {"fieldspecs": (("n;m", "v;"),)}),
]

test_fields, test_every_field_is_checked = field_tests(ProsperoURL, ROWS)


def test_default_port() -> None:
    url = both_parsers("prospero://h/x")
    assert (url.port, url.default_port, url.effective_port) == (None, 1525, 1525)
