"""Griffe extensions: the library's docstrings, written the Sphinx way, for mkdocstrings.

The docstrings are written for ``help()`` and doctest, in reST: ``literal``,
roles (:class:`URL`), ``>>>`` examples and ``::`` literal blocks;
:class:`RestToMarkdown` turns them into Markdown when the API reference is
built. Attributes are documented by ``#:`` comments above them, which
:class:`CommentDocstrings` makes their docstrings. The source is not touched.
"""

from __future__ import annotations

import ast
import functools
import inspect
import pydoc
import re
import textwrap
from pathlib import Path
from typing import Any

import griffe

#: ``:class:`rfc1738.URL``` and the other Sphinx roles; ``~`` keeps the last name only.
ROLE = re.compile(r":(?:class|func|meth|attr|data|mod|exc|obj|const):`(~?)([^`]+)`")
#: A reST inline literal, ````x````.
LITERAL = re.compile(r"``(.+?)``")


def inline(line: str) -> str:
    """One line of prose: roles and inline literals as Markdown code spans."""
    line = ROLE.sub(lambda m: f"`{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}`", line)
    return LITERAL.sub(lambda m: f"`{m[1]}`", line)


def to_markdown(text: str) -> str:
    """A reST docstring as Markdown: doctest and ``::`` blocks fenced, roles as code."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i])
                i += 1
            out += ["```pycon", *block, "```"]
            continue
        if line.rstrip().endswith("::"):
            intro = line.rstrip()[:-2].rstrip()
            if intro:
                out.append(inline(intro) + ":")
            i += 1
            block = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            while block and not block[0].strip():
                block.pop(0)
            indent = min((len(b) - len(b.lstrip()) for b in block if b.strip()), default=0)
            lang = "pycon" if block and block[0].lstrip().startswith(">>>") else "text"
            out += ["", f"```{lang}", *(b[indent:] for b in block), "```", ""]
            continue
        out.append(inline(line))
        i += 1
    return "\n".join(out)


class RestToMarkdown(griffe.Extension):
    """Rewrite every docstring from reST to Markdown as Griffe loads it."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Convert ``obj``'s docstring, if it has one."""
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)


@functools.cache
def source_lines(path: str) -> list[str]:
    """The lines of a source file (read once per build)."""
    return Path(path).read_text(encoding="utf-8").splitlines()


class CommentDocstrings(griffe.Extension):
    """Give an attribute with no docstring the ``#:`` comment lines above it, or the
    ``doc=`` of the field declaration it is (``host = Verbatim("host", doc="...")``)."""

    def on_attribute_instance(self, *, attr: griffe.Attribute, **kwargs: Any) -> None:
        """Read the ``#:`` lines right above ``attr``'s line, if it has none."""
        if attr.docstring is not None or attr.filepath is None or attr.lineno is None:
            return
        lines = source_lines(str(attr.filepath))
        comment: list[str] = []
        number = attr.lineno - 2  # the line above, 0-based
        while number >= 0 and lines[number].lstrip().startswith("#:"):
            comment.insert(0, lines[number].lstrip().removeprefix("#:").strip())
            number -= 1
        if comment:
            text = to_markdown("\n".join(comment))
            attr.docstring = griffe.Docstring(text, lineno=number + 2, parent=attr)
            return
        declared = declared_doc(lines[attr.lineno - 1 : attr.endlineno or attr.lineno])
        if declared is None:
            declared = made_doc(attr)
        if declared:
            attr.docstring = griffe.Docstring(
                to_markdown(declared), lineno=attr.lineno, parent=attr
            )
            attr.value = None  # the declaration, its docstring in it, is not what a user reads


def made_doc(attr: griffe.Attribute) -> str | None:
    """The docstring of a field a function made (``port = port_field()``), read from the class.

    Only a field has a docstring of its own (in its ``__dict__``); any other
    value's ``__doc__`` is its type's.
    """
    owner = pydoc.locate(attr.parent.path) if attr.parent is not None else None
    field = inspect.getattr_static(owner, attr.name, None) if isinstance(owner, type) else None
    own = getattr(field, "__dict__", {}).get("__doc__")
    return own if isinstance(own, str) else None


def declared_doc(lines: list[str]) -> str | None:
    """The ``doc=`` keyword of the call an assignment's lines make, if it is a string."""
    try:
        tree = ast.parse(textwrap.dedent("\n".join(lines)))
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg == "doc" and isinstance(keyword.value, ast.Constant):
                    value = keyword.value.value
                    return value if isinstance(value, str) else None
    return None
