"""The blocks of a grammar file's text: what Lark's loader throws away.

Lark reads what each definition means; the comments above it (the ``// BNF:``
line copied from the RFC, a ``// DEVIATION:`` note) and the lines it spans as
written are gone by then. This module reads them from the text, by the blocks
the grammar files keep:

- a definition starts in column 0 with its name (``hostport:``,
  ``ip_schemepart.2:``, ``?rule:``, ``UCHAR:``);
- it continues on the lines that start (after indentation) with ``|``;
- the comment lines directly above it (no blank line between) are its
  comments, the ``// BNF:`` ones its BNF lines.

It parses names, not URL characters: nothing here says what a URL may hold.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BNF_PREFIX",
    "DEVIATION_PREFIX",
    "Block",
    "bnf_name",
    "bnf_text",
    "definition_name",
    "read_blocks",
]

#: The comment that carries a line of the grammar's source BNF, copied verbatim.
BNF_PREFIX = "// BNF:"
#: The comment that marks a departure from the source BNF.
DEVIATION_PREFIX = "// DEVIATION:"

_COMMENT = "//"
_CONTINUATION = "|"
_MODIFIERS = "?!"


@dataclass(frozen=True, slots=True)
class Block:
    """One definition as written: its name, first line, text, and the comments above it."""

    name: str
    #: 1-based line of the definition's first line.
    line: int
    #: The definition's lines as written, continuation lines included.
    source: str
    #: The ``// BNF:`` lines above it, without the prefix (alignment kept).
    bnf: tuple[str, ...]
    #: The other comment lines directly above it, as written.
    comments: tuple[str, ...]


def definition_name(line: str) -> str | None:
    """The name a line defines, if it starts a rule or terminal definition.

    >>> definition_name('ip_schemepart.2: "//" login [ "/" urlpath ]')
    'ip_schemepart'
    >>> definition_name("?expr: a | b"), definition_name("UCHAR: UNRESERVED | ESCAPE")
    ('expr', 'UCHAR')
    >>> definition_name("pair{x}.2: x x")
    'pair'
    >>> definition_name("  | b"), definition_name("// BNF: a = b"), definition_name("b c")
    (None, None, None)
    """
    rest = line.lstrip(_MODIFIERS) if line[:1] in _MODIFIERS else line
    end = 0
    while end < len(rest) and (rest[end].isalnum() or rest[end] == "_") and rest[end].isascii():
        end += 1
    name, rest = rest[:end], rest[end:]
    if not name or name[0].isdigit():
        return None
    while rest[:1] in (".", "{"):
        if rest.startswith("."):  # a priority: .2, .-1
            rest = rest[1:].lstrip("-")
            while rest[:1].isdigit():
                rest = rest[1:]
        else:  # template parameters: {x, y}
            rest = rest[rest.find("}") + 1 :] if "}" in rest else ""
    return name if rest.lstrip().startswith(":") else None


def read_blocks(text: str) -> list[Block]:
    """Every definition of a grammar file's text, in file order.

    >>> blocks = read_blocks('''// BNF: port           = digits
    ... port: digits
    ... // BNF: digit = "0" | "1"
    ... // a note
    ... DIGIT: "0"
    ...      | "1"
    ... ''')
    >>> [(b.name, b.line, b.bnf, b.comments) for b in blocks]  # doctest: +NORMALIZE_WHITESPACE
    [('port', 2, ('port           = digits',), ()),
     ('DIGIT', 5, ('digit = "0" | "1"',), ('// a note',))]
    >>> print(blocks[1].source)
    DIGIT: "0"
         | "1"
    """
    lines = text.splitlines()
    blocks: list[Block] = []
    for index, line in enumerate(lines):
        name = definition_name(line)
        if name is None:
            continue
        end = index + 1
        while end < len(lines) and lines[end].lstrip().startswith(_CONTINUATION):
            end += 1
        start = index
        while start > 0 and lines[start - 1].lstrip().startswith(_COMMENT):
            start -= 1
        above = [comment.strip() for comment in lines[start:index]]
        blocks.append(
            Block(
                name=name,
                line=index + 1,
                source="\n".join(part.rstrip() for part in lines[index:end]),
                bnf=tuple(bnf_text(c) for c in above if c.startswith(BNF_PREFIX)),
                comments=tuple(c for c in above if not c.startswith(BNF_PREFIX)),
            )
        )
    return blocks


def bnf_text(comment: str) -> str:
    """A ``// BNF:`` comment without its prefix and the one space after it.

    >>> bnf_text("// BNF:                  nntpurl | telneturl |")
    '                 nntpurl | telneturl |'
    """
    rest = comment[len(BNF_PREFIX) :].rstrip()
    return rest[1:] if rest.startswith(" ") else rest


def bnf_name(bnf: tuple[str, ...]) -> str | None:
    """The name a production's BNF lines define: before ``=``, or the first word.

    RFC 1738 writes ``name = ...``; the 1994 W3 grammar writes the name and
    its definition in two columns, without ``=``.

    >>> bnf_name(("gopher+_string = *xchar",)), bnf_name(("hsoname     path",))
    ('gopher+_string', 'hsoname')
    >>> bnf_name(()) is None
    True
    """
    if not bnf:
        return None
    first = bnf[0]
    head = first.partition("=")[0] if "=" in first else first
    words = head.split()
    return words[0] if words else None
