"""``FileURL.to_path()`` and ``FileURL.from_path()`` (issue 13, item 4)."""

from __future__ import annotations

from pathlib import PurePosixPath

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rfc1738
from rfc1738 import FileURL

TO_PATH = [
    ("file:///etc/passwd", "/etc/passwd"),
    ("file://localhost/a%20b/caf%C3%A9", "/a b/café"),
    ("file://host.example/srv/x", "/srv/x"),
    ("file:///", "/"),
    ("file:///%FF", "/\udcff"),
]


@pytest.mark.parametrize(("text", "path"), TO_PATH)
def test_to_path(text: str, path: str) -> None:
    found = rfc1738.parse(text, FileURL).to_path()
    assert found == PurePosixPath(path)
    assert found.is_absolute()


@pytest.mark.parametrize("text", ["file:///etc%2Fpasswd", "file:///a/b%2f..", "file:///a%00"])
def test_an_escaped_separator_or_nul_is_an_error(text: str) -> None:
    with pytest.raises(ValueError, match="a path segment cannot"):
        rfc1738.parse(text, FileURL).to_path()


FROM_PATH = [
    ("/etc/passwd", None, "file:///etc/passwd"),
    ("/", None, "file:///"),
    ("/tmp/my notes.txt", "localhost", "file://localhost/tmp/my%20notes.txt"),
    ("/a;b/c?d/e#f/~g%h", "h.example", "file://h.example/a%3Bb/c?d/e%23f/%7Eg%25h"),
    (PurePosixPath("/srv/café"), None, "file:///srv/caf%C3%A9"),
]


@pytest.mark.parametrize(("path", "host", "text"), FROM_PATH)
def test_from_path(path: str | PurePosixPath, host: str | None, text: str) -> None:
    url = FileURL.from_path(path, host=host)
    assert str(url) == text
    assert url.host == host
    assert url.to_path() == PurePosixPath(path)


def test_from_path_refuses_a_relative_path_and_a_bad_host() -> None:
    with pytest.raises(ValueError, match="absolute"):
        FileURL.from_path("etc/passwd")
    with pytest.raises(rfc1738.URLSyntaxError):
        FileURL.from_path("/x", host="bad_host")


#: Segment names a POSIX path keeps as they are (no "/", no NUL, not "." or "").
SEGMENTS = st.text(
    st.characters(blacklist_characters="/\x00", blacklist_categories=("Cs",)), min_size=1
).filter(lambda s: s != ".")

#: Any segment of a URL path, those a POSIX path drops ("", ".") included.
ANY_SEGMENTS = st.one_of(SEGMENTS, st.sampled_from(["", ".", ".."]))


@given(st.lists(SEGMENTS, max_size=6), st.sampled_from([None, "localhost", "h.example"]))
def test_round_trip(segments: list[str], host: str | None) -> None:
    path = PurePosixPath("/", *segments)
    url = FileURL.from_path(path, host=host)
    assert url.to_path() == path
    assert FileURL.parse(str(url)) == url
    assert url.segments == (tuple(segments) or ("",))


@given(st.lists(SEGMENTS, max_size=6))
def test_round_trip_from_the_url(segments: list[str]) -> None:
    url = FileURL.from_path(PurePosixPath("/", *segments))
    assert FileURL.from_path(url.to_path()) == url


@given(st.lists(ANY_SEGMENTS, min_size=1, max_size=6))
def test_a_url_path_is_the_posix_path_of_its_segments(segments: list[str]) -> None:
    # Empty and "." segments, and so a trailing "/", mean nothing to a POSIX
    # path: to_path() drops them, and from_path() of that path gives the URL
    # without them, which reads back as the same path (docs/schemes/file.md).
    url = FileURL.from_fields(segments=tuple(segments))
    path = url.to_path()
    assert path == PurePosixPath("/", *segments)
    again = FileURL.from_path(path)
    assert again.to_path() == path
    assert again.segments == (tuple(s for s in segments if s not in ("", ".")) or ("",))
