"""The ECMAScript dialect in node's ``RegExp``: one node process for all the samples."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

import rfc1738

from .compare import Answer, assert_agree, written_greedy
from .samples import Sample

SCRIPT = Path(__file__).with_name("regexps.js")


def node() -> str:
    """The node executable, or a skip saying it is missing."""
    found = shutil.which("node")
    if found is None:
        pytest.skip("node is not installed: the ECMAScript dialect is tested in node")
    return found


def run_node(export: rfc1738.Export, items: list[tuple[str, str]]) -> list[list[object]]:
    """What node's RegExp makes of each (scheme, text)."""
    request = {
        "schemes": {s: p.pattern for s, p in export.schemes.items()},
        "any": export.any,
        "groups": {s: list(p.groups) for s, p in export.schemes.items()},
        "items": items,
    }
    done = subprocess.run(
        [node(), str(SCRIPT)],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    answers: list[list[object]] = json.loads(done.stdout)
    return answers


@pytest.mark.parametrize("form", ["as exported", "written greedy"])
def test_ecmascript_dialect_agrees_with_the_library(
    all_samples: Sequence[Sample], form: str
) -> None:
    # "written greedy": the form of a pattern past V8's group limit (the
    # dispatching one), here for every scheme, so that its groups are checked.
    export = rfc1738.export("ecmascript") if form == "as exported" else written_greedy("ecmascript")
    # Lone surrogates cannot cross as UTF-8; JSON's \u escapes carry them.
    raw = run_node(export, [(s.scheme, s.text) for s in all_samples])
    answers = []
    for sample, (matched, anything, groups) in zip(all_samples, raw, strict=True):
        assert isinstance(groups, dict)
        found: dict[str, tuple[int, int]] = {}
        for production, names in _groups_by_production(export, sample.scheme).items():
            for name in names:
                if name in groups:
                    found[production] = tuple(groups[name])  # type: ignore[assignment]
                    break
        answers.append(Answer(bool(matched), bool(anything), found if matched else None))
    assert_agree("node", export, all_samples, answers)


def _groups_by_production(export: rfc1738.Export, scheme: str) -> dict[str, list[str]]:
    by: dict[str, list[str]] = {}
    for name, production in export.schemes[scheme].groups.items():
        by.setdefault(production, []).append(name)
    return by
