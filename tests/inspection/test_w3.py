"""The 1994 W3 URL grammar (grammars/w3-1994): transcribed whole, recursive, served by Earley.

``tests/data/w3-1994-bnf.txt`` holds the W3 productions verbatim; every one
is defined exactly once in the directory, under its own ``// BNF:`` lines,
with its own name. Its recursive rules keep the fast parser off every scheme
(lint says so, the compiler refuses), and the reference parser reads URLs with
it through the same ``rfc1738.load``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lark import Token, Tree

import rfc1738
from rfc1738.bnf.files import scheme_files, w3_1994_grammar_dir
from rfc1738.bnf.inspection import RuleInfo, rules
from rfc1738.bnf.lint import lint
from rfc1738.compile.pipeline import CompiledFile, NotRegularError
from tests.grammar.test_meta import normalised

ROOT = Path(__file__).resolve().parents[2]
CHECKOUT = ROOT / "grammars" / "w3-1994"
SPEC = ROOT / "tests" / "data" / "w3-1994-bnf.txt"
W3 = w3_1994_grammar_dir()

SCHEMES = ["ftp", "gopher", "http", "news", "prospero", "telnet", "wais"]


def w3_productions() -> dict[str, tuple[str, ...]]:
    """Name → lines of each production of the W3 text (name in column 2, continuations deeper)."""
    found: dict[str, list[str]] = {}
    current: list[str] = []
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("  ") and not line.startswith("   "):
            current = found.setdefault(line.split()[0], [])
        current.append(line)
    return {name: tuple(lines) for name, lines in found.items()}


PRODUCTIONS = w3_productions()


@pytest.fixture(scope="module")
def infos() -> list[RuleInfo]:
    return rules(W3)


@pytest.fixture(scope="module")
def grammar() -> rfc1738.Grammar:
    return rfc1738.load(W3)


# ---- the directory ----


def test_shipped_with_the_package() -> None:
    assert W3.is_dir()
    shipped = {p.name: p.read_text(encoding="utf-8") for p in W3.glob("*.lark")}
    checkout = {p.name: p.read_text(encoding="utf-8") for p in CHECKOUT.glob("*.lark")}
    assert shipped == checkout
    assert sorted(scheme_files(W3)) == sorted([*SCHEMES, "generic"])


def test_every_file_opens_with_a_header() -> None:
    for path in CHECKOUT.glob("*.lark"):
        head = path.read_text(encoding="utf-8").splitlines()[:3]
        assert head[0].startswith("// The 1994 W3 URL grammar"), path.name
        assert any("Start rule" in line for line in head), path.name


def test_the_w3_text_has_its_productions() -> None:
    assert len(PRODUCTIONS) == 56
    assert list(PRODUCTIONS)[:3] == ["fragmentaddress", "uri", "url"]
    assert PRODUCTIONS["void"] == ("  void",)


# ---- every production once, under its W3 lines, with its W3 name ----


@pytest.mark.parametrize("name", list(PRODUCTIONS))
def test_production_is_defined_once_under_its_lines(infos: list[RuleInfo], name: str) -> None:
    found = [info for info in infos if info.rfc_name == name]
    assert len(found) == 1, f"{name}: {[(i.file.name, i.line) for i in found]}"
    (info,) = found
    assert [normalised(line) for line in info.bnf] == [normalised(x) for x in PRODUCTIONS[name]]
    # Not renamed: rules keep the W3 name, character classes are the name in capitals.
    assert info.name == (name.upper() if info.kind == "terminal" else name)


def test_only_the_loader_s_start_rules_are_added(infos: list[RuleInfo]) -> None:
    added = {info.name: info for info in infos if not info.bnf}
    assert set(added) == {f"{scheme}url" for scheme in SCHEMES} | {"genericurl"}
    for info in added.values():
        assert any(c.startswith("// DEVIATION: not in the W3 text") for c in info.comments)
    for scheme in SCHEMES:
        assert added[f"{scheme}url"].uses == (f"{scheme}address", "fragmentid")
    assert added["genericurl"].uses == ("fragmentaddress",)


def test_deviations_are_marked(infos: list[RuleInfo]) -> None:
    marked = sorted(
        info.name for info in infos if any(c.startswith("// DEVIATION:") for c in info.comments)
    )
    latex_escapes = ["ESCAPE", "SAFE", "prosperolink"]  # \% and \_ read as % and _
    assert marked == sorted([*latex_escapes, "genericurl", *(f"{s}url" for s in SCHEMES)])


# ---- lint: recursion, and what the W3 text itself leaves unused ----


def test_lint(infos: list[RuleInfo]) -> None:
    problems = lint(W3)
    assert not [p for p in problems if p.severity == "error"]
    by_code: dict[str, set[str | None]] = {}
    for problem in problems:
        by_code.setdefault(problem.code, set()).add(problem.rule)
    recursive = {"hostname", "path", "search", "xalphas", "xpalphas", "digits", "alphanums"}
    assert by_code == {
        "recursion": recursive | {"group", "attributes"},
        "unused-in-rfc": {"NATIONAL", "PUNCTUATION", "afsaddress"},
        "missing-bnf": {f"{scheme}url" for scheme in SCHEMES} | {"genericurl"},
    }
    assert {p.severity for p in problems if p.code == "missing-bnf"} == {"info"}


def test_lint_names_the_cycle_and_the_schemes_it_keeps_off_the_fast_path() -> None:
    (problem,) = [p for p in lint(W3) if p.code == "recursion" and p.rule == "hostname"]
    assert problem.file == W3 / "common.lark"
    assert problem.severity == "warning"
    assert "(hostname -> hostname)" in problem.message
    every = ", ".join(sorted([*SCHEMES, "generic"]))
    assert f"the fast parser cannot compile {every}; the reference parser still serves them" in (
        problem.message
    )


@pytest.mark.parametrize("scheme", [*SCHEMES, "generic"])
def test_the_fast_parser_refuses_every_scheme(scheme: str) -> None:
    entry = scheme_files(W3)[scheme]
    with pytest.raises(NotRegularError, match="refers back to itself"):
        CompiledFile(entry.path).compile(entry.start)


# ---- the reference parser reads W3 URLs ----


def nodes(tree: Tree[Token], text: str, name: str) -> list[str]:
    """The text each ``name`` node of ``tree`` matched, outermost first."""
    return [
        "" if node.meta.empty else text[node.meta.start_pos : node.meta.end_pos]
        for node in tree.iter_subtrees_topdown()
        if node.data == name
    ]


ACCEPT = [
    # (url, start rule, production, the text its outermost node matched)
    (
        "http://info.cern.ch/hypertext/WWW/TheProject.html",
        "httpurl",
        "path",
        "hypertext/WWW/TheProject.html",
    ),
    ("http://info.cern.ch/hypertext/WWW/Addressing/URL#z5", "httpurl", "fragmentid", "z5"),
    ("http://www.w3.org:80/search?url+grammar", "httpurl", "search", "url+grammar"),
    ("http://host.example/a b", "httpurl", "path", "a b"),  # "space" is an extra character
    ("ftp://joe:secret@ftp.example.com/pub/file", "ftpurl", "password", "secret"),
    ("news:comp.infosystems.www", "newsurl", "group", "comp.infosystems.www"),
    ("news:1234@host.example", "newsurl", "article", "1234@host.example"),
    ("news:*", "newsurl", "groupart", "*"),
    (
        "wais://quake.think.com/directory-of-servers?fish",
        "waisurl",
        "waisindex",
        "wais://quake.think.com/directory-of-servers?fish",
    ),
    ("wais://quake.think.com/db/TEXT/123/a/b", "waisurl", "wtype", "TEXT"),
    ("prospero://host.example:1525/pub/object%001ab", "prosperourl", "version", "1"),
    ("prospero://host.example:1525/pub/object%001ab", "prosperourl", "attributes", "ab"),
    ("prospero://host.example/pub/object", "prosperourl", "hsoname", "pub/object"),
    ("telnet://guest@host.example", "telneturl", "user", "guest"),
    ("gopher://gopher.example/1menu?query", "gopherurl", "gtype", "1"),
    ("gopher://gopher.example/1menu?query", "gopherurl", "selector", "menu"),
    ("x-anything:some/path?key", "genericurl", "generic", "x-anything:some/path?key"),
    ("x-anything:some/path#part", "genericurl", "fragmentid", "part"),
]


@pytest.mark.parametrize(
    ("url", "start", "production", "matched"), ACCEPT, ids=[a[0] for a in ACCEPT]
)
def test_parse_tree(
    grammar: rfc1738.Grammar, url: str, start: str, production: str, matched: str
) -> None:
    tree = grammar.parse_tree(url)
    assert tree.data == start
    assert nodes(tree, url, production)[0] == matched
    assert grammar.is_valid(url)


REJECT = [
    # (url, why)
    ("http://host.example/a<b", "punctuation appears in no production"),
    ("http://host.example/{x}", "national characters appear in no production"),
    (
        "afs://cell.example/path",
        "afsaddress is not a url production; generic path cannot begin with /",
    ),
    ("http:foo", "the generic production would take it, but http: URLs must match httpaddress"),
    ("HTTP://host.example/", "single letters stand for themselves: h t t p is lower case"),
    ("ftp://host.example", "ftpaddress needs / path after login"),
    ("telnet://host.example/", "telnetaddress ends with the login: no / after it"),
]


@pytest.mark.parametrize(("url", "why"), REJECT, ids=[r[0] for r in REJECT])
def test_is_valid_rejects(grammar: rfc1738.Grammar, url: str, why: str) -> None:
    assert not grammar.is_valid(url), why


@pytest.mark.parametrize(("url", "why"), REJECT[:2], ids=[r[0] for r in REJECT[:2]])
def test_parse_tree_rejects_with_a_syntax_error(
    grammar: rfc1738.Grammar, url: str, why: str
) -> None:
    with pytest.raises(rfc1738.URLSyntaxError):
        grammar.parse_tree(url)


def test_the_same_urls_in_rfc_1738() -> None:
    """Where the grammars differ: W3 allows spaces and fragments, RFC 1738 schemes ignore case."""
    assert not rfc1738.is_valid("http://host.example/a b")
    assert not rfc1738.is_valid("http://info.cern.ch/hypertext/WWW/Addressing/URL#z5")
    assert rfc1738.is_valid("HTTP://host.example/")
