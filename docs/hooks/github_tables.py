"""MkDocs hook: ``\\|`` inside a code span of a table row, as GitHub reads it.

The pages are written for GitHub too, where a ``|`` inside a table cell's code
span must be escaped as ``\\|``, and GitHub drops the backslash. Python-Markdown
keeps it (code spans take no escapes) but needs no escape there: it does not
split a row at a ``|`` inside backticks. So the backslash goes, on the site only.
"""

from __future__ import annotations

from typing import Any

FENCE = "```"


def unescape_row(line: str) -> str:
    """A table row with ``\\|`` inside its code spans turned into ``|``."""
    parts = line.split("`")
    for i in range(1, len(parts), 2):
        if i < len(parts) - 1:  # a closed span
            parts[i] = parts[i].replace("\\|", "|")
    return "`".join(parts)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """The page's Markdown with its table rows unescaped (code blocks left alone)."""
    out = []
    fenced = False
    for line in markdown.split("\n"):
        if line.lstrip().startswith(FENCE):
            fenced = not fenced
        elif not fenced and line.startswith("|"):
            line = unescape_row(line)
        out.append(line)
    return "\n".join(out)
