"""Numbers of any length the grammar allows: ports, hostnumber parts, article numbers.

``digits`` has no upper bound in the BNF, and Python's ``int()`` refuses a
string of more than 4300 digits: no such URL may escape as a ``ValueError``
that is not a :class:`rfc1738.URLSyntaxError`, nor break ``to_dict()``.
Found by the Hypothesis fuzz suite (tests/fuzz).
"""

from __future__ import annotations

import json

import pytest

import rfc1738

MANY = 100_000


def test_leading_zeros_do_not_count() -> None:
    url = rfc1738.parse("http://h:" + "0" * MANY + "80/")
    assert url.port == 80
    assert url.uses_default_port()
    assert str(url.normalize()) == "http://h/"


def test_a_port_of_many_digits_is_a_port_error() -> None:
    text = "http://h:" + "9" * MANY + "/"
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        rfc1738.parse(text)
    assert (caught.value.position, caught.value.rule) == (9, "port")
    assert not rfc1738.is_valid(text)


def test_a_hostnumber_part_with_many_zeros_is_checked_by_value() -> None:
    assert rfc1738.parse("http://0001.2.3.4/").host == "0001.2.3.4"
    with pytest.raises(rfc1738.URLSyntaxError, match="hostnumber part"):
        rfc1738.parse("http://1.2.3." + "9" * 5000 + "/", host_checks=True)


def test_huge_numbers_come_out_of_to_dict_as_digits() -> None:
    url = rfc1738.parse("http://h:" + "7" * 5000 + "/", host_checks=False)
    assert url.port == int("7" * 1000) * 10**4000 + int("7" * 4000)
    fields = json.loads(json.dumps(url.to_dict()))
    assert fields["port"] == "7" * 5000
    article = rfc1738.parse("nntp://h/g/" + "1" * 5000)
    assert json.loads(json.dumps(article.to_dict()))["article_number"] == "1" * 5000
