"""A grammar directory and the parsers generated from it.

:func:`rfc1738.load` returns one of these; the module-level functions of
``rfc1738`` use the one for the shipped grammar. Parsers are built on first
use, one per scheme, never all at once.
"""

from __future__ import annotations

import os
from pathlib import Path

from lark import Token, Tree

from .errors import GrammarError
from .grammar_files import GENERIC, SchemeFile, scheme_files, shipped_grammar_dir
from .reference import ReferenceParser

__all__ = ["Grammar"]


class Grammar:
    """The grammar files of one directory, and the parsers made from them.

    >>> g = Grammar()
    >>> g.parse_tree("news:comp.lang.python").data
    Token('RULE', 'newsurl')
    """

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.directory = Path(directory) if directory is not None else shipped_grammar_dir()
        if not self.directory.is_dir():
            raise GrammarError(f"no grammar directory at {self.directory}")
        self.files: dict[str, SchemeFile] = scheme_files(self.directory)
        if GENERIC not in self.files:
            raise GrammarError(f"{GENERIC}.lark is missing", file=str(self.directory))
        self._reference: dict[str, ReferenceParser] = {}

    def __repr__(self) -> str:
        return f"Grammar({str(self.directory)!r})"

    @property
    def schemes(self) -> frozenset[str]:
        """The schemes that have a file of their own (``generic`` excluded)."""
        return frozenset(name for name in self.files if name != GENERIC)

    def scheme_file(self, text: str) -> SchemeFile:
        """The file a URL is parsed with: its scheme's, or ``generic.lark``.

        The scheme is what comes before the first ``:``, compared without case
        (ASCII letters only, section 2.1).
        """
        colon = text.find(":")
        if colon > 0:
            written = text[:colon]
            if written.isascii():
                entry = self.files.get(written.lower())
                if entry is not None and entry.scheme != GENERIC:
                    return entry
        return self.files[GENERIC]

    def reference_parser(self, scheme: str) -> ReferenceParser:
        """The Earley parser of one scheme's file (built on first use)."""
        parser = self._reference.get(scheme)
        if parser is None:
            parser = self._reference[scheme] = ReferenceParser(self.files[scheme].path)
        return parser

    def parse_tree(self, text: str) -> Tree[Token]:
        """The full Earley parse tree of ``text`` under its scheme's production.

        Raises :class:`~rfc1738.URLSyntaxError` if ``text`` does not match it,
        and :class:`TypeError` if ``text`` is not a ``str``.
        """
        if not isinstance(text, str):
            raise TypeError(f"a URL must be a str, not {type(text).__name__}")
        entry = self.scheme_file(text)
        return self.reference_parser(entry.scheme).parse(text, entry.start)
