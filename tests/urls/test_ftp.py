"""FtpURL (RFC 1738 section 3.2, login from section 3.1): every field, raw and decoded."""

from __future__ import annotations

from rfc1738.urls import FtpURL
from tests.urls.helpers import Refused, Row, both_parsers, field_tests

#: What reading the decoded path of a URL with a %2F in a segment gives.
SLASH_IN_SEGMENT = Refused("%2F", ("segments", "raw_path"))

ROWS: list[Row] = [
    # Section 3.1: empty user or password differs from none.
    ("ftp://@host.com/", {"raw_user": "", "user": "", "raw_password": None, "password": None}),
    ("ftp://host.com/", {"raw_user": None, "user": None, "password": None}),
    ("ftp://foo:@host.com/", {"user": "foo", "raw_password": "", "password": ""}),
    ("ftp://:pw@host.com/", {"user": "", "password": "pw"}),
    (
        "ftp://my%20name:se%3Acret@host.dom:2121/pub/file.txt;type=i",
        {
            "raw_user": "my%20name",
            "user": "my name",
            "raw_password": "se%3Acret",
            "password": "se:cret",
            "host": "host.dom",
            "raw_port": "2121",
            "port": 2121,
            "raw_path": "pub/file.txt",
            "path": "pub/file.txt",
            "segments": ("pub", "file.txt"),
            "typecode": "i",
        },
    ),
    # Section 3.2.2: %2F is a "/" inside one segment; an empty segment is a CWD "".
    # The decoded path cannot tell the two apart: it is refused, segments says it.
    (
        "ftp://myname@host.dom/%2Fetc/motd",
        {"segments": ("/etc", "motd"), "path": SLASH_IN_SEGMENT, "raw_path": "%2Fetc/motd"},
    ),
    ("ftp://myname@host.dom//etc/motd", {"segments": ("", "etc", "motd"), "path": "/etc/motd"}),
    ("ftp://h", {"raw_path": None, "path": None, "segments": (), "typecode": None}),
    ("ftp://h/", {"raw_path": "", "segments": ("",)}),
    ("ftp://h/;type=D", {"path": "", "typecode": "D"}),
    ("ftp://info.cern.ch/pub/www/doc;type=d", {"segments": ("pub", "www", "doc")}),
    ("ftp://h/a?b:c@d&e=f", {"segments": ("a?b:c@d&e=f",)}),
    ("FTP://h:21", {"raw_scheme": "FTP", "port": 21, "effective_port": 21}),
]

test_fields, test_every_field_is_checked = field_tests(FtpURL, ROWS)


def test_default_port() -> None:
    url = both_parsers("ftp://h/")
    assert (url.port, url.default_port, url.effective_port) == (None, 21, 21)
