"""Host and port checks on top of the BNF (RFC 1034 section 3.5, RFC 1123 section 2.1).

Each limit has its own error: a :class:`rfc1738.URLSyntaxError` whose position
is where the offending label, hostnumber part or port starts, whose rule is
``host`` or ``port``, and whose reason names the limit. ``host_checks=False``
gives the bare grammar.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rfc1738
from rfc1738.runtime.bulk import check_lines
from rfc1738.runtime.hosts import check_host, octets_pass

LABEL_63 = "a" * 63
LABEL_64 = "a" * 64
#: A host name of exactly 255 characters, no label over 63.
NAME_255 = ".".join([LABEL_63] * 4)[:251] + ".com"
NAME_256 = NAME_255 + "m"


def host_in_every_scheme(host: str) -> list[str]:
    """The host in every place the grammar has one."""
    return [
        f"http://{host}/",
        f"ftp://u:p@{host}/",
        f"file://{host}/x",
        f"gopher://{host}/1",
        f"news:id@{host}",
        f"nntp://{host}/g",
        f"telnet://{host}",
        f"wais://{host}/db",
        f"prospero://{host}/p",
        f"x-any://{host}/p",
    ]


def port_in_every_scheme(port: str) -> list[str]:
    return [
        f"http://h:{port}/",
        f"ftp://h:{port}/",
        f"gopher://h:{port}/",
        f"nntp://h:{port}/g",
        f"telnet://u@h:{port}",
        f"wais://h:{port}/db",
        f"prospero://h:{port}/p",
        f"x-any://h:{port}",
    ]


def error(text: str) -> rfc1738.URLSyntaxError:
    """The error of ``text``, the same from both parsers; the bare grammar accepts it."""
    assert rfc1738.is_valid(text, host_checks=False)
    assert rfc1738.is_valid(text, parser="reference", host_checks=False)
    caught = []
    for parser in ("fast", "reference"):
        with pytest.raises(rfc1738.URLSyntaxError) as info:
            rfc1738.parse(text, parser=parser)
        caught.append(info.value)
    fast, reference = caught
    assert (fast.position, fast.rule, fast.reason) == (
        reference.position,
        reference.rule,
        reference.reason,
    )
    assert fast.text == text
    return fast


@pytest.mark.parametrize("text", host_in_every_scheme(f"{LABEL_63}.{LABEL_63}.com"))
def test_label_of_63_is_accepted(text: str) -> None:
    rfc1738.parse(text)


@pytest.mark.parametrize("text", host_in_every_scheme(f"x.{LABEL_64}.com"))
def test_label_over_63(text: str) -> None:
    found = error(text)
    assert found.rule == "host"
    assert text[found.position :].startswith(LABEL_64)
    assert "label of 64 characters" in found.reason
    assert "63" in found.reason and "RFC 1034 section 3.5" in found.reason


def test_last_label_over_63() -> None:
    text = f"http://x.{'c' * 70}/"
    assert error(text).position == len("http://x.")


def test_name_of_255_is_accepted() -> None:
    assert len(NAME_255) == 255
    assert rfc1738.parse(f"http://{NAME_255}/").host == NAME_255


@pytest.mark.parametrize("text", host_in_every_scheme(NAME_256))
def test_name_over_255(text: str) -> None:
    found = error(text)
    assert found.rule == "host"
    assert text[found.position :].startswith(NAME_256)
    assert "host name of 256 characters" in found.reason
    assert "255" in found.reason


@pytest.mark.parametrize("text", host_in_every_scheme("10.255.0.255"))
def test_hostnumber_parts_up_to_255(text: str) -> None:
    rfc1738.parse(text)


@pytest.mark.parametrize("text", host_in_every_scheme("10.0.256.1"))
def test_hostnumber_part_over_255(text: str) -> None:
    found = error(text)
    assert found.rule == "host"
    assert text[found.position :].startswith("256.1")
    assert "hostnumber part 256" in found.reason


def test_first_bad_hostnumber_part_is_reported() -> None:
    assert error("http://999.1.300.1/").position == len("http://")


def test_hostnumber_leading_zeros_count_by_value() -> None:
    assert rfc1738.parse("http://0000255.1.1.1/").host == "0000255.1.1.1"


@pytest.mark.parametrize("text", port_in_every_scheme("65535"))
def test_port_up_to_65535(text: str) -> None:
    assert rfc1738.parse(text).port == 65535


@pytest.mark.parametrize("text", port_in_every_scheme("65536"))
def test_port_over_65535(text: str) -> None:
    found = error(text)
    assert found.rule == "port"
    assert text[found.position :].startswith("65536")
    assert "port 65536" in found.reason and "65535" in found.reason


def test_long_port_of_small_value() -> None:
    assert rfc1738.parse("http://h:000000080/").port == 80


def test_checks_off_keeps_the_values() -> None:
    text = f"http://{LABEL_64}.com:99999/"
    url = rfc1738.parse(text, host_checks=False)
    assert (url.host, url.port) == (f"{LABEL_64}.com", 99999)
    assert url.host_checks is False
    # Equal by value whatever the checks were.
    assert url == rfc1738.parse(text, parser="reference", host_checks=False)
    assert rfc1738.parse("http://h/", host_checks=False) == rfc1738.parse("http://h/")


def test_checks_off_carry_over_to_replace_and_normalize() -> None:
    url = rfc1738.parse(f"http://{LABEL_64}.com:99999/", host_checks=False)
    assert url.replace(path="x").path == "x"
    assert url.normalize().port == 99999


def test_generic_without_login_has_no_host_to_check() -> None:
    url = rfc1738.parse(f"foo:{LABEL_64}")
    assert url.host is None


def test_error_message_has_a_caret() -> None:
    text = "http://h:70000/"
    message = str(error(text))
    assert message.splitlines()[-1].index("^") == len("  http://h:")


#: A hostnumber part: one to four digits, around the octet's limit and its leading zeros.
octet_parts = st.one_of(
    st.integers(0, 300).map(str),
    st.from_regex(r"0{1,2}[0-9]{1,3}", fullmatch=True),
    st.from_regex(r"[0-9]{4}", fullmatch=True),
)


@given(st.lists(octet_parts, min_size=4, max_size=4))
def test_the_hostnumber_screen_agrees_with_the_check(parts: list[str]) -> None:
    # The runners pass a hostnumber octets_pass passes without the full check:
    # it must pass it, and every way to a verdict must agree.
    number = ".".join(parts)
    text = f"telnet://u@{number}:23/"
    try:
        check_host(text, (len("telnet://u@"), len("telnet://u@") + len(number)), True)
        checked = True
    except rfc1738.URLSyntaxError:
        checked = False
    if octets_pass(number):
        assert checked
    for url in (f"http://{number}/", text, f"x-any://{number}/p"):
        assert rfc1738.is_valid(url) is checked
        assert rfc1738.is_valid(url, parser="reference") is checked
        assert [result.valid for result in check_lines(rfc1738.shipped(), [url])] == [checked]
        try:
            rfc1738.parse(url)
            parsed = True
        except rfc1738.URLSyntaxError:
            parsed = False
        assert parsed is checked
