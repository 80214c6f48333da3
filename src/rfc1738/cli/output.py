"""What the commands share: exit statuses, the JSON records they write, input that is not UTF-8."""

from __future__ import annotations

import json
import re
import sys
from typing import BinaryIO, TextIO

from ..errors import InputTooLongError, URLSyntaxError
from ..output.jsonl import json_value
from ..runtime.dispatch import ParserName
from ..urls import Grammar

__all__ = [
    "BROKEN_PIPE",
    "INTERRUPTED",
    "INVALID",
    "OK",
    "TOO_LONG",
    "USAGE",
    "Refusals",
    "error_dict",
    "error_json",
    "not_utf8",
    "not_utf8_dict",
    "not_utf8_message",
    "open_input",
    "plural",
    "result_dict",
    "say",
    "write_json",
]

#: Exit statuses (docs/cli.md, "Exit status"): every URL valid (or the work
#: done); a URL invalid; bad usage, a grammar that does not load, a stream
#: closed or a file that cannot be read or written; no URL invalid, but one
#: too long for the reference parser to judge.
OK, INVALID, USAGE, TOO_LONG = 0, 1, 2, 3

#: The exit status when the reader of stdout went away (``rfc1738 check
#: --jsonl big.txt | head -1``): 128 + SIGPIPE (13), what a shell reports
#: for ``cat``, ``grep`` or ``yes`` killed by SIGPIPE there. The command stops
#: quietly with it instead of being killed (no traceback, no message).
BROKEN_PIPE = 141

#: The exit status after Ctrl-C where no signal ends the process: 128 + SIGINT
#: (2), what a shell reports for a command Ctrl-C ended. Where there is a
#: SIGINT to end it by, it ends so (no traceback, no message).
INTERRUPTED = 130


def result_dict(
    grammar: Grammar,
    text: str,
    *,
    parser: ParserName = "fast",
    host_checks: bool = True,
    refusals: Refusals | None = None,
) -> dict[str, object]:
    """``text``, whether it is valid, and its fields (:meth:`URL.to_dict`) or its error.

    A text holding a byte that is not UTF-8 is invalid with the error
    :func:`not_utf8_dict` words. ``valid`` is ``None`` for a URL the
    reference parser refused as too long (:class:`~rfc1738.InputTooLongError`,
    see :class:`Refusals`): not judged.
    """
    try:
        url = grammar.parse(text, parser=parser, host_checks=host_checks)
    except URLSyntaxError as error:
        encoding = not_utf8_dict(text)
        if encoding is not None:
            return {"text": text, "valid": False, "error": encoding}
        if refusals is None:
            refusals = Refusals(grammar, parser, host_checks)
        refused = refusals.too_long(text, error)
        if refused is not None:
            return {"text": text, "valid": None, "error": error_dict(refused)}
        return {"text": text, "valid": False, "error": error_dict(error)}
    return {"text": text, "valid": True} | url.to_dict()


class Refusals:
    """Which rejected lines the reference parser refused to judge, as too long for it.

    With ``--parser reference`` every scheme is judged by Earley, which
    refuses a text over its bound (:class:`~rfc1738.InputTooLongError`);
    with the compiled expressions only the schemes of a grammar that refers
    back to itself are (they have no expression). A command counts such a
    line apart from the invalid ones.
    """

    def __init__(self, grammar: Grammar, parser: ParserName, host_checks: bool) -> None:
        self.grammar = grammar
        self.parser = parser
        self.host_checks = host_checks
        self._by_earley: dict[str, bool] = {}

    def too_long(
        self, text: str, error: URLSyntaxError | None = None, scheme: str | None = None
    ) -> InputTooLongError | None:
        """The reference parser's refusal of ``text``, a rejected line, if that is why.

        ``error``: the error the line was rejected with, if known; ``scheme``:
        the grammar file that judged it, if known.
        """
        if isinstance(error, InputTooLongError):
            return error
        if self.parser == "reference" or not self._judged_by_earley(text, scheme):
            return None
        # The compiled form's error for such a scheme is Earley's, explained
        # later: parse with Earley itself to tell a refusal from a rejection.
        try:
            self.grammar.parse(text, parser="reference", host_checks=self.host_checks)
        except InputTooLongError as refused:
            return refused
        except URLSyntaxError:
            return None
        return None

    def _judged_by_earley(self, text: str, scheme: str | None) -> bool:
        if scheme is None:
            scheme = self.grammar.scheme_file(text).scheme
        found = self._by_earley.get(scheme)
        if found is None:
            found = self._by_earley[scheme] = self.grammar.dispatch.table(scheme).expression is None
        return found


# ---- the standard streams ----


def say(message: str) -> None:
    """Write ``rfc1738: message`` on stderr, if there is a stderr to write on."""
    if sys.stderr is not None:
        print(f"rfc1738: {message}", file=sys.stderr)


def open_input(file: str) -> BinaryIO | None:
    """The file a command reads (``-``: stdin), as bytes; ``None`` if it cannot be read.

    Says why on stderr: a file that cannot be opened, or a stdin that is
    closed (``rfc1738 check <&-``: Python then has no ``sys.stdin``).
    """
    if file == "-":
        if sys.stdin is None:
            say("cannot read <stdin>: standard input is closed")
            return None
        return sys.stdin.buffer
    try:
        return open(file, "rb")  # the caller closes it
    except OSError as error:
        say(f"cannot read {file}: {error.strerror}")
        return None


# ---- bytes that are not UTF-8 ----

#: What ``surrogateescape`` makes of a byte that is not UTF-8: U+DC80 to U+DCFF.
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")

#: How many characters the picture shows on each side of the caret, as the library's do.
_CONTEXT = 40


def not_utf8(text: str) -> tuple[int, int, int] | None:
    """Where ``text`` holds a byte that is not UTF-8: its position, byte offset and value.

    The commands read their input (lines, arguments, texts) as UTF-8 with
    ``surrogateescape``, which makes each byte that is not UTF-8 a lone
    surrogate from U+DC80 to U+DCFF (UTF-8 itself encodes no surrogate).
    ``None`` if there is none; otherwise the first one's character position,
    its offset in the bytes of ``text``, and the byte.

    >>> not_utf8("http://h/caf\\u00e9/\\udce9")
    (14, 15, 233)
    >>> not_utf8("http://h/caf\\u00e9") is None
    True
    """
    if text.isascii():  # (known to CPython without a look at the characters)
        return None
    found = _ESCAPED_BYTE.search(text)
    if found is None:
        return None
    position = found.start()
    offset = len(text[:position].encode("utf-8", "surrogatepass"))
    return position, offset, ord(text[position]) - 0xDC00


def _not_utf8_reason(offset: int, byte: int) -> str:
    return (
        f"byte 0x{byte:02X} at byte offset {offset} is not UTF-8 "
        f"(a URL writes such an octet as %{byte:02X}, RFC 1738 section 2.2)"
    )


def not_utf8_dict(text: str) -> dict[str, object] | None:
    """The error of a text holding a byte that is not UTF-8, as JSON-ready values (else ``None``).

    The keys of :func:`error_dict` (``position`` in characters, nothing
    ``expected``, no ``rule``), then the ``byte_offset`` and the ``byte``.
    """
    found = not_utf8(text)
    if found is None:
        return None
    position, offset, byte = found
    return {
        "position": position,
        "expected": [],
        "rule": None,
        "reason": _not_utf8_reason(offset, byte),
        "byte_offset": offset,
        "byte": byte,
    }


def not_utf8_message(text: str) -> str | None:
    """What a summary prints for a text holding a byte that is not UTF-8 (else ``None``).

    The reason, then the text with a caret under the byte. As in the
    library's pictures, what is not printable ASCII is an escape; a byte
    that is not UTF-8 (always 0x80 or more) is ``\\xHH``, and a character
    from U+0080 to U+00FF is ``\\u00HH`` (not ``\\xHH``, as the library's
    show it), so that ``é`` and the byte 0xE9 look different.
    """
    found = not_utf8(text)
    if found is None:
        return None
    position, offset, byte = found
    start = max(0, position - _CONTEXT)
    end = min(len(text), position + _CONTEXT)
    before = _shown(text[start:position])
    shown = before + _shown(text[position:end])
    if start > 0:
        shown, before = "..." + shown, "..." + before
    if end < len(text):
        shown += "..."
    return f"{_not_utf8_reason(offset, byte)}\n  {shown}\n  {' ' * len(before)}^"


def _shown(text: str) -> str:
    return "".join(map(_shown_character, text))


def _shown_character(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"
    if 0x80 <= code <= 0xFF:
        return f"\\u{code:04x}"
    return char.encode("unicode_escape").decode("ascii")


def error_dict(error: URLSyntaxError) -> dict[str, object]:
    """Where a URL stops fitting its production, and why, as JSON-ready values."""
    return {
        "position": error.position,
        "expected": sorted(error.expected),
        "rule": error.rule,
        "reason": error.reason,
    }


def error_json(error: URLSyntaxError) -> str:
    """``json.dumps(error_dict(error))``, written without the dictionary."""
    # The details read once, as the error keeps them (the properties read them one by one).
    position, expected, rule, reason = error._resolved()
    if reason is None:  # the default wording, worded now
        reason = error.reason
    details = (expected, rule, reason)
    rest = _WRITTEN.get(details)
    if rest is None:
        rest = (
            f'"expected": {json_value(sorted(expected))}, "rule": {json_value(rule)}, '
            f'"reason": {json_value(reason)}}}'
        )
        if len(_WRITTEN) < _WRITTEN_KEPT and len(reason) <= _REASON_KEPT:
            _WRITTEN[details] = rest
    return f'{{"position": {position}, {rest}'


#: What follows the position, for the details written so far: errors of one
#: grammar come back with a few hundred sets of expected items, a few rules,
#: and reasons that mostly name a character or a production.
_WRITTEN: dict[tuple[frozenset[str], str | None, str], str] = {}
_WRITTEN_KEPT = 4096
_REASON_KEPT = 400


def write_json(data: object, out: TextIO, *, pretty: bool = False) -> None:
    """One JSON document on its own line(s); non-ASCII and lone surrogates as escapes."""
    out.write(json.dumps(data, ensure_ascii=True, indent=2 if pretty else None) + "\n")


def plural(count: int, noun: str) -> str:
    """``1 line``, ``2 lines``, ``0 lines``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
