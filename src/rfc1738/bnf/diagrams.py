"""Railroad diagrams of a grammar directory: one SVG per rule, one HTML page.

Each diagram is drawn from the rule's definition as Lark's grammar loader
reads it (the same trees both parsers are generated from), in the file that
defines the rule. Rules and character classes (UPPERCASE terminals) are boxes
that link to their own diagrams; literals are rounded boxes, quoted as the
RFC quotes them (a scheme literal matched in any case says so).

Drawing needs the ``railroad-diagrams`` package (``pip install
'rfc1738[diagrams]'``); it is imported only when a diagram is drawn.

>>> import rfc1738
>>> svg = rule_svg(rfc1738.load(), "hostport")
>>> svg.startswith("<svg"), 'xlink:href="#rule-host"' in svg
(True, True)
"""

from __future__ import annotations

import html
import os
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from ..errors import GrammarError, RFC1738Error
from . import tree as bnf
from .blocks import bnf_name
from .files import GENERIC, GrammarDirectory
from .index import Definition, FileIndex, GrammarIndex
from .load_errors import load_tree

__all__ = [
    "DiagramsUnavailableError",
    "grammar_html",
    "rule_diagram",
    "rule_svg",
    "write_diagrams",
]

#: A railroad-diagrams item (the package has no type information).
_Item = Any

_COMMON = "common"
#: An alternation of at least this many single characters and character
#: classes is drawn in rows, as the grammar file writes it.
_COMPACT_AT = 8
_ROW = 9


class DiagramsUnavailableError(RFC1738Error, ImportError):
    """The optional ``railroad-diagrams`` package is not installed."""


def rule_svg(grammar: GrammarDirectory, name: str, *, href: str = "#{anchor}") -> str:
    """A standalone SVG railroad diagram of one rule or character class.

    ``name`` is the rule's name in the grammar files (``hostport``,
    ``XCHAR``), its BNF spelling (``ip-schemepart``, ``gopher+_string``,
    ``xchar``), or ``file:name`` where several files define the name. Each
    box naming another rule links to ``href`` with ``{anchor}`` (its id on
    the :func:`grammar_html` page) and ``{name}`` filled in.
    """
    rr = _railroad()
    return _standalone(rr, rule_diagram(grammar, name, href=href))


def rule_diagram(grammar: GrammarDirectory, name: str, *, href: str = "#{anchor}") -> Any:
    """The ``railroad.Diagram`` of one rule, to restyle or lay out yourself.

    Arguments as for :func:`rule_svg`.
    """
    rr = _railroad()
    index = _Index(grammar)
    definition = index.find(name)
    return _Drawer(rr, index, definition.file.stem, href).draw(definition)


def grammar_html(grammar: GrammarDirectory, *, title: str | None = None) -> str:
    """One self-contained HTML page with the diagram of every rule.

    Files come in the order generic, the schemes (as the ``url`` rule lists
    them), common; rules in file order. Each rule has a section with its
    name (``id="rule-<name>"``), its ``// BNF:`` lines, its diagram, the
    Lark source, and links to the rules it uses and that use it.
    """
    rr = _railroad()
    index = _Index(grammar)
    return _Page(rr, index, title or _default_title(grammar)).render()


def write_diagrams(
    grammar: GrammarDirectory, out_dir: str | os.PathLike[str], rules: Iterable[str] | None = None
) -> list[Path]:
    """Write ``<rule>.svg`` for each rule (every one when ``rules`` is None) and ``index.html``.

    The SVG files link to the rules' sections of ``index.html``. Returns the
    paths written, the page last.
    """
    rr = _railroad()
    index = _Index(grammar)
    wanted = index.definitions if rules is None else [index.find(name) for name in rules]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for definition in wanted:
        diagram = _Drawer(rr, index, definition.file.stem, "index.html#{anchor}").draw(definition)
        path = out / f"{index.anchor(definition).removeprefix('rule-')}.svg"
        path.write_text(_standalone(rr, diagram) + "\n", encoding="utf-8")
        written.append(path)
    page = out / "index.html"
    page.write_text(_Page(rr, index, _default_title(grammar)).render(), encoding="utf-8")
    written.append(page)
    return written


def _standalone(rr: ModuleType, diagram: _Item) -> str:
    parts: list[str] = []
    diagram.writeStandalone(parts.append, css=_svg_css(rr))
    return "".join(parts)


def _railroad() -> ModuleType:
    try:
        # The diagrams extra (railroad-diagrams): only drawing needs it.
        import railroad  # type: ignore[import-untyped]
    except ImportError:
        raise DiagramsUnavailableError(
            "railroad diagrams need the railroad-diagrams package: pip install 'rfc1738[diagrams]'"
        ) from None
    module: ModuleType = railroad
    return module


def _default_title(grammar: GrammarDirectory) -> str:
    return f"Railroad diagrams of the RFC 1738 grammar ({grammar.directory.name}/)"


# ---- the definitions, in page order ----


class _Index:
    """A directory's definitions (:mod:`rfc1738.bnf.index`), in page order, with ids."""

    def __init__(self, grammar: GrammarDirectory) -> None:
        self.grammar = grammar
        self.names = GrammarIndex(grammar.directory)
        self.files = {index.path.stem: index for index in self.names.files}
        self.order = _file_order(self.files, grammar)
        # %declare'd names (line 0) have no definition to draw.
        self.by_file = {
            stem: [d for d in self.files[stem].definitions if d.line] for stem in self.order
        }
        self.definitions = [d for stem in self.order for d in self.by_file[stem]]
        self.owners: dict[str, list[Definition]] = {}
        for definition in self.definitions:
            self.owners.setdefault(definition.name, []).append(definition)
        self._loaded: dict[str, bnf.GrammarTree] = {}

    def loaded(self, stem: str) -> bnf.GrammarTree:
        """A file's definitions as Lark's loader reads them (imports resolved)."""
        if stem not in self._loaded:
            self._loaded[stem] = load_tree(self.files[stem].path)
        return self._loaded[stem]

    def find(self, name: str) -> Definition:
        """The definition a user means by ``name`` (see :func:`rule_svg`)."""
        stem, _, bare = name.rpartition(":")
        if stem:
            found = [d for d in self.by_file.get(stem, ()) if d.name == bare]
            if not found:
                raise GrammarError(f"{stem}.lark defines no rule {bare}")
            return found[0]
        for matches in (
            lambda d: d.name == name,
            lambda d: d.block is not None and bnf_name(d.block.bnf) == name,
            lambda d: d.name.lower() == name.lower(),
        ):
            found = [d for d in self.definitions if matches(d)]
            if len(found) > 1:
                spelled = ", ".join(f"{d.file.stem}:{d.name}" for d in found)
                raise GrammarError(
                    f"{found[0].name} is defined in several files; name one: {spelled}"
                )
            if found:
                return found[0]
        raise GrammarError(f"no rule or terminal named {name}", file=str(self.grammar.directory))

    def resolve(self, stem: str, name: str) -> Definition | None:
        """The definition ``name`` stands for in file ``stem``, following ``%import``."""
        target = self.names.resolve(self.files[stem], name)
        return target if isinstance(target, Definition) else None

    def anchor(self, definition: Definition) -> str:
        """The id of a definition's section on the page."""
        if len(self.owners.get(definition.name, ())) > 1:
            return f"rule-{definition.file.stem}-{definition.name}"
        return f"rule-{definition.name}"

    def priority(self, definition: Definition) -> int:
        if definition.kind == "terminal":
            return 0
        return self.loaded(definition.file.stem).rules[definition.name].priority


def _header(text: str) -> str:
    """A file's opening comment lines, as one paragraph."""
    lines: list[str] = []
    for line in text.splitlines():
        if not line.startswith("//"):
            break
        lines.append(line.removeprefix("//").strip())
    return " ".join(lines)


def _notes(definition: Definition) -> list[str]:
    """The comments above a definition other than its BNF lines, as paragraphs."""
    notes: list[str] = []
    for comment in definition.block.comments if definition.block else ():
        if comment.startswith("// ----"):  # a section banner
            continue
        text = comment.removeprefix("//").strip()
        last = notes[-1] if notes else ""
        if last and not (last.endswith(".") and text[:1].isupper()):
            notes[-1] = f"{last} {text}"
        else:
            notes.append(text)
    return notes


def _file_order(files: dict[str, FileIndex], grammar: GrammarDirectory) -> list[str]:
    """generic, the schemes in the order the ``url`` rule names them, the rest, common."""
    schemes = [stem for stem in files if stem not in (GENERIC, _COMMON)]
    by_start = {grammar.files[stem].start: stem for stem in schemes if stem in grammar.files}
    listed: list[str] = []
    generic = files.get(GENERIC)
    url = generic.defined("url") if generic is not None else None
    for symbol in url.symbols if url is not None else ():
        stem = by_start.get(symbol)
        if stem is not None and stem not in listed:
            listed.append(stem)
    rest = sorted(stem for stem in schemes if stem not in listed)
    first = [GENERIC] if generic is not None else []
    last = [_COMMON] if _COMMON in files else []
    return [*first, *listed, *rest, *last]


# ---- drawing ----


class _Drawer:
    """:mod:`rfc1738.bnf.tree` definitions of one file -> railroad-diagrams items."""

    def __init__(self, rr: ModuleType, index: _Index, stem: str, href: str) -> None:
        self.rr = rr
        self.index = index
        self.stem = stem
        self.href = href
        self.loaded = index.loaded(stem)

    def draw(self, definition: Definition) -> _Item:
        table = self.loaded.terminals if definition.kind == "terminal" else self.loaded.rules
        return self.rr.Diagram(self.node(table[definition.name].body))

    def node(self, node: bnf.Node) -> _Item:
        rr = self.rr
        if isinstance(node, bnf.Choice):
            return self.choice(node.options)
        if isinstance(node, bnf.Sequence):
            items = self.separated(list(node.items))
            if not items:
                return rr.Skip()
            return items[0] if len(items) == 1 else rr.Sequence(*items)
        if isinstance(node, bnf.Alias):
            return rr.Sequence(self.node(node.item), rr.Comment(f"→ {node.name}"))
        if isinstance(node, bnf.Optional):
            return rr.Optional(self.node(node.item))
        if isinstance(node, bnf.Repeat):
            return self.repetition(node)
        if isinstance(node, bnf.Ref):
            return self.reference(node.name, node.terminal)
        if isinstance(node, bnf.Literal):
            text = _shown(node.text)
            if node.ignore_case:
                return rr.Terminal(f"{text} (any case)", title="letters match in any case")
            return rr.Terminal(text)
        if isinstance(node, bnf.Range):
            low, high = _shown(node.low), _shown(node.high)
            return rr.Terminal(f"{low} … {high}", title="any character in this range")
        flags = "".join(sorted(node.flags))
        return rr.Terminal(f"/{node.pattern}/{flags}", title="a regular expression")

    def choice(self, options: tuple[bnf.Node, ...]) -> _Item:
        rr = self.rr
        items = [self.node(option) for option in options]
        if len(options) < _COMPACT_AT or not all(map(_is_atom, options)):
            return rr.Choice(0, *items)
        # Many single characters and classes: in rows, broken where the file
        # breaks the line (and every _ROW entries).
        rows: list[list[_Item]] = []
        row_line: int | None = None
        for option, item in zip(options, items, strict=True):
            line = option.line or None if isinstance(option, bnf.Literal) else None
            if (
                not rows
                or len(rows[-1]) >= _ROW
                or (line is not None and row_line is not None and line != row_line)
            ):
                rows.append([])
            rows[-1].append(item)
            row_line = line if line is not None else row_line
        if len(rows) == 1:  # all on one line: a column reads better than one long row
            return rr.Choice(0, *items)
        return rr.Choice(
            0, *(rr.HorizontalChoice(*row) if len(row) > 1 else row[0] for row in rows)
        )

    def separated(self, nodes: list[bnf.Node]) -> list[_Item]:
        """``x ( sep x )*`` drawn as one loop: ``x`` repeated with ``sep`` on the way back."""
        for i in range(len(nodes) - 1):
            first, loop = nodes[i], nodes[i + 1]
            if not (isinstance(loop, bnf.Repeat) and (loop.low, loop.high) == (0, None)):
                continue
            body = loop.item
            if isinstance(body, bnf.Sequence) and len(body.items) == 2 and body.items[1] == first:
                merged = self.rr.OneOrMore(self.node(first), self.node(body.items[0]))
                before = [self.node(n) for n in nodes[:i]]
                return [*before, merged, *self.separated(nodes[i + 2 :])]
        return [self.node(n) for n in nodes]

    def repetition(self, node: bnf.Repeat) -> _Item:
        rr = self.rr
        item = self.node(node.item)
        low, high = node.low, node.high
        if (low, high) == (0, 1):
            return rr.Optional(item)
        if (low, high) == (0, None):
            return rr.ZeroOrMore(item)
        if (low, high) == (1, None):
            return rr.OneOrMore(item)
        times = f"{low} times" if low == high else f"{low} to {high} times"
        repeated = rr.OneOrMore(item, rr.Comment(times))
        return rr.Optional(repeated) if low == 0 else repeated

    def reference(self, name: str, terminal: bool) -> _Item:
        target = self.index.resolve(self.stem, name)
        css = "class-ref" if terminal else "rule-ref"
        if target is None:
            return self.rr.NonTerminal(name, cls=css)
        anchor = self.index.anchor(target)
        block = target.block
        title = ("\n".join(block.bnf) or block.source) if block else target.name
        href = self.href.format(anchor=anchor, name=target.name)
        return _linked(self.rr, self.rr.NonTerminal(target.name, title=title, cls=css), href)


def _is_atom(node: bnf.Node) -> bool:
    """A one-character literal or a character class: an entry of a character list."""
    if isinstance(node, bnf.Ref):
        return node.terminal
    return isinstance(node, bnf.Literal) and len(node.text) == 1


def _linked(rr: ModuleType, item: _Item, href: str) -> _Item:
    """``item`` with its text in a link to ``href``.

    railroad-diagrams 3.0.1 writes the text of a box given ``href`` twice;
    this wraps the one text it writes without it.
    """
    draw = item.format

    def format(x: float, y: float, width: float) -> _Item:
        drawn = draw(x, y, width)
        for i, child in enumerate(item.children):
            if getattr(child, "name", None) == "text":
                link = rr.DiagramItem("a", {"xlink:href": href})
                link.children.append(child)
                item.children[i] = link
        return drawn

    item.format = format
    return item


def _shown(value: str) -> str:
    """A literal as RFC 1738 writes one: ``"x"``, and ``<">`` for the double quote."""
    if value == '"':
        return '<">'
    visible = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in value)
    return f"'{visible}'" if '"' in visible else f'"{visible}"'


# ---- the page ----


def _svg_css(rr: ModuleType) -> str:
    return str(rr.DEFAULT_STYLE) + _EXTRA_CSS


_EXTRA_CSS = """\
\tsvg.railroad-diagram g.non-terminal.rule-ref rect {
\t\tfill:hsl(210,80%,92%);
\t}
\tsvg.railroad-diagram g.non-terminal.class-ref rect {
\t\tfill:hsl(45,100%,86%);
\t}
\tsvg.railroad-diagram a text {
\t\tfill:#0645ad;
\t\ttext-decoration:underline;
\t}
"""

_PAGE_CSS = """\
body { font: 16px/1.45 system-ui, sans-serif; color: #222; margin: 0 auto;
       max-width: 76em; padding: 0 1.5em 4em; }
h1 { margin-top: 1em; }
h2 { border-bottom: 2px solid #888; margin-top: 2.5em; }
code, pre { font-family: ui-monospace, monospace; }
nav ul { padding-left: 1.2em; }
nav li { margin: .3em 0; }
nav li ul { padding: 0; display: inline; }
nav li li { display: inline; margin: 0 .5em 0 0; }
section.rule { border-top: 1px solid #ccc; margin-top: 1.5em; padding-top: .3em; }
section.rule:target { background: #fffbe6; }
section.rule h3 { margin: .4em 0; font-family: ui-monospace, monospace; }
h3 .kind { font: italic 13px system-ui, sans-serif; color: #666; margin-left: .6em; }
h3 a.self { color: inherit; text-decoration: none; }
pre.bnf { background: #f4f1ec; border-left: 4px solid #b9a; padding: .4em .8em;
          margin: .4em 0; overflow-x: auto; }
p.note { color: #555; font-size: 14px; margin: .3em 0; }
div.diagram { overflow-x: auto; }
div.diagram svg { display: block; max-width: 100%; height: auto; }
p.meta, details { font-size: 14px; color: #444; margin: .3em 0; }
details pre { background: #f6f6f6; padding: .4em .8em; overflow-x: auto; }
"""


class _Page:
    def __init__(self, rr: ModuleType, index: _Index, title: str) -> None:
        self.rr = rr
        self.index = index
        self.title = title

    def render(self) -> str:
        index = self.index
        svgs: dict[Definition, str] = {}
        used_by: dict[Definition, list[Definition]] = {}
        for definition in index.definitions:
            drawer = _Drawer(self.rr, index, definition.file.stem, "#{anchor}")
            parts: list[str] = []
            drawer.draw(definition).writeSvg(parts.append)
            svgs[definition] = "".join(parts)
            for used in index.names.uses(definition):
                used_by.setdefault(used, []).append(definition)
        esc = html.escape
        out = [
            "<!DOCTYPE html>",
            '<html lang="en">',
            '<head><meta charset="utf-8">',
            f"<title>{esc(self.title)}</title>",
            f"<style>\n{_svg_css(self.rr)}{_PAGE_CSS}</style>",
            "</head>",
            "<body>",
            f"<h1>{esc(self.title)}</h1>",
            "<p>One diagram per rule of each grammar file, under the RFC 1738 "
            "BNF line it transcribes. Blue boxes are rules, yellow boxes "
            "character classes; each links to its own diagram. Rounded boxes "
            "are literal text.</p>",
            '<nav id="contents"><h2>Contents</h2><ul>',
        ]
        for stem in index.order:
            entry = index.grammar.files.get(stem)
            start = f" (start rule <code>{esc(entry.start)}</code>)" if entry else ""
            links = " ".join(
                f'<li><a href="#{esc(index.anchor(d))}"><code>{esc(d.name)}</code></a></li>'
                for d in index.by_file[stem]
            )
            file_link = f'<a href="#file-{esc(stem)}">{esc(stem)}.lark</a>'
            out.append(f"<li>{file_link}{start}: <ul>{links}</ul></li>")
        out.append("</ul></nav>")
        for stem in index.order:
            header = _header(index.files[stem].text)
            out.append(f'<section class="grammar-file" id="file-{esc(stem)}">')
            out.append(f"<h2>{esc(stem)}.lark</h2>")
            if header:
                out.append(f'<p class="note">{esc(header)}</p>')
            for definition in index.by_file[stem]:
                uses = index.names.uses(definition)
                users = used_by.get(definition, [])
                out.append(self.section(definition, svgs[definition], uses, users))
            out.append("</section>")
        out += ["</body>", "</html>", ""]
        return "\n".join(out)

    def section(
        self, definition: Definition, svg: str, uses: list[Definition], used_by: list[Definition]
    ) -> str:
        esc = html.escape
        anchor = esc(self.index.anchor(definition))
        kind = "character class" if definition.kind == "terminal" else "rule"
        priority = self.index.priority(definition)
        if priority:
            kind += f", priority {priority}"
        out = [
            f'<section class="rule" id="{anchor}">',
            f'<h3><a class="self" href="#{anchor}">{esc(definition.name)}</a>'
            f'<span class="kind">{kind}</span></h3>',
        ]
        block = definition.block
        if block is not None and block.bnf:
            out.append(f'<pre class="bnf"><code>{esc(chr(10).join(block.bnf))}</code></pre>')
        out += [f'<p class="note">{esc(note)}</p>' for note in _notes(definition)]
        out.append(f'<div class="diagram">{svg}</div>')
        where = f"{esc(definition.file.name)}, line {definition.line}"
        uses_links, used_by_links = self.links(uses), self.links(used_by)
        out.append(f'<p class="meta">{where}. Uses: {uses_links}. Used by: {used_by_links}.</p>')
        if block is not None:
            out.append(
                f"<details><summary>Lark</summary><pre><code>{esc(block.source)}</code></pre>"
                "</details>"
            )
        out.append("</section>")
        return "\n".join(out)

    def links(self, definitions: list[Definition]) -> str:
        if not definitions:
            return "none"
        return ", ".join(
            f'<a href="#{html.escape(self.index.anchor(d))}"><code>{html.escape(d.name)}</code></a>'
            for d in dict.fromkeys(definitions)
        )
