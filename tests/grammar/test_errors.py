"""The error contract over every scheme's reject cases at once.

``URLSyntaxError.expected`` names what the grammar allowed in the grammar's
own names (DESIGN.md, "Errors"): a literal as written (``"/"``,
``"http://"i``), a terminal (``UCHAR``), or the end of the URL; never a name
Lark made up, such as an import prefix (``common__ALPHA``).
"""

from __future__ import annotations

import re

import pytest

import rfc1738
from rfc1738.runtime.reference import END
from tests.cases import REJECT, SCHEMES, Case, case_id

_LITERAL = re.compile(r'^"(?:[^"\\]|\\.)*"i?$')
_TERMINAL = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$")


def grammar_name(name: str) -> bool:
    return name == END or bool(_LITERAL.match(name) or _TERMINAL.match(name))


@pytest.mark.parametrize(
    "case", [case for scheme in SCHEMES for case in REJECT[scheme]], ids=case_id
)
def test_expected_names_are_the_grammars_own(case: Case) -> None:
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        rfc1738.parse_tree(case.url)
    assert [name for name in caught.value.expected if not grammar_name(name)] == []


def test_every_reject_case_states_its_position() -> None:
    missing = [case.url for scheme in SCHEMES for case in REJECT[scheme] if case.at is None]
    assert missing == []
    outside = [
        case.url
        for scheme in SCHEMES
        for case in REJECT[scheme]
        if case.at is not None and not 0 <= case.at <= len(case.url)
    ]
    assert outside == []


def test_a_sample_of_every_scheme_states_rule_and_expected() -> None:
    """At least one reject case per scheme, 20 in all, pins rule and expected items."""
    detailed = {
        scheme: [case for case in REJECT[scheme] if case.rule and case.expected is not None]
        for scheme in SCHEMES
    }
    assert [scheme for scheme, cases in detailed.items() if not cases] == []
    assert sum(len(cases) for cases in detailed.values()) >= 20
