"""The dialect writers (``rfc1738.compile.dialects``) on edited grammars.

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


@pytest.mark.parametrize("dialect", ["python", "re2", "java", "ecmascript"])
def test_every_field_a_hook_reads_is_exported(dialect: str) -> None:
    # A field the class reads with a hook has a group of its own or is cut out
    # of one: none is left out of the export (and so of rfc1738.spark's struct).
    exported = rfc1738.export(dialect)
    grammar = rfc1738.load()
    for scheme, found in exported.schemes.items():
        hooked = grammar.url_class(scheme).READ_BY_HOOK
        productions = set(found.groups.values())
        assert hooked <= productions | set(found.derived), scheme
        for cut in found.derived.values():
            assert cut.source in productions
    gopher, prospero = exported.schemes["gopher"], exported.schemes["prospero"]
    assert sorted(gopher.derived) == ["gopher_plus", "search", "selector"]
    assert {cut.separator for cut in gopher.derived.values()} == {"%09"}
    assert (prospero.derived["fieldspecs"].separator, prospero.derived["fieldspecs"].pair) == (
        ";",
        "=",
    )
    assert "article_number" in exported.schemes["nntp"].groups.values()


def test_hooked_fields_from_the_exported_pattern() -> None:
    gopher = rfc1738.export("python").schemes["gopher"]
    text = "gopher://h/7sel%09q%20x%09+"
    after = re.search(gopher.pattern, text).group("after_gtype")  # type: ignore[union-attr]
    cut = {name: derived.apply(after) for name, derived in gopher.derived.items()}
    url = rfc1738.parse(text)
    assert cut == {"selector": "sel", "search": "q%20x", "gopher_plus": "+"}
    assert cut == {n: getattr(url, f"raw_{n}") for n in ("selector", "search", "gopher_plus")}
    nntp = rfc1738.export("python").schemes["nntp"]
    match = re.search(nntp.pattern, "nntp://h:119/comp.x/4711")
    assert match is not None
    assert (match.group("port"), match.group("article_number")) == ("119", "4711")
    prospero = rfc1738.export("python").schemes["prospero"]
    match = re.search(prospero.pattern, "prospero://h/a;b=c;d=")
    assert match is not None
    assert prospero.derived["fieldspecs"].apply(match.group("after_ppath")) == (
        ("b", "c"),
        ("d", ""),
    )
    assert rfc1738.export("java").as_json()["schemes"]["gopher"]["derived"]["search"] == {  # type: ignore[index]
        "from": "after_gtype",
        "split": "%09",
        "part": 1,
        "parts": 3,
        "rule": "RFC 1738 section 3.4: the text after gtype, between the first and second %09",
    }


def test_a_hooked_field_the_pattern_cannot_give_is_a_grammar_error(tmp_path: Path) -> None:
    # Something after the gopher path: the text after gtype no longer runs to
    # the end of the URL, so no group can hold what section 3.4 splits.
    text = (shipped_grammar_dir() / "gopher.lark").read_text(encoding="utf-8")
    edited = text.replace(
        '[ "%09" gopher_plus_string ] ] ] ] ]', '[ "%09" gopher_plus_string ] ] ] ] ] "!"'
    )
    assert edited != text
    directory = copy_with(tmp_path, "gopher", edited)
    assert rfc1738.load(directory).url_class("gopher").__name__ == "GopherURL"
    with pytest.raises(rfc1738.GrammarError, match="nothing follows gtype to the end"):
        rfc1738.export("re2", directory)


def _groups_and_nesting(pattern: str) -> tuple[int, int]:
    """The capture groups of an ECMAScript pattern, and how deep ``(?=(`` lookaheads nest."""
    groups = deepest = 0
    stack: list[bool] = []
    i, in_class = 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            lookahead = pattern.startswith("(?=(", i)
            if not pattern.startswith("(?", i) or (
                pattern.startswith("(?<", i) and pattern[i + 3] not in "=!"
            ):
                groups += 1
            stack.append(lookahead)
            deepest = max(deepest, sum(stack))
        elif char == ")":
            stack.pop()
        i += 1
    return groups, deepest


def test_ecmascript_patterns_stay_in_v8s_fast_path() -> None:
    # V8 runs a pattern of more than 63 groups through its runtime, which grew
    # faster than the input on long ones; a lookahead inside a lookahead made V8
    # keep capture registers on its stack for every iteration of a loop.
    export = rfc1738.export("ecmascript")
    for scheme, exported in export.schemes.items():
        groups, deepest = _groups_and_nesting(exported.pattern)
        assert groups <= 63, scheme
        assert deepest == 1, scheme
    assert _groups_and_nesting(export.any) == (0, 0)
    assert _groups_and_nesting("^(?<a>x)(?=((?:[(]|\\()*))\\2(?:y)$") == (2, 1)
