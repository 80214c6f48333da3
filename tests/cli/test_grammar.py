"""``rfc1738 grammar list | show | deps | lint | diagram``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.bnf.inspection import rule, rules
from rfc1738.bnf.lint import lint

from .helpers import edit, edited_grammar, run


def test_list_has_every_rule_and_terminal() -> None:
    result = run("grammar", "list")
    assert result.status == 0
    found = result.out.splitlines()
    infos = rules()
    assert len(found) == len(infos)
    for line, info in zip(found, infos, strict=True):
        name, kind, where = line.split()[:3]
        assert (name, kind, where) == (info.name, info.kind, f"{info.file.name}:{info.line}")
        if info.bnf:
            assert line.endswith(" ".join(" ".join(info.bnf).split()))


def test_list_line() -> None:
    lines = run("grammar", "list").out.splitlines()
    (hostport,) = [line for line in lines if line.startswith("hostport ")]
    assert hostport.split() == [
        "hostport",
        "rule",
        "common.lark:15",
        *["hostport", "=", "host", "[", '":"', "port", "]"],
    ]


@pytest.mark.parametrize("name", ["ip_schemepart", "ip-schemepart"])
def test_show(name: str) -> None:
    result = run("grammar", "show", name)
    assert result.status == 0
    assert result.out == str(rule(None, "ip_schemepart")) + "\n"
    assert result.out.startswith("ip_schemepart (rule, common.lark:")
    for part in (
        '// BNF: ip-schemepart  = "//" login [ "/" urlpath ]',
        'ip_schemepart.2: "//" login [ "/" urlpath ]',
        "uses: login, urlpath",
        "used by: schemepart",
    ):
        assert part in result.out


def test_show_an_unknown_rule_exits_2() -> None:
    result = run("grammar", "show", "hostprot")
    assert (result.status, result.out) == (2, "")
    assert (
        result.err
        == "rfc1738: no rule or terminal named 'hostprot' (did you mean hostport, host?)\n"
    )


def test_deps() -> None:
    result = run("grammar", "deps", "hostport")
    assert result.status == 0
    assert result.out.splitlines()[:12] == [
        "hostport",
        "  host",
        "    hostname",
        "      domainlabel",
        "        alphadigit",
        "          ALPHA",
        "            LOWALPHA",
        "            HIALPHA",
        "          DIGIT",
        "      toplabel",
        "        ALPHA (*)",
        "        alphadigit (*)",
    ]
    assert result.out.endswith("\n  port\n    digits (*)\n\n(*): its uses are shown above\n")


def test_deps_reverse() -> None:
    result = run("grammar", "deps", "--reverse", "login")
    assert result.status == 0
    assert result.out == (
        "login\n"
        "  ip_schemepart\n"
        "    schemepart\n"
        "      genericurl\n"
        "        otherurl\n"
        "          url\n"
        "  ftpurl\n"
        "    url\n"
        "  telneturl\n"
        "    url\n"
    )


def test_lint_of_the_shipped_grammar() -> None:
    result = run("grammar", "lint")
    assert result.status == 0
    assert result.out == "".join(f"{p}\n" for p in lint()) + "0 errors, 0 warnings, 2 info\n"


def test_lint_errors_exit_1(tmp_path: Path) -> None:
    grammar = tmp_path / "grammar"
    shutil.copytree(shipped_grammar_dir(), grammar)
    edit(grammar / "http.lark", "hostport [", "hostprot [")
    result = run("grammar", "lint", "--grammar", grammar)
    assert result.status == 1
    assert f"{grammar / 'http.lark'}:8: error: httpurl uses hostprot, which is defined nowhere" in (
        result.out
    )
    assert result.out.endswith("\n1 error, 0 warnings, 2 info\n")


def test_lint_warnings_only_exit_0(tmp_path: Path) -> None:
    grammar = tmp_path / "grammar"
    shutil.copytree(shipped_grammar_dir(), grammar)
    with (grammar / "common.lark").open("a", encoding="utf-8") as file:
        file.write("spare: DIGIT\n")
    result = run("grammar", "lint", "--grammar", grammar)
    assert result.status == 0
    assert "warning: nothing uses spare" in result.out
    assert result.out.endswith("\n0 errors, 2 warnings, 2 info\n")


def test_lint_of_a_directory_too_broken_to_load(tmp_path: Path) -> None:
    result = run("grammar", "lint", "--grammar", tmp_path)
    assert result.status == 1
    assert "generic.lark" in result.out


def test_edited_grammar_list_show_deps(tmp_path: Path) -> None:
    grammar = edited_grammar(tmp_path)
    shown = run("grammar", "show", "--grammar", grammar, "httpurl")
    assert shown.status == 0
    assert 'httpurl: "http://"i login' in shown.out
    assert "uses: login, hpath, search" in shown.out
    deps = run("grammar", "deps", "--grammar", grammar, "httpurl")
    assert "\n  login\n    user\n" in deps.out
    listed = run("grammar", "list", "--grammar", grammar)
    assert listed.out == run("grammar", "list").out.replace(
        str(shipped_grammar_dir()), str(grammar)
    )


def test_diagram_of_a_rule(tmp_path: Path) -> None:
    pytest.importorskip("railroad")
    out = tmp_path / "hostport.svg"
    result = run("grammar", "diagram", "hostport", "-o", out)
    assert result.status == 0
    assert result.out == f"wrote {out}\n"
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<svg")
    assert 'xlink:href="#rule-host"' in svg
    assert 'xlink:href="#rule-port"' in svg


def test_diagram_page_of_the_grammar(tmp_path: Path) -> None:
    pytest.importorskip("railroad")
    out = tmp_path / "grammar.html"
    result = run("grammar", "diagram", "--output", out)
    assert result.status == 0
    page = out.read_text(encoding="utf-8")
    assert page.lstrip().lower().startswith("<!doctype html")
    for info in rules():
        assert f'id="rule-{info.name}"' in page or f'-{info.name}"' in page


def test_diagram_to_stdout_and_of_an_edited_grammar(tmp_path: Path) -> None:
    pytest.importorskip("railroad")
    grammar = edited_grammar(tmp_path)
    shipped = run("grammar", "diagram", "httpurl", "-o", "-")
    edited = run("grammar", "diagram", "--grammar", grammar, "httpurl", "-o", "-")
    assert shipped.status == edited.status == 0
    assert shipped.out.startswith("<svg")
    assert "login" in edited.out and "login" not in shipped.out


def test_diagram_needs_output_and_a_known_rule(tmp_path: Path) -> None:
    assert run("grammar", "diagram", "hostport").status == 2
    result = run("grammar", "diagram", "nosuchrule", "-o", tmp_path / "x.svg")
    assert result.status == 2
    assert result.err.startswith("rfc1738: ")
    assert not (tmp_path / "x.svg").exists()


def test_usage() -> None:
    assert run("grammar").status == 2
    assert run("grammar", "show").status == 2
    assert run("grammar", "frobnicate").status == 2
