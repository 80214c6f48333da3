"""rfc1738.bnf.inspection.rules() and rule(): every rule and terminal, as written and as used."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.bnf.inspection import RuleInfo, rule, rules
from tests.grammar.test_meta import PRODUCTIONS, Production, normalised

SHIPPED = shipped_grammar_dir()


@pytest.fixture(scope="module")
def infos() -> list[RuleInfo]:
    return rules()


def by_name(infos: list[RuleInfo]) -> dict[str, RuleInfo]:
    return {info.name: info for info in infos}


# ---- every production once, in the file that defines it ----


def test_one_entry_per_production(infos: list[RuleInfo]) -> None:
    names = [info.name for info in infos]
    assert len(names) == len(set(names)) == len(PRODUCTIONS) == 67


@pytest.mark.parametrize("production", PRODUCTIONS, ids=lambda p: p.name)
def test_production_has_its_rfc_name_and_bnf_lines(
    infos: list[RuleInfo], production: Production
) -> None:
    (info,) = [i for i in infos if i.name.lower() == production.lark_name.lower()]
    assert info.rfc_name == production.name
    assert [normalised(line) for line in info.bnf] == [normalised(x) for x in production.lines]


def test_sorted_by_file_then_line(infos: list[RuleInfo]) -> None:
    keys = [(info.file.name, info.line) for info in infos]
    assert keys == sorted(keys)


def test_line_is_where_the_definition_starts(infos: list[RuleInfo]) -> None:
    for info in infos:
        lines = info.file.read_text(encoding="utf-8").splitlines()
        assert lines[info.line - 1] == info.source.splitlines()[0]
        assert lines[info.line - 1].startswith(info.name)


def test_imported_names_are_one_entry_in_the_defining_file(infos: list[RuleInfo]) -> None:
    found = by_name(infos)
    assert found["hostport"].file == SHIPPED / "common.lark"  # imported by most files
    assert found["search"].file == SHIPPED / "http.lark"  # imported by gopher and wais
    assert found["fpath"].file == SHIPPED / "ftp.lark"  # imported by file
    assert found["group"].file == SHIPPED / "news.lark"  # imported by nntp


# ---- one entry in full ----


def test_hostport(infos: list[RuleInfo]) -> None:
    info = by_name(infos)["hostport"]
    assert info.kind == "rule"
    assert (info.file.name, info.line) == ("common.lark", 15)
    assert info.bnf == ('hostport       = host [ ":" port ]',)
    assert info.comments == ()
    assert info.source == 'hostport: host [ ":" port ]'
    assert info.uses == ("host", "port")
    assert info.used_by == (
        "login",
        "gopherurl",
        "httpurl",
        "nntpurl",
        "prosperourl",
        "waisdatabase",
        "waisindex",
        "waisdoc",
    )
    assert info.rfc_name == "hostport"


def test_comments_other_than_bnf(infos: list[RuleInfo]) -> None:
    info = by_name(infos)["ip_schemepart"]
    assert info.rfc_name == "ip-schemepart"
    assert info.bnf == ('ip-schemepart  = "//" login [ "/" urlpath ]',)
    assert info.comments[0].startswith("// Priority 2:")
    assert info.source.startswith("ip_schemepart.2:")
    scheme = by_name(infos)["scheme"]
    assert any(c.startswith("// DEVIATION: hialpha added") for c in scheme.comments)


def test_continuation_lines_are_kept(infos: list[RuleInfo]) -> None:
    info = by_name(infos)["LOWALPHA"]
    assert info.kind == "terminal"
    assert len(info.bnf) == 4
    assert info.bnf[1].strip().startswith('"i" | "j"')
    assert len(info.source.splitlines()) == 4
    assert info.source.splitlines()[3].strip() == '| "y" | "z"'
    url = by_name(infos)["url"]
    assert len(url.source.splitlines()) == 4
    assert url.uses[-1] == "otherurl"


def test_terminals(infos: list[RuleInfo]) -> None:
    found = by_name(infos)
    assert found["UCHAR"].kind == "terminal"
    assert found["UCHAR"].uses == ("UNRESERVED", "ESCAPE")
    assert found["UCHAR"].rfc_name == "uchar"
    assert "hsegment" in found["UCHAR"].used_by
    assert found["NATIONAL"].used_by == ()
    kinds = {info.kind for info in infos}
    assert kinds == {"rule", "terminal"}


def test_uses_are_in_order_and_once(infos: list[RuleInfo]) -> None:
    found = by_name(infos)
    assert found["hostnumber"].uses == ("digits",)
    assert found["httpurl"].uses == ("hostport", "hpath", "search")
    assert found["gopherurl"].uses == (
        "hostport",
        "gtype",
        "selector",
        "search",
        "gopher_plus_string",
    )
    assert found["domainlabel"].uses == ("alphadigit",)


def test_uses_and_used_by_agree(infos: list[RuleInfo]) -> None:
    found = by_name(infos)
    for info in infos:
        for name in info.uses:
            assert info.name in found[name].used_by, (info.name, name)
        for name in info.used_by:
            assert info.name in found[name].uses, (name, info.name)


def test_str_shows_the_rule_next_to_its_bnf(infos: list[RuleInfo]) -> None:
    text = str(by_name(infos)["httpurl"])
    assert text.splitlines() == [
        "httpurl (rule, http.lark:8)",
        '  // BNF: httpurl        = "http://" hostport [ "/" hpath [ "?" search ]]',
        '  httpurl: "http://"i hostport [ "/" hpath [ "?" search ] ]',
        "  uses: hostport, hpath, search",
        "  used by: url",
    ]


# ---- rule(): by name, by BNF name ----


@pytest.mark.parametrize(
    ("asked", "name"),
    [
        ("hostport", "hostport"),
        ("ip-schemepart", "ip_schemepart"),
        ("gopher+_string", "gopher_plus_string"),
        ("uchar", "UCHAR"),
        ("UCHAR", "UCHAR"),
        ("Hostport", "hostport"),
    ],
)
def test_rule_by_name(asked: str, name: str) -> None:
    assert rule(None, asked).name == name


def test_unknown_rule_is_a_grammar_error_with_close_matches() -> None:
    with pytest.raises(rfc1738.GrammarError) as caught:
        rule(None, "hsegmnt")
    message = str(caught.value)
    assert "'hsegmnt'" in message
    assert "hsegment" in message
    assert isinstance(caught.value, rfc1738.RFC1738Error)


def test_unknown_rule_without_close_matches() -> None:
    with pytest.raises(rfc1738.GrammarError, match=r"no rule or terminal named 'zzzzzz'$"):
        rule(None, "zzzzzz")


# ---- what the functions accept ----


def test_a_grammar_a_path_or_none(tmp_path: Path) -> None:
    copy = tmp_path / "grammar"
    shutil.copytree(SHIPPED, copy)
    shipped = [(i.name, i.file.name, i.line) for i in rules()]
    assert [(i.name, i.file.name, i.line) for i in rules(rfc1738.load())] == shipped
    assert [(i.name, i.file.name, i.line) for i in rules(str(copy))] == shipped
    assert [(i.name, i.file.name, i.line) for i in rules(rfc1738.load(copy))] == shipped
    assert rule(copy, "hostport").file == copy / "common.lark"


def test_a_new_file_adds_its_rules(tmp_path: Path) -> None:
    copy = tmp_path / "grammar"
    shutil.copytree(SHIPPED, copy)
    (copy / "x.lark").write_text(
        "%import .common (hostport, host, hostname, domainlabel, toplabel, alphadigit,"
        " hostnumber, port, digits)\n"
        '// BNF: xurl = "x://" hostport\n'
        'xurl: "x://"i hostport\n',
        encoding="utf-8",
    )
    info = rule(copy, "xurl")
    assert (info.file.name, info.line, info.uses) == ("x.lark", 3, ("hostport",))
    assert "xurl" in rule(copy, "hostport").used_by
    assert len(rules(copy)) == 68


def test_a_file_that_does_not_parse_still_lists_its_rules(tmp_path: Path) -> None:
    copy = tmp_path / "grammar"
    shutil.copytree(SHIPPED, copy)
    http = copy / "http.lark"
    http.write_text(http.read_text().replace("hpath: hsegment", "hpath: hsegment ("), "utf-8")
    info = rule(copy, "hpath")
    assert (info.file.name, info.line, info.uses) == ("http.lark", 10, ())
    assert rule(copy, "httpurl").bnf
