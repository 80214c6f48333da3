"""normalize() and replace(): new objects, always re-read by rfc1738.parse."""

from __future__ import annotations

import pytest

import rfc1738
from rfc1738.urls import URL

NORMALIZE = [
    # Scheme and host in lower case; the default port dropped.
    ("HTTP://WWW.Example.COM:80/", "http://www.example.com/"),
    ("http://h:0081/", "http://h:81/"),
    # Section 3.3: without path and search the "/" may be left out: written.
    ("http://h:0080", "http://h/"),
    # Escapes of characters that mean the same as themselves decoded, the rest in
    # upper case: in an http path, section 3.3 reserves / ; ? alone; in a search,
    # every reserved character may mean something to the server.
    ("http://h/a%7e%2fb%41%2d%3a%3b?q=%3d%5F", "http://h/a%7E%2FbA-:%3B?q=%3D_"),
    # Section 3.1: only : @ / are reserved in a user and a password.
    ("ftp://%41%3b:%3a@H.Dom:21/%2fetc/%6dotd%3f;type=A", "ftp://A;:%3A@h.dom/%2Fetc/motd?;type=A"),
    ("ftp://h:2121", "ftp://h:2121"),
    # Section 3.10: localhost and the empty host are this machine.
    ("file://LOCALHOST/%7e", "file:///%7E"),
    ("file://localhost/x", "file:///x"),
    ("file:///x", "file:///x"),
    # Section 3.4: no character is reserved in the gopher path; an empty one
    # may leave out its "/", and is type 1 with the empty selector.
    ("gopher://H:70/%31sel%2a%2f%09s%09%09", "gopher://h/1sel*/%09s%09%09"),
    ("gopher://h:70/", "gopher://h/"),
    ("gopher://h", "gopher://h/"),
    ("gopher://h/1", "gopher://h/"),
    ("gopher://h/%31", "gopher://h/"),
    ("gopher://h/1%09", "gopher://h/1%09"),
    ("gopher://h/1a%09b/c", "gopher://h/1a%09b%2Fc"),
    # Section 3.5: no reserved characters in a mailto URL.
    ("mailto:Joe%40%65xample.COM", "mailto:Joe@example.COM"),
    ("mailto:a%25b%3f@h", "mailto:a%25b?@h"),
    # Section 3.6: none but the @ of a message id.
    ("news:%61%2f@News.Example.ORG", "news:a/@news.example.org"),
    ("news:Comp.Lang", "news:Comp.Lang"),
    # Section 3.7: the article number is a number.
    ("nntp://H:119/g/0012", "nntp://h/g/12"),
    ("nntp://h/g/000", "nntp://h/g/0"),
    # Section 3.8: the final "/" may be left out: written.
    ("telnet://U@H:23/", "telnet://U@h/"),
    ("telnet://U@H:23", "telnet://U@h/"),
    ("wais://H:210/d%62/%74/%7a", "wais://h/db/t/z"),
    ("wais://h/d?a%26b", None),
    # Section 3.11: ";" is reserved in the hsoname, "/" means nothing there.
    ("prospero://H:1525/%2f;%61=%62", "prospero://h//;a=b"),
    ("prospero://h/a%3Bb;x=%3F", "prospero://h/a%3Bb;x=?"),
    ("X-Foo://U@H.Org:7/%7e", "x-foo://U@h.org:7/%7E"),
    ("URN:ISBN:%30", "urn:ISBN:0"),
    ("urn:a%3ab", "urn:a%3Ab"),
]


@pytest.mark.parametrize(("text", "expected"), NORMALIZE)
def test_normalize(text: str, expected: str | None) -> None:
    # expected None: the URL is its own canonical form.
    url = rfc1738.parse(text)
    normal = url.normalize()
    assert str(normal) == (text if expected is None else expected)
    assert type(normal) is type(url)
    assert normal.normalize() == normal
    assert rfc1738.parse(str(normal)) == normal


def test_objects_are_immutable_values() -> None:
    url = rfc1738.parse("http://h/a")
    with pytest.raises(AttributeError):
        url.host = "x"  # type: ignore[misc]
    assert url == rfc1738.parse("http://h/a")
    assert hash(url) == hash(rfc1738.parse("http://h/a"))
    assert url != rfc1738.parse("HTTP://h/a")
    assert url.normalize() == rfc1738.parse("HTTP://h/a").normalize()


REPLACE = [
    ("http://h/", {"path": "a b/c"}, "http://h/a%20b/c"),
    # The path excludes the "/" after the host (section 3.1): one more is an empty segment.
    ("http://h/x", {"path": "/abs"}, "http://h//abs"),
    ("http://h/x", {"segments": ("a;b", "c")}, "http://h/a;b/c"),
    ("http://h/x", {"raw_path": "a%3Bb/c"}, "http://h/a%3Bb/c"),
    ("http://h/", {"segments": ("a/b", "c?")}, "http://h/a%2Fb/c%3F"),
    ("http://h/x", {"segments": ()}, "http://h"),
    ("http://h/x?q", {"search": "a/b?c d"}, "http://h/x?a%2Fb%3Fc%20d"),
    ("http://h/x?q", {"search": None}, "http://h/x"),
    ("http://h/x", {"port": 8080}, "http://h:8080/x"),
    ("http://h:8080/x", {"port": None, "host": "example.org"}, "http://example.org/x"),
    ("http://h/", {"path": "café"}, "http://h/caf%C3%A9"),
    ("http://h/", {"path": "\udcff"}, "http://h/%FF"),
    ("ftp://h", {"segments": ("/etc", "motd")}, "ftp://h/%2Fetc/motd"),
    ("ftp://h/x", {"user": "a@b:c/d", "password": ""}, "ftp://a%40b%3Ac%2Fd:@h/x"),
    ("ftp://u:p@h/x", {"user": None, "password": None}, "ftp://h/x"),
    ("ftp://h/x", {"typecode": "d"}, "ftp://h/x;type=d"),
    ("ftp://h/x;type=d", {"path": "a;type=i"}, "ftp://h/a%3Btype=i;type=d"),
    ("file:///x", {"host": "localhost"}, "file://localhost/x"),
    ("file://h/x", {"host": None, "segments": ("a", "")}, "file:///a/"),
    ("gopher://h", {"gtype": "0", "selector": "about us"}, "gopher://h/0about%20us"),
    ("gopher://h/", {"gtype": "7"}, "gopher://h/7"),
    ("gopher://h/1", {"gtype": "\t"}, "gopher://h/%09"),
    ("gopher://h/1s", {"search": "q", "gopher_plus": "+\t!"}, "gopher://h/1s%09q%09+%09!"),
    ("gopher://h/1s%09q%09+", {"search": None, "gopher_plus": None}, "gopher://h/1s"),
    ("mailto:x", {"address": "joe%work@example.com"}, "mailto:joe%25work@example.com"),
    ("news:a.b", {"group": "*"}, "news:*"),
    ("news:a.b", {"article": "x y@h.org"}, "news:x%20y@h.org"),
    ("news:x@h", {"group": "comp.lang"}, "news:comp.lang"),
    ("nntp://h/g", {"group": "alt.x", "article_number": 12}, "nntp://h/alt.x/12"),
    ("nntp://h/g/12", {"article_number": None}, "nntp://h/g"),
    ("telnet://h", {"user": "guest", "password": "p w"}, "telnet://guest:p%20w@h"),
    ("wais://h/db", {"search": "a b"}, "wais://h/db?a%20b"),
    ("wais://h/db?x", {"search": None, "wtype": "T", "wpath": "a/b"}, "wais://h/db/T/a%2Fb"),
    ("wais://h/db/t/p", {"database": "d?", "wtype": None, "wpath": None}, "wais://h/d%3F"),
    ("prospero://h/x", {"path": "/a;b"}, "prospero://h//a%3Bb"),
    ("prospero://h/x", {"fieldspecs": (("a;b", "c=d"), ("", ""))}, "prospero://h/x;a%3Bb=c%3Dd;="),
    ("prospero://h/x;a=b", {"fieldspecs": ()}, "prospero://h/x"),
    ("urn:x", {"schemepart": "a b"}, "urn:a%20b"),
    ("urn:x", {"scheme": "X-Y"}, "X-Y:x"),
    ("urn:x", {"host": "h", "urlpath": "p"}, "urn://h/p"),
    ("foo://u@h/p", {"schemepart": "opaque"}, "foo:opaque"),
    ("foo://u@h/p", {"port": 1, "user": None}, "foo://h:1/p"),
]


@pytest.mark.parametrize(("text", "changes", "expected"), REPLACE)
def test_replace(text: str, changes: dict[str, object], expected: str) -> None:
    url = rfc1738.parse(text)
    new = url.replace(**changes)
    assert str(new) == expected
    assert type(new) is type(url)
    assert str(url) == text
    for name, value in changes.items():
        expected_value = tuple(value) if isinstance(value, list) else value
        if name == "scheme" and isinstance(value, str):
            expected_value = value.lower()
        assert getattr(new, name) == expected_value, name


def test_replace_with_nothing_is_equal() -> None:
    url = rfc1738.parse("ftp://u@h/a;type=d")
    assert url.replace() == url


def test_generic_schemepart_with_login_shape_reads_as_login() -> None:
    url = rfc1738.parse("urn:x").replace(schemepart="//h/p")
    assert (url.host, url.urlpath, url.schemepart) == ("h", "p", "//h/p")


REFUSED = [
    # Values the URL cannot express.
    ("http://h", {"search": "q"}, ValueError, "search needs a path"),
    ("http://h/", {"path": "a", "segments": ("a",)}, ValueError, "same part"),
    ("ftp://h", {"typecode": "a"}, ValueError, "typecode needs a path"),
    ("ftp://h/", {"password": "pw"}, ValueError, "password needs a user"),
    ("file:///x", {"segments": ()}, ValueError, "always has a path"),
    ("gopher://h/1", {"selector": "a\tb"}, ValueError, "tab"),
    ("gopher://h/1", {"search": "a\tb"}, ValueError, "tab"),
    ("gopher://h/1", {"gtype": "ab"}, ValueError, "one character"),
    ("gopher://h/1", {"gtype": "é"}, ValueError, "more than one octet"),
    ("gopher://h/1", {"gopher_plus": "+"}, ValueError, "needs a search"),
    ("gopher://h/", {"selector": "s"}, ValueError, "needs a gtype"),
    ("news:a", {"article": "no-at-sign"}, ValueError, "unique@host"),
    ("news:a", {"group": None}, ValueError, "exactly one"),
    ("wais://h/d/t/p", {"search": "q"}, ValueError, "not both"),
    ("wais://h/d", {"wtype": "t"}, ValueError, "wtype needs a wpath"),
    ("foo://h", {"schemepart": "x", "host": "y"}, ValueError, "not both"),
    ("foo:x", {"user": "u"}, ValueError, "user needs a host"),
    ("foo://h", {"scheme": "http"}, ValueError, "not a GenericURL"),
    ("foo:x", {"scheme": "http"}, rfc1738.URLSyntaxError, "httpurl"),
    ("http://h/", {"path": "\ud800"}, ValueError, "stands for no octets"),
    ("http://h/", {"path": "\udcc3\udca9"}, ValueError, "read back as"),
    ("http://h/", {"port": -1}, ValueError, "negative"),
    # Values the grammar or the host checks refuse.
    ("http://h/", {"host": "bad_host"}, rfc1738.URLSyntaxError, "host"),
    ("http://h/", {"port": 70000}, rfc1738.URLSyntaxError, "65535"),
    ("ftp://h/", {"typecode": "x"}, rfc1738.URLSyntaxError, ""),
    ("mailto:x", {"address": ""}, rfc1738.URLSyntaxError, ""),
    ("news:x", {"group": "9x"}, rfc1738.URLSyntaxError, ""),
    # Wrong types and unknown fields.
    ("http://h/", {"port": "80"}, TypeError, "int"),
    ("http://h/", {"port": True}, TypeError, "int"),
    ("http://h/", {"path": b"x"}, TypeError, "str"),
    ("http://h/", {"segments": "abc"}, TypeError, "tuple"),
    ("http://h/", {"user": "u"}, TypeError, "no field 'user'"),
    ("http://h/", {"scheme": "ftp"}, TypeError, "no field 'scheme'"),
    ("prospero://h/x", {"fieldspecs": (("a",),)}, TypeError, "pairs"),
]


@pytest.mark.parametrize(("text", "changes", "kind", "words"), REFUSED)
def test_replace_refuses(
    text: str, changes: dict[str, object], kind: type[Exception], words: str
) -> None:
    url: URL = rfc1738.parse(text)
    with pytest.raises(kind) as caught:
        url.replace(**changes)
    assert words in str(caught.value)
