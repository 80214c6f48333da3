"""The reference parser: Lark's Earley parser over the grammar files as written.

It gives the full parse tree of a URL and the exact position of an error. Its
cost grows faster than linearly with the length of the input, so it refuses
input longer than :data:`MAX_REFERENCE_LENGTH` characters.
"""

from __future__ import annotations

import re
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput
from lark.lexer import PatternStr

from ..bnf.lark_errors import grammar_error_from_lark
from ..bnf.names import base_name
from ..errors import MAX_REFERENCE_LENGTH, InputTooLongError, URLSyntaxError

__all__ = ["END", "MAX_REFERENCE_LENGTH", "ReferenceParser", "terminal_display_names"]

#: How ``URLSyntaxError.expected`` names the end of the URL (Lark's name for it).
END = "$END"


# Lark turns ``x*``, ``x+`` and ``[x]`` into helper rules named after their
# owner (``__hsegment_star_4``); errors name the owner instead.
_HELPER_RULE = re.compile(r"^__(?P<owner>\w+?)_(?:star|plus|opt)_\d+$")


class ReferenceParser:
    """Earley parsers for one grammar file, built on first use, one per start rule."""

    def __init__(self, path: Path, max_length: int = MAX_REFERENCE_LENGTH) -> None:
        self.path = path
        #: The longest input this parser accepts (see :data:`MAX_REFERENCE_LENGTH`).
        self.max_length = max_length
        self._parsers: dict[str, Lark] = {}

    def lark(self, start: str) -> Lark:
        """The Lark Earley parser of this file for ``start`` (built once)."""
        parser = self._parsers.get(start)
        if parser is None:
            try:
                parser = Lark.open(
                    str(self.path),
                    start=start,
                    parser="earley",
                    lexer="dynamic",
                    ambiguity="resolve",
                    propagate_positions=True,
                    keep_all_tokens=True,
                    maybe_placeholders=False,
                )
            except (LarkError, OSError) as exc:
                raise grammar_error_from_lark(exc, self.path) from exc
            self._parsers[start] = parser
        return parser

    def parse(self, text: str, start: str) -> Tree[Token]:
        """The parse tree of ``text`` under ``start``, or :class:`URLSyntaxError`."""
        if len(text) > self.max_length:
            raise InputTooLongError(
                text,
                self.max_length,
                rule=start,
                reason=(
                    f"the reference parser takes at most {self.max_length} characters "
                    f"and this URL has {len(text)}"
                ),
            )
        parser = self.lark(start)
        try:
            return parser.parse(text)
        except UnexpectedInput as exc:
            error = _syntax_error(text, exc, start, parser)
        if error.position < len(text) and self._complete(text[: error.position], start):
            # Lark lists only the terminals that could come next; where the
            # URL could also have ended, say so.
            error = URLSyntaxError(text, error.position, error.expected | {END}, error.rule)
        raise error

    def _complete(self, text: str, start: str) -> bool:
        try:
            self.lark(start).parse(text)
        except UnexpectedInput:
            return False
        return True


def terminal_display_names(parser: Lark) -> dict[str, str]:
    """How each terminal of ``parser`` is named in errors.

    Named terminals keep their grammar name (``UCHAR``); the anonymous ones Lark
    makes for literals are shown as the literal (``"/"``, ``"http://"i``).
    """
    names: dict[str, str] = {}
    for terminal in parser.terminals:
        pattern = terminal.pattern
        if isinstance(pattern, PatternStr):
            flags = "i" if "i" in pattern.flags else ""
            names[terminal.name] = f'"{pattern.value}"{flags}'
        else:
            # Terminals an imported rule uses arrive namespaced (common__ALPHA).
            names[terminal.name] = str(base_name(terminal.name))
    return names


def _literal_progress(text: str, position: int, allowed: set[str], parser: Lark) -> int:
    """How far into the expected literals the text goes before it differs.

    Lark reports a literal that does not match (``"http://"i`` against
    ``http:x``, ``";type="`` against ``;typ``) at its first character; the
    character that is wrong is further on, where the longest viable prefix
    ends (which is where the fast parser's prefix search puts it too).
    """
    literals = {t.name: t.pattern for t in parser.terminals if isinstance(t.pattern, PatternStr)}
    longest = 0
    for name in allowed:
        pattern = literals.get(name)
        if pattern is None:
            continue
        fold = "i" in pattern.flags
        for index, char in enumerate(str(pattern.value)):
            found = text[position + index : position + index + 1]
            if not found or (found.lower() if fold else found) != (char.lower() if fold else char):
                break
            longest = max(longest, index + 1)
    return longest


def _rule_name(name: str) -> str:
    helper = _HELPER_RULE.match(name)
    return helper.group("owner") if helper else name


def _syntax_error(text: str, exc: UnexpectedInput, start: str, parser: Lark) -> URLSyntaxError:
    display = terminal_display_names(parser)
    if isinstance(exc, UnexpectedCharacters):
        position = exc.pos_in_stream if exc.pos_in_stream is not None else 0
        expected = frozenset(display.get(str(name), str(name)) for name in exc.allowed)
        position += _literal_progress(text, position, exc.allowed, parser)
        items = exc.considered_rules or []
        # The innermost production the error is inside: of the matches begun
        # before the error, the one that began last.
        inside = [item for item in items if item.start < position] or items
        innermost = max(
            inside, key=lambda item: (item.start, str(item.rule.origin.name)), default=None
        )
        rule = _rule_name(str(innermost.rule.origin.name)) if innermost else start
    elif isinstance(exc, UnexpectedEOF):
        position = len(text)
        expected = frozenset(display.get(str(name), str(name)) for name in exc.expected)
        rules = sorted((ptr, _rule_name(str(rule.origin.name))) for rule, ptr in (exc.state or ()))
        rule = rules[-1][1] if rules else start
    else:  # pragma: no cover - the Earley parser raises only the two above
        position, expected, rule = 0, frozenset(), start
    return URLSyntaxError(text, position, expected, rule)
