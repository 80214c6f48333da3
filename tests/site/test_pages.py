"""The built site's pages, without a browser: the grammar reference follows grammar/.

The grammar pages are generated at build time by ``docs/hooks/grammar_reference.py``
through the public API (``rfc1738.load(dir).rules()`` and ``.diagram()``); an
edited copy of the grammar gets pages of its own rules. The API page is built
from the docstrings by mkdocstrings, with ``docs/hooks/rest_docstrings.py``
turning their reST into Markdown.
"""

from __future__ import annotations

import doctest
import html
import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

import rfc1738
from tests.doc_examples import DOCS, run_examples
from tests.site.sitebuild import ROOT, missing_docs_tools

GRAMMAR = ROOT / "grammar"
HOOKS = DOCS / "hooks"


def hook(name: str) -> ModuleType:
    """A module of ``docs/hooks/`` (skips without the ``docs`` extra)."""
    missing = missing_docs_tools()
    if missing:
        pytest.skip(f"docs tools not installed ({', '.join(missing)}): pip install '.[docs]'")
    spec = importlib.util.spec_from_file_location(f"site_hook_{name}", HOOKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_rule_has_its_section(built_site: Path) -> None:
    rules = rfc1738.load(GRAMMAR).rules()
    for lark in sorted(GRAMMAR.glob("*.lark")):
        page = (built_site / "reference/grammar" / lark.stem / "index.html").read_text("utf-8")
        own = [info for info in rules if info.file.name == lark.name]
        assert page.count('<svg class="railroad-diagram"') == len(own), lark.name
        for info in own:
            assert f'id="rule-{info.name}"' in page, info.name
            for line in info.bnf:
                assert html.escape(line, quote=False) in page, info.name
    generic = (built_site / "reference/grammar/generic/index.html").read_text("utf-8")
    assert generic.count("Deviation from RFC 1738") == 1  # scheme: hialpha added
    overview = (built_site / "reference/grammar/index.html").read_text("utf-8")
    assert all(f'href="{lark.stem}/"' in overview for lark in GRAMMAR.glob("*.lark"))


def test_api_page_documents_the_public_names(built_site: Path) -> None:
    page = (built_site / "reference/api/index.html").read_text("utf-8")
    for name in ("parse", "is_valid", "load", "Grammar", "HttpURL", "URLSyntaxError"):
        assert f'id="rfc1738.{name}"' in page, name
    assert ":class:" not in page and "``" not in page  # reST turned into Markdown
    # rfc1738.parse is the function, documented as such
    function = page[page.index('id="rfc1738.parse"') : page.index('id="rfc1738.is_valid"')]
    assert "host_checks" in function
    # what Grammar inherits, and the fields a URL class shares or declares (#: comments)
    for member in ("Grammar.rules", "Grammar.diagram", "HttpURL.port", "HttpURL.host"):
        assert f'id="rfc1738.{member}"' in page, member


def test_an_edited_grammar_changes_the_pages(tmp_path: Path) -> None:
    pages_of = hook("grammar_reference").grammar_pages
    edited = tmp_path / "grammar"
    shutil.copytree(GRAMMAR, edited)
    with (edited / "http.lark").open("a", encoding="utf-8") as http:
        http.write(
            '// BNF: hlocation      = hostport "/" hpath\n'
            "// DEVIATION: not in RFC 1738; a test adds it.\n"
            'hlocation: hostport "/" hpath\n'
        )
    before, after = pages_of(GRAMMAR), pages_of(edited)
    page = after["reference/grammar/http.md"]
    assert "rule-hlocation" not in before["reference/grammar/http.md"]
    assert "## `hlocation` {#rule-hlocation }" in page
    assert 'hlocation      = hostport "/" hpath' in page
    assert "not in RFC 1738; a test adds it." in page
    # its diagram links to hostport in common.lark's page and to hpath on its own page
    assert 'xlink:href="../common/#rule-hostport"' in page
    assert 'xlink:href="#rule-hpath"' in page
    # and the rules it uses say so, across files
    assert "[`hlocation`](http.md#rule-hlocation)" in after["reference/grammar/common.md"]
    assert "[`hlocation`](http.md#rule-hlocation)" in after["reference/grammar/index.md"]


def test_rest_docstrings_become_markdown() -> None:
    to_markdown = hook("rest_docstrings").to_markdown
    text = (
        "The :class:`~rfc1738.URL` of ``text``::\n\n    a\n      b\n\nMore.\n\n>>> 1 + 1\n2\n\nEnd."
    )
    assert to_markdown(text).splitlines() == [
        "The `URL` of `text`:",
        "",
        "```text",
        "a",
        "  b",
        "```",
        "",
        "More.",
        "",
        "```pycon",
        ">>> 1 + 1",
        "2",
        "```",
        "",
        "End.",
    ]


def test_table_cells_show_a_pipe_without_its_backslash(built_site: Path) -> None:
    # docs/ writes `a \| b` in table cells for GitHub; the site shows `a | b`
    assert "\\|" in (DOCS / "deviations.md").read_text("utf-8")
    page = (built_site / "deviations/index.html").read_text("utf-8")
    assert "\\|" not in page and "<code>1*[ lowalpha | digit" in page


def test_home_page_examples() -> None:
    results = run_examples(DOCS / "index.md", flags=doctest.NORMALIZE_WHITESPACE)
    assert results.attempted > 0
    assert results.failed == 0
