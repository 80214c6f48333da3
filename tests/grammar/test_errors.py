"""The error contract over every scheme's reject cases at once.

``URLSyntaxError.expected`` names what the grammar allowed in the grammar's
own names (DESIGN.md, "Errors"): ``UCHAR``, ``"/"``, never a name Lark made up.
"""

from __future__ import annotations

import pytest

import rfc1738
from tests.cases import REJECT, SCHEMES


@pytest.mark.xfail(
    strict=True,
    reason="terminals an imported rule uses keep Lark's import prefix (common__ALPHA)",
)
def test_expected_names_carry_no_import_prefix() -> None:
    leaked: dict[str, list[str]] = {}
    for scheme in SCHEMES:
        for case in REJECT[scheme]:
            with pytest.raises(rfc1738.URLSyntaxError) as caught:
                rfc1738.parse_tree(case.url)
            names = sorted(name for name in caught.value.expected if "__" in name)
            if names:
                leaked[case.url] = names
    assert leaked == {}
