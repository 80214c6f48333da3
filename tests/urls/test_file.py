"""FileURL (RFC 1738 section 3.10): every field, raw and decoded."""

from __future__ import annotations

from rfc1738.urls import FileURL
from tests.urls.helpers import Refused, Row, both_parsers, field_tests

ROWS: list[Row] = [
    (
        "file://vms.host.edu/disk$user/my/notes/note12345.txt",
        {
            "host": "vms.host.edu",
            "raw_path": "disk$user/my/notes/note12345.txt",
            "path": "disk$user/my/notes/note12345.txt",
            "segments": ("disk$user", "my", "notes", "note12345.txt"),
        },
    ),
    # An empty host is None; "localhost" is kept as written.
    ("file:///etc/motd", {"host": None, "segments": ("etc", "motd")}),
    ("file://localhost/etc/motd", {"host": "localhost", "path": "etc/motd"}),
    ("file://LocalHost/x", {"host": "LocalHost"}),
    ("file://h/", {"raw_path": "", "path": "", "segments": ("",)}),
    (
        "file://h/a%2Fb/%20",
        {
            "raw_path": "a%2Fb/%20",
            "path": Refused("%2F", ("segments", "raw_path")),
            "segments": ("a/b", " "),
        },
    ),
    ("file://127.0.0.1//x", {"host": "127.0.0.1", "segments": ("", "x")}),
]

test_fields, test_every_field_is_checked = field_tests(FileURL, ROWS)


def test_no_port() -> None:
    url = both_parsers("file:///x")
    assert (url.port, url.default_port, url.effective_port) == (None, None, None)
