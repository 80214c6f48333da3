"""The dialect writers (``rfc1738.parse.dialects``) on edited grammars.

Each dialect runs in its real engine in ``tests/engines``; here, what the
dispatching pattern does with a scheme added to a copy of the grammar, and
the errors for grammars it cannot serve.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir


def copy_with(tmp_path: Path, name: str, text: str) -> Path:
    directory = tmp_path / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    (directory / f"{name}.lark").write_text(text, encoding="utf-8")
    return directory


NEWZ = """%import .common (host, hostname, domainlabel, toplabel, alphadigit, hostnumber, digits)
%import .common (ALPHA, DIGIT)
newzurl: "newz:"i group
group: ALPHA ( ALPHA | DIGIT | "." )*
"""


def test_a_new_scheme_gets_its_branch_and_leaves_the_generic_one(tmp_path: Path) -> None:
    directory = copy_with(tmp_path, "newz", NEWZ)
    exported = rfc1738.export("python", directory)
    anything = re.compile(exported.any)
    grammar = rfc1738.load(directory)
    for text in ("newz:comp.x", "NEWZ:a1", "newz:1a", "newz:/x", "newzz:/x", "new:x", "x:y"):
        assert bool(anything.search(text)) == grammar.is_valid(text, host_checks=False), text
    assert not anything.search("newz:1a")  # its own production rejects it; generic may not take it
    assert anything.search("newzz:/x")  # another scheme: generic


def test_a_production_that_does_not_begin_with_its_scheme_cannot_be_dispatched(
    tmp_path: Path,
) -> None:
    directory = copy_with(tmp_path, "newz", NEWZ.replace('"newz:"i', '"other:"i'))
    with pytest.raises(rfc1738.GrammarError, match="does not begin with 'newz:'"):
        rfc1738.export("re2", directory)


def test_java_group_names_have_no_underscore() -> None:
    generic = rfc1738.export("java").schemes["generic"]
    assert "ipschemepart" in generic.groups
    assert not any("_" in name for name in generic.groups)
    assert "(?<ipschemepart>" in generic.pattern


def test_unknown_dialect() -> None:
    with pytest.raises(ValueError, match="unknown dialect 'perl'"):
        rfc1738.export("perl")
