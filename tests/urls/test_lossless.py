"""Fields that cannot lose information (issue 22).

For every URL ``u`` of every class and every field ``f`` it gives (decoded
or raw), ``u.replace(f=getattr(u, f))`` is the same URL as ``u`` (their
``normalize()`` equal), and so is ``from_fields`` of ``u``'s fields. A
decoded field that could not say what its text says raises
:class:`rfc1738.AmbiguousFieldError` instead, and what the error points to
(``segments``, the raw twin) gives it. Checked on URLs the grammar generates
(Hypothesis) and on every URL of the RFC-derived accept lists.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rfc1738
from rfc1738.errors import AmbiguousFieldError
from rfc1738.runtime.facts import SCHEME_FACTS
from rfc1738.urls import CLASSES, URL
from tests.budget import examples
from tests.cases import ACCEPT
from tests.urls.helpers import grammar_urls, one_value_per_part

SCHEMES = sorted(CLASSES)


def refused(url: URL, name: str) -> AmbiguousFieldError | None:
    """The error reading ``name`` raises, checked; ``None`` when it gives a value."""
    try:
        getattr(url, name)
    except AmbiguousFieldError as error:
        assert error.field == name
        assert error.text == url.text
        field = url.FIELDS[name]
        raw = getattr(url, field.raw_name)
        assert error.escape.lower() in str(raw).lower()
        for instead in error.instead:
            getattr(url, instead)  # gives its value
        assert error.instead[-1] == field.raw_name
        return error
    return None


def check_replace(url: URL) -> int:
    """Each field given its own value gives the same URL; the number of calls made."""
    normal = url.normalize()
    calls = 0
    for name in (*url.FIELDS, *url.RAW_FIELDS):
        if refused(url, name) is not None:
            continue
        value = getattr(url, name)
        assert url.replace(**{name: value}).normalize() == normal, name
        calls += 1
    return calls


def check_from_fields(url: URL) -> None:
    rebuilt = type(url).from_fields(host_checks=False, **one_value_per_part(url))
    assert rebuilt.normalize() == url.normalize()


def parsed(text: str, scheme: str) -> URL:
    if scheme == "generic":
        # genericurl generates any scheme name; a predefined one must match
        # its own production, which is another scheme's test.
        assume(text.partition(":")[0].lower() not in SCHEME_FACTS)
    url = rfc1738.parse(text, host_checks=False)
    assert type(url) is CLASSES[scheme]
    return url


@pytest.mark.parametrize("scheme", SCHEMES)
@settings(
    max_examples=examples(80),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_a_field_given_its_own_value_gives_the_same_url(scheme: str, data: st.DataObject) -> None:
    url = parsed(data.draw(grammar_urls(scheme), label="url"), scheme)
    check_replace(url)
    check_from_fields(url)


def test_every_rfc_derived_url() -> None:
    # The accept lists hold every example the RFC gives and more: about 3,600
    # calls (replace with each field, from_fields), none of which may give
    # another URL.
    calls = 0
    for cases in ACCEPT.values():
        for case in cases:
            url = rfc1738.parse(case.url, host_checks=False)
            calls += check_replace(url)
            check_from_fields(url)
            calls += 1
    assert calls > 1000


@pytest.mark.parametrize(
    ("text", "field", "escape", "instead"),
    [
        # Section 3.2.2: %2F is a "/" inside one segment name; / separates segments.
        ("ftp://myname@host.dom/%2Fetc/motd", "path", "%2F", ("segments", "raw_path")),
        ("file:///etc%2Fpasswd", "path", "%2F", ("segments", "raw_path")),
        ("http://h/a%2fb", "path", "%2f", ("segments", "raw_path")),
        # Section 3.3 reserves ";" in the path: segments cannot say it either.
        ("http://h/a%3Bb", "path", "%3B", ("raw_path",)),
        ("http://h/a%3Bb", "segments", "%3B", ("raw_path",)),
        # A query string: "&" and "=" may mean something to the server.
        ("http://h/?q=a%26b", "search", "%26", ("raw_search",)),
        ("wais://h/db?a%3Db", "search", "%3D", ("raw_search",)),
        # A scheme RFC 1738 does not define may reserve any of them.
        ("urn:a%3Ab", "schemepart", "%3A", ("raw_schemepart",)),
        ("x-y://h/a%2Fb", "urlpath", "%2F", ("raw_urlpath",)),
    ],
)
def test_what_a_decoded_field_cannot_say(
    text: str, field: str, escape: str, instead: tuple[str, ...]
) -> None:
    url = rfc1738.parse(text)
    with pytest.raises(AmbiguousFieldError) as raised:
        getattr(url, field)
    error = raised.value
    assert (error.field, error.escape, error.instead) == (field, escape, instead)
    assert isinstance(error, ValueError)
    assert f"read {' or '.join(instead)}" in str(error)
    assert field not in url.to_dict()
    assert all(name in url.to_dict() for name in instead)


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        # What the RFC says is the character itself, the decoded value gives.
        ("ftp://h/a%3Fb/c", "path", "a?b/c"),  # 3.2.2 reserves only / and ;
        ("ftp://a%3Bb@h/", "user", "a;b"),  # 3.1 reserves only : @ / in a user
        ("http://h/a%3Ab", "path", "a:b"),  # 3.3 reserves only / ; ?
        ("http://h/?a%2Fb%3F", "search", "a/b?"),  # neither may stand for itself there
        ("mailto:a%3Fb@h", "address", "a?b@h"),  # 3.5: no reserved characters
        ("gopher://h/1a%2Fb%09c%26d", "search", "c&d"),  # 3.4: none in the gopher path
        ("news:a%2Fb@h", "article", "a/b@h"),  # 3.6: none but the @
        ("prospero://h/a%2Fb", "path", "a/b"),  # 3.11: / means nothing in an hsoname
    ],
)
def test_what_a_decoded_field_says(text: str, field: str, value: object) -> None:
    url = rfc1738.parse(text)
    assert getattr(url, field) == value
    assert url.replace(**{field: value}).normalize() == url.normalize()


def test_raw_values_are_the_way_to_write_what_no_decoded_value_says() -> None:
    url = rfc1738.parse("http://h/x")
    assert str(url.replace(raw_path="a%3Bb/c")) == "http://h/a%3Bb/c"
    assert str(url.replace(segments=("a;b", "c"))) == "http://h/a;b/c"
    ftp = rfc1738.FtpURL.from_fields(host="h", raw_path="%2Fetc/motd")
    assert str(ftp) == "ftp://h/%2Fetc/motd"
    assert ftp.segments == ("/etc", "motd")
    # A raw value must read back as the same field.
    with pytest.raises(ValueError, match="does not stay one path"):
        url.replace(raw_path="a?b")
    with pytest.raises(rfc1738.URLSyntaxError):
        url.replace(raw_path="a b")
    with pytest.raises(TypeError, match="raw_path must be a str"):
        url.replace(raw_path=("a",))
    with pytest.raises(ValueError, match="set the same part"):
        url.replace(path="a", raw_path="b")


def test_normalize_gives_the_decoded_values_back() -> None:
    # Where the decoded value is given, the canonical form has it too.
    url = rfc1738.parse("ftp://h/%2fa%41/b;type=d")
    assert url.normalize().segments == url.segments == ("/aA", "b")
    assert str(url.normalize()) == "ftp://h/%2FaA/b;type=d"
