"""MkDocs hook: the grammar reference, generated from ``grammar/`` at build time.

One page per grammar file (``reference/grammar/<file>.md``) and an overview page
(``reference/grammar/index.md``). Each rule gets a section with its RFC 1738 BNF
line, its comments (``// DEVIATION:`` notes set apart), its railroad diagram,
its Lark text and links to the rules it uses and the rules that use it, across
files. Everything comes through the library's public API: ``rfc1738.load(dir)``,
``Grammar.rules()`` and ``Grammar.diagram()``; editing a ``.lark`` file changes
the site on the next build (``mkdocs serve`` watches ``grammar/``).

The grammar directory is ``extra.grammar_dir`` in ``mkdocs.yml``, relative to
that file (``grammar`` when unset). The nav entry whose target is
``reference/grammar/index.md`` becomes a section listing every file's page.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

import rfc1738

#: Where the generated pages go, inside the docs directory.
PREFIX = "reference/grammar"
INDEX = f"{PREFIX}/index.md"
DEVIATION = "// DEVIATION:"
#: What the diagram links are written as before each is resolved to a page and anchor.
PLACEHOLDER = re.compile(r'xlink:href="@@([^"@]+)@@"')
#: The width attribute of a diagram's <svg> element.
WIDTH = re.compile(r'^<svg\b[^>]*?\swidth="([0-9.]+)"')


def grammar_dir(config: MkDocsConfig) -> Path:
    """The grammar directory this site documents (``extra.grammar_dir``)."""
    base = Path(config.config_file_path).parent
    name: str = config.extra.get("grammar_dir", "grammar")
    return (base / name).resolve()


def page_names(directory: Path) -> list[str]:
    """The grammar files' stems, in file-name order: one page each."""
    return sorted(path.stem for path in directory.glob("*.lark"))


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Expand the nav entry of the grammar overview into one entry per grammar file."""
    pages: list[Any] = [INDEX]
    pages += [{f"{stem}.lark": f"{PREFIX}/{stem}.md"} for stem in page_names(grammar_dir(config))]
    config.nav = _expand(config.nav, pages)
    return config


def _expand(nav: Any, pages: list[Any]) -> Any:
    """``nav`` with every ``{title: INDEX}`` entry replaced by ``{title: pages}``."""
    if isinstance(nav, list):
        return [_expand(item, pages) for item in nav]
    if isinstance(nav, dict):
        return {
            title: pages if target == INDEX else _expand(target, pages)
            for title, target in nav.items()
        }
    return nav


def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    """Add the generated grammar pages to the site."""
    for path, text in grammar_pages(grammar_dir(config), config.use_directory_urls).items():
        files.append(File.generated(config, path, content=text))
    return files


def grammar_pages(directory: Path, directory_urls: bool = True) -> dict[str, str]:
    """The Markdown of every generated page, by its path inside the docs directory."""
    grammar = rfc1738.load(directory)
    rules = grammar.rules()
    defined: dict[str, list[str]] = {}
    for info in rules:
        defined.setdefault(info.name, []).append(info.file.stem)

    def target(name: str, here: str) -> str:
        """The file whose definition of ``name`` a rule of file ``here`` refers to."""
        files = defined.get(name, [here])
        return here if here in files else files[0]

    def url(name: str, here: str) -> str:
        """The URL, relative to the page of ``here``, of the section of ``name``."""
        there = target(name, here)
        if there == here:
            return f"#rule-{name}"
        return f"../{there}/#rule-{name}" if directory_urls else f"{there}.html#rule-{name}"

    def link(name: str, here: str) -> str:
        return f"[`{name}`]({target(name, here)}.md#rule-{name})"

    pages: dict[str, str] = {}
    for stem in page_names(directory):
        text = (directory / f"{stem}.lark").read_text(encoding="utf-8")
        out = [f"# `{stem}.lark`", "", *_header(text), ""]
        out += [f"Generated from `grammar/{stem}.lark` when the site was built.", ""]
        for info in (rule for rule in rules if rule.file.stem == stem):
            label = info.name if len(defined[info.name]) == 1 else f"{info.file.name}:{info.name}"
            svg = grammar.diagram(label, href="@@{name}@@")
            svg = PLACEHOLDER.sub(functools.partial(_href, url=url, here=stem), svg)
            out += [f"## `{info.name}` {{#rule-{info.name} }}", ""]
            where = f"*{info.kind}, line {info.line}*"
            if info.rfc_name and info.rfc_name != info.name:
                where += f" (RFC 1738 name: `{info.rfc_name}`)"
            out += [where, ""]
            if info.bnf:
                out += ["RFC 1738:", "", "```text", *info.bnf, "```", ""]
            else:
                out += ["No BNF line in RFC 1738.", ""]
            for kind, note in _notes(info.comments):
                if kind == "deviation":
                    out += ['!!! warning "Deviation from RFC 1738"', "", f"    {note}", ""]
                    out += ["    All of them: [deviations](../../deviations.md).", ""]
                else:
                    out += ['!!! note "Note"', "", f"    {note}", ""]
            out += ['<div class="railroad" markdown="0">', _shrinkable(svg.strip()), "</div>", ""]
            out += ["Lark:", "", "```text", info.source, "```", ""]
            uses = ", ".join(link(name, stem) for name in info.uses) or "nothing"
            used_by = ", ".join(link(name, stem) for name in info.used_by) or "nothing"
            out += [f"Uses: {uses}.", "", f"Used by: {used_by}.", ""]
        pages[f"{PREFIX}/{stem}.md"] = "\n".join(out)
    pages[INDEX] = _overview(directory, rules)
    return pages


def _href(match: re.Match[str], *, url: Callable[[str, str], str], here: str) -> str:
    """A diagram's placeholder link, resolved to the section of the rule it names."""
    return f'xlink:href="{url(match[1], here)}"'


def _shrinkable(svg: str) -> str:
    """The diagram, allowed to shrink to 70% of its width to fit the column (then it scrolls)."""
    width = WIDTH.search(svg)
    if width is None:
        return svg
    style = f' style="min-width: {float(width[1]) * 0.7:.0f}px"'
    return svg[: width.end()] + style + svg[width.end() :]


def _header(text: str) -> list[str]:
    """The opening comment lines of a grammar file, as one paragraph."""
    lines = []
    for line in text.splitlines():
        if not line.startswith("//"):
            break
        lines.append(html.escape(line.removeprefix("//").strip(), quote=False))
    return [" ".join(lines)] if lines else []


def _notes(comments: tuple[str, ...]) -> list[tuple[str, str]]:
    """The comment lines above a rule as notes: ``("deviation" | "note", text)``.

    A note goes on over the next lines until a line ends a sentence and the
    next one starts a new one with a capital letter or ``DEVIATION:``.
    """
    notes: list[tuple[str, str]] = []
    for comment in comments:
        line = comment.removeprefix("//").strip()
        deviation = comment.startswith(DEVIATION)
        line = line.removeprefix("DEVIATION:").strip()
        starts = deviation or not notes or (notes[-1][1].endswith(".") and line[:1].isupper())
        if starts:
            notes.append(("deviation" if deviation else "note", line))
        else:
            notes[-1] = (notes[-1][0], f"{notes[-1][1]} {line}")
    return [(kind, html.escape(text, quote=False)) for kind, text in notes]


def _overview(directory: Path, rules: list[Any]) -> str:
    """The overview page: every file, its header, and its rules."""
    out = ["# Grammar reference", ""]
    out += [
        "Generated from the grammar files when the site was built: one page per file, and on",
        "it, for each rule, its RFC 1738 BNF line, its railroad diagram, its Lark text, the",
        "rules it uses and the rules that use it. See [the grammar files](../../grammar.md)",
        "for how the names map to the RFC, and [deviations](../../deviations.md) for every",
        "place the grammar departs from it.",
        "",
        "| file | what it covers | rules |",
        "|---|---|---|",
    ]
    for stem in page_names(directory):
        header = _header((directory / f"{stem}.lark").read_text(encoding="utf-8"))
        names = [f"[`{r.name}`]({stem}.md#rule-{r.name})" for r in rules if r.file.stem == stem]
        about = (header[0] if header else "").replace("|", "\\|")
        out.append(f"| [{stem}.lark]({stem}.md) | {about} | {', '.join(names)} |")
    return "\n".join(out) + "\n"
