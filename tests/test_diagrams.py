"""Railroad diagrams: the page for the shipped grammar, single SVGs, edited grammars."""

from __future__ import annotations

import doctest
import re
import shutil
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import rfc1738
from rfc1738.bnf.diagrams import (
    DiagramsUnavailableError,
    grammar_html,
    rule_diagram,
    rule_svg,
    write_diagrams,
)
from rfc1738.bnf.files import shipped_grammar_dir
from tests.doc_examples import DOCS, run_examples

railroad = pytest.importorskip("railroad")

SVG = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"

# A definition as the grammar files write it: a name in column 0, an optional
# priority, a colon. Used to list what the page must show, independently of
# how rfc1738.bnf.diagrams reads the files.
DEFINITION = re.compile(r"^[?!]?(\w+)(?:\.\d+)?\s*:")


def written_definitions(path: Path) -> dict[str, list[str]]:
    """Each name a file defines -> the ``// BNF:`` lines directly above it."""
    found: dict[str, list[str]] = {}
    comments: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = DEFINITION.match(line)
        if match:
            found[match.group(1)] = [
                c.removeprefix("// BNF:").strip() for c in comments if c.startswith("// BNF:")
            ]
        comments = [*comments, line.strip()] if line.lstrip().startswith("//") else []
    return found


@dataclass
class Section:
    id: str
    classes: list[str]
    svgs: int = 0
    bnf: str = ""
    heading: str = ""


@dataclass
class Page(HTMLParser):
    """The structure of a page: sections, ids, links, and anything fetched from outside."""

    ids: set[str] = field(default_factory=set)
    links: list[str] = field(default_factory=list)
    fetched: list[str] = field(default_factory=list)
    sections: dict[str, Section] = field(default_factory=dict)
    styles: list[str] = field(default_factory=list)
    _open: list[Section | None] = field(default_factory=list)
    _in: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if "id" in values:
            assert values["id"] not in self.ids, f"duplicate id {values['id']}"
            self.ids.add(values["id"])
        for name in ("href", "xlink:href"):
            if name in values:
                self.links.append(values[name])
        for name in ("src", "srcset", "data", "poster"):
            if name in values:
                self.fetched.append(f"{tag} {name}={values[name]}")
        if tag == "link" or (tag == "script" and "src" in values):
            self.fetched.append(tag)
        if tag == "section":
            section = None
            if "rule" in values.get("class", "").split():
                section = Section(values["id"], values["class"].split())
                self.sections[section.id] = section
            self._open.append(section)
        if tag == "svg" and self.current is not None:
            self.current.svgs += 1
        if tag in ("pre", "h3", "style"):
            self._in.append(tag if tag != "pre" or "bnf" in values.get("class", "") else "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "section":
            self._open.pop()
        if tag in ("pre", "h3", "style"):
            self._in.pop()

    def handle_data(self, data: str) -> None:
        where = self._in[-1] if self._in else ""
        if where == "style":
            self.styles.append(data)
        elif where and self.current is not None:
            if where == "pre":
                self.current.bnf += data
            else:
                self.current.heading += data

    @property
    def current(self) -> Section | None:
        sections = [s for s in self._open if s is not None]
        return sections[-1] if sections else None


def parsed(page: str) -> Page:
    result = Page()
    result.feed(page)
    result.close()
    return result


@pytest.fixture(scope="module")
def shipped() -> rfc1738.Grammar:
    return rfc1738.load()


@pytest.fixture(scope="module")
def page(shipped: rfc1738.Grammar) -> str:
    return grammar_html(shipped)


@pytest.fixture
def grammar_copy(tmp_path: Path) -> Path:
    directory = tmp_path / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    return directory


def items(item: Any) -> Iterator[Any]:
    """A railroad item and everything inside it."""
    yield item
    for child in getattr(item, "items", ()):
        yield from items(child)
    for name in ("item", "rep"):
        if hasattr(item, name):
            yield from items(getattr(item, name))


def texts(item: Any, kind: str) -> list[str]:
    cls = getattr(railroad, kind)
    return [i.text for i in items(item) if isinstance(i, cls)]


# ---- the page of the shipped grammar ----


def test_the_page_has_a_section_per_rule_with_its_diagram_and_bnf(page: str) -> None:
    structure = parsed(page)
    files = sorted(shipped_grammar_dir().glob("*.lark"))
    assert len(files) == 12
    count = 0
    for path in files:
        for name, bnf in written_definitions(path).items():
            count += 1
            section = structure.sections.get(f"rule-{name}")
            assert section is not None, f"{path.name}: no section for {name}"
            assert section.svgs == 1, name
            assert name in section.heading
            assert bnf, f"{path.name}: {name} has no BNF line"
            shown = " ".join(section.bnf.split())
            for line in bnf:
                assert " ".join(line.split()) in shown, (name, line)
    # The 67 productions of section 5, and nothing else.
    assert count == len(structure.sections) == 67
    for path in files:
        assert f"file-{path.stem}" in structure.ids


def test_every_link_on_the_page_has_a_target(page: str) -> None:
    structure = parsed(page)
    assert len(structure.links) > 300
    for link in structure.links:
        assert link.startswith("#"), link
        assert link[1:] in structure.ids, link


def test_every_rule_reference_in_a_diagram_links_to_its_section(page: str) -> None:
    for svg in re.findall(r"<svg.*?</svg>", page, flags=re.S):
        boxes = re.findall(r'<g class="non-terminal[^"]*">.*?</g>', svg, flags=re.S)
        for box in boxes:
            assert 'xlink:href="#rule-' in box, box


def test_the_page_fetches_nothing(page: str) -> None:
    structure = parsed(page)
    assert structure.fetched == []
    css = "".join(structure.styles)
    assert "svg.railroad-diagram" in css
    assert "url(" not in css and "@import" not in css
    for link in structure.links:
        assert "://" not in link


def test_files_come_generic_then_schemes_then_common(page: str) -> None:
    order = re.findall(r'<section class="grammar-file" id="file-(\w+)">', page)
    assert order[0] == "generic" and order[-1] == "common"
    # The schemes as the url rule lists them.
    assert order[1:-1] == [
        "http", "ftp", "news", "nntp", "telnet", "gopher", "wais", "mailto", "file", "prospero",
    ]  # fmt: skip


def test_the_table_of_contents_links_every_rule(page: str) -> None:
    contents = page[page.index('<nav id="contents">') : page.index("</nav>")]
    for section in parsed(page).sections:
        assert f'href="#{section}"' in contents


def test_uses_and_used_by(page: str) -> None:
    section = page[page.index('id="rule-hostport"') :]
    section = section[: section.index("</section>")]
    meta = section[section.index('<p class="meta">') :]
    uses, used_by = meta.split("Used by:")
    assert re.findall(r'href="#rule-(\w+)"', uses) == ["host", "port"]
    users = re.findall(r'href="#rule-(\w+)"', used_by)
    assert {"login", "httpurl", "gopherurl", "nntpurl"} <= set(users)


# ---- single diagrams ----


@pytest.mark.parametrize("name", ["hostport", "XCHAR", "gopherurl", "LOWALPHA", "PUNCTUATION"])
def test_a_rule_svg_is_xml(shipped: rfc1738.Grammar, name: str) -> None:
    root = ET.fromstring(rule_svg(shipped, name))
    assert root.tag == f"{SVG}svg"
    assert float(root.attrib["width"]) > 0 and float(root.attrib["height"]) > 0
    assert root.find(f"{SVG}style") is not None


def test_references_link_to_their_sections(shipped: rfc1738.Grammar) -> None:
    root = ET.fromstring(rule_svg(shipped, "hostport"))
    links = {a.attrib[XLINK_HREF]: "".join(a.itertext()) for a in root.iter(f"{SVG}a")}
    assert links == {"#rule-host": "host", "#rule-port": "port"}
    # Each linked name is written once (railroad-diagrams 3.0.1 writes it twice).
    assert [t.text for t in root.iter(f"{SVG}text")].count("host") == 1
    # The tooltip of a reference is its target's BNF line.
    titles = [t.text or "" for t in root.iter(f"{SVG}title")]
    assert any(t.startswith("host ") and "hostname | hostnumber" in t for t in titles)


def test_optional_parts_are_a_choice_with_a_skip(shipped: rfc1738.Grammar) -> None:
    # hostport: host [ ":" port ]
    diagram = rule_diagram(shipped, "hostport")
    (sequence,) = [i for i in diagram.items if isinstance(i, railroad.Sequence)]
    host, optional = sequence.items
    assert isinstance(host, railroad.NonTerminal) and host.text == "host"
    assert isinstance(optional, railroad.Choice)
    skip, taken = optional.items
    assert isinstance(skip, railroad.Skip)
    assert texts(taken, "Terminal") == ['":"'] and texts(taken, "NonTerminal") == ["port"]


def test_zero_or_more_of_a_choice(shipped: rfc1738.Grammar) -> None:
    # user: ( UCHAR | ";" | "?" | "&" | "=" )*
    diagram = rule_diagram(shipped, "user")
    loops = [i for i in items(diagram) if isinstance(i, railroad.OneOrMore)]
    assert len(loops) == 1
    outer = next(i for i in items(diagram) if isinstance(i, railroad.Choice))
    assert isinstance(outer.items[0], railroad.Skip)  # zero times
    choice = loops[0].item
    assert isinstance(choice, railroad.Choice)
    assert [getattr(i, "text", None) for i in choice.items] == [
        "UCHAR", '";"', '"?"', '"&"', '"="',
    ]  # fmt: skip


def test_alternatives_are_a_choice(shipped: rfc1738.Grammar) -> None:
    diagram = rule_diagram(shipped, "url")
    choices = [i for i in items(diagram) if isinstance(i, railroad.Choice)]
    assert len(choices) == 1
    assert [i.text for i in choices[0].items] == [
        "httpurl", "ftpurl", "newsurl", "nntpurl", "telneturl", "gopherurl",
        "waisurl", "mailtourl", "fileurl", "prosperourl", "otherurl",
    ]  # fmt: skip


def test_one_or_more(shipped: rfc1738.Grammar) -> None:
    # digits: DIGIT+ (no skip around the loop)
    diagram = rule_diagram(shipped, "digits")
    assert not any(isinstance(i, railroad.Choice) for i in items(diagram))
    (loop,) = [i for i in items(diagram) if isinstance(i, railroad.OneOrMore)]
    assert loop.item.text == "DIGIT"


def test_a_separated_list_is_one_loop(shipped: rfc1738.Grammar) -> None:
    # hpath: hsegment ( "/" hsegment )*  -- hsegment, with "/" on the way back
    diagram = rule_diagram(shipped, "hpath")
    (loop,) = [i for i in items(diagram) if isinstance(i, railroad.OneOrMore)]
    assert loop.item.text == "hsegment" and loop.rep.text == '"/"'
    assert texts(diagram, "NonTerminal") == ["hsegment"]


def test_literals_are_quoted_as_the_rfc_quotes_them(shipped: rfc1738.Grammar) -> None:
    assert texts(rule_diagram(shipped, "httpurl"), "Terminal")[0] == '"http://" (any case)'
    # Only scheme literals match in any case.
    assert '";type="' in texts(rule_diagram(shipped, "ftpurl"), "Terminal")
    assert '<">' in texts(rule_diagram(shipped, "PUNCTUATION"), "Terminal")
    assert '"\\"' in texts(rule_diagram(shipped, "NATIONAL"), "Terminal")


def test_character_classes_keep_their_names(shipped: rfc1738.Grammar) -> None:
    # Lark's loader inlines UNRESERVED etc. into XCHAR; the diagram names them.
    assert texts(rule_diagram(shipped, "XCHAR"), "NonTerminal") == [
        "UNRESERVED", "RESERVED", "ESCAPE",
    ]  # fmt: skip
    assert texts(rule_diagram(shipped, "ESCAPE"), "NonTerminal") == ["HEX", "HEX"]
    svg = rule_svg(shipped, "UCHAR")
    assert 'class="non-terminal class-ref"' in svg


def test_long_character_lists_are_drawn_in_rows(shipped: rfc1738.Grammar) -> None:
    diagram = rule_diagram(shipped, "LOWALPHA")
    assert texts(diagram, "Terminal") == [f'"{chr(c)}"' for c in range(ord("a"), ord("z") + 1)]
    (rows,) = [i for i in diagram.items if isinstance(i, railroad.Choice)]
    # As the file writes them: a-h, i-p, q-x, y-z.
    assert [len(texts(row, "Terminal")) for row in rows.items] == [8, 8, 8, 2]
    hex_rows = next(i for i in rule_diagram(shipped, "HEX").items if isinstance(i, railroad.Choice))
    assert [texts(row, "NonTerminal") + texts(row, "Terminal") for row in hex_rows.items] == [
        ["DIGIT", '"A"', '"B"', '"C"', '"D"', '"E"', '"F"'],
        ['"a"', '"b"', '"c"', '"d"', '"e"', '"f"'],
    ]


@pytest.mark.parametrize(
    ("spelled", "name"),
    [
        ("ip-schemepart", "ip_schemepart"),
        ("gopher+_string", "gopher_plus_string"),
        ("xchar", "XCHAR"),
        ("common:login", "login"),
    ],
)
def test_rules_can_be_named_as_the_bnf_spells_them(
    shipped: rfc1738.Grammar, spelled: str, name: str
) -> None:
    assert rule_svg(shipped, spelled) == rule_svg(shipped, name)


def test_an_unknown_rule_is_an_error(shipped: rfc1738.Grammar) -> None:
    with pytest.raises(rfc1738.GrammarError, match="no rule or terminal named nosuch"):
        rule_svg(shipped, "nosuch")
    with pytest.raises(rfc1738.GrammarError, match=r"http\.lark defines no rule login"):
        rule_svg(shipped, "http:login")


def test_a_custom_link_pattern(shipped: rfc1738.Grammar) -> None:
    svg = rule_svg(shipped, "hostport", href="rules/{name}.svg")
    assert 'xlink:href="rules/host.svg"' in svg


# ---- files ----


def test_write_diagrams(shipped: rfc1738.Grammar, tmp_path: Path) -> None:
    written = write_diagrams(shipped, tmp_path / "out", rules=["hostport", "xchar"])
    assert [p.name for p in written] == ["hostport.svg", "XCHAR.svg", "index.html"]
    svg = ET.parse(written[0]).getroot()
    assert {a.attrib[XLINK_HREF] for a in svg.iter(f"{SVG}a")} == {
        "index.html#rule-host",
        "index.html#rule-port",
    }
    assert len(parsed(written[-1].read_text(encoding="utf-8")).sections) == 67


def test_write_diagrams_writes_every_rule_by_default(
    shipped: rfc1738.Grammar, tmp_path: Path
) -> None:
    written = write_diagrams(shipped, tmp_path)
    assert len(written) == 68
    for path in written[:-1]:
        ET.parse(path)


# ---- edited grammars ----

AFS = """\
// AFS, a scheme RFC 1738 section 4 names. Start rule: afsurl.
%import .common (hostport, host, hostname, domainlabel, toplabel, alphadigit)
%import .common (hostnumber, port, digits, UCHAR)

// BNF: afsurl = "afs://" hostport [ "/" search ]   (not in RFC 1738)
afsurl: "afs://"i hostport [ "/" search ]
// BNF: search = *uchar   (not in RFC 1738; http.lark has one too)
search: UCHAR*
"""


def test_the_page_of_an_edited_grammar_shows_its_new_rules(grammar_copy: Path) -> None:
    with (grammar_copy / "http.lark").open("a", encoding="utf-8") as file:
        file.write('\n// BNF: hfragment = *[ uchar | "/" ]   (not in RFC 1738)\n')
        file.write('hfragment: ( UCHAR | "/" )*\n')
    (grammar_copy / "afs.lark").write_text(AFS, encoding="utf-8")
    page = grammar_html(rfc1738.load(grammar_copy), title="Edited grammar")
    structure = parsed(page)
    assert "<title>Edited grammar</title>" in page
    assert "rule-hfragment" in structure.sections
    assert "hfragment = *[ uchar" in structure.sections["rule-hfragment"].bnf
    assert "rule-afsurl" in structure.sections
    # Not listed by the url rule: after the schemes it lists, before common.
    order = re.findall(r'<section class="grammar-file" id="file-(\w+)">', page)
    assert order[-2:] == ["afs", "common"]
    # Two files define search: each gets its own id, and each reference links
    # to the one its file means (gopher.lark imports http's).
    assert {"rule-http-search", "rule-afs-search"} <= set(structure.sections)
    assert "rule-search" not in structure.ids
    for link in structure.links:
        assert link[1:] in structure.ids, link
    gopher = rule_svg(rfc1738.load(grammar_copy), "gopherurl")
    assert 'xlink:href="#rule-http-search"' in gopher
    afs = rule_svg(rfc1738.load(grammar_copy), "afsurl")
    assert 'xlink:href="#rule-afs-search"' in afs
    with pytest.raises(rfc1738.GrammarError, match="http:search, afs:search"):
        rule_svg(rfc1738.load(grammar_copy), "search")


def test_a_recursive_rule_is_drawn(grammar_copy: Path) -> None:
    (grammar_copy / "nest.lark").write_text(
        "// A scheme whose production refers back to itself. Start rule: nesturl.\n"
        '// BNF: nesturl = "nest:" item   (not in RFC 1738)\n'
        'nesturl: "nest:" item\n'
        '// BNF: item = "(" item ")" | "x"   (not in RFC 1738)\n'
        'item: "(" item ")" | "x"\n',
        encoding="utf-8",
    )
    grammar = rfc1738.load(grammar_copy)
    assert 'xlink:href="#rule-item"' in rule_svg(grammar, "item")
    assert "rule-item" in parsed(grammar_html(grammar)).sections


# ---- without railroad-diagrams ----


def test_without_railroad_diagrams_the_error_says_what_to_install(
    shipped: rfc1738.Grammar, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "railroad", None)
    with pytest.raises(DiagramsUnavailableError, match=r"pip install 'rfc1738\[diagrams\]'") as e:
        grammar_html(shipped)
    assert isinstance(e.value, rfc1738.RFC1738Error)
    assert isinstance(e.value, ImportError)


# ---- docs/diagrams.md ----


def test_the_examples_in_the_docs_run() -> None:
    flags = doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL | doctest.NORMALIZE_WHITESPACE
    results = run_examples(DOCS / "diagrams.md", flags=flags)
    assert results.attempted >= 10
    assert results.failed == 0


def test_the_example_diagram_in_the_docs_is_current(shipped: rfc1738.Grammar) -> None:
    """docs/img/httpurl.svg says what the grammar says (regenerate it with rule_svg if not)."""
    shown = ET.parse(DOCS / "img" / "httpurl.svg").getroot()
    current = ET.fromstring(rule_svg(shipped, "httpurl"))
    assert [t.text for t in shown.iter(f"{SVG}text")] == [
        t.text for t in current.iter(f"{SVG}text")
    ]


def test_a_character_list_on_one_line_is_a_column(shipped: rfc1738.Grammar) -> None:
    # national: nine characters, written on one line.
    (column,) = [
        i for i in rule_diagram(shipped, "NATIONAL").items if isinstance(i, railroad.Choice)
    ]
    assert [type(i).__name__ for i in column.items] == ["Terminal"] * 9
