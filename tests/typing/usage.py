"""What a user's code looks like with rfc1738 typed: checked by ``mypy --strict`` (test_typing.py).

Never imported by the tests; ``reveal_type`` lines would fail at run time.
Each assignment states the type mypy must infer.
"""

from __future__ import annotations

from pathlib import PurePosixPath

import rfc1738
from rfc1738 import URL, FileURL, FtpURL, GenericURL, GopherURL, HttpURL, NewsURL


def http_fields(text: str) -> tuple[str, int | None, str | None, tuple[str, ...], str | None]:
    url: HttpURL = HttpURL.parse(text)
    host: str = url.host
    port: int | None = url.port
    path: str | None = url.path
    raw_path: str | None = url.raw_path
    segments: tuple[str, ...] = url.segments
    search: str | None = url.search
    assert raw_path is None or isinstance(raw_path, str)
    return host, port, path, segments, search


def expect_a_class(text: str) -> str:
    ftp = rfc1738.parse(text, FtpURL)
    user: str | None = ftp.user
    typecode: str | None = ftp.typecode
    return f"{user}{typecode}"


def any_url(text: str) -> URL:
    url = rfc1738.parse(text)
    if isinstance(url, GopherURL):
        kind: str = url.gopher_type
        selector: str | None = url.selector
        del kind, selector
    if isinstance(url, NewsURL):
        group: str | None = url.group
        del group
    return url


def new_objects(text: str) -> HttpURL:
    url = HttpURL.parse(text)
    normal: HttpURL = url.normalize()
    changed: HttpURL = normal.replace(path="a b", port=None)
    built: HttpURL = HttpURL.from_fields(host="example.org", search="q", path="")
    assert built.to_dict()["class"] == "HttpURL"
    return changed


def paths(text: str) -> PurePosixPath:
    url: FileURL = FileURL.parse(text)
    back: FileURL = FileURL.from_path(url.to_path(), host=url.host)
    return back.to_path()


def generic(text: str) -> str:
    url = GenericURL.parse(text)
    scheme: str = url.scheme
    schemepart: str = url.schemepart
    return scheme + schemepart
