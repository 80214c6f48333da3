"""The grammar in other engines' regular-expression dialects: RE2, Java, ECMAScript.

The emitter of :mod:`rfc1738.compile.emit` walks the compiler's IR once per dialect;
each :class:`~rfc1738.compile.emit.Dialect` here says how its engine spells a named
group, a possessive repetition and a character:

- **Python** (``re``, exported): as the fast parser's expressions, but for a
  possessive repetition of a group, written as an atomic group around the
  greedy one (``(?>(?:x)*)``), which CPython 3.11.0 to 3.11.4 match right
  too (:mod:`rfc1738.runtime.possessive`).
- **RE2** (Google RE2, DuckDB, BigQuery, ``google-re2``) never backtracks, so
  it has no possessive quantifiers and needs none: ``x*+`` is written ``x*``.
- **Java** (``java.util.regex``, Spark SQL's ``rlike``/``regexp_extract``)
  backtracks and has possessive quantifiers, so it gets the same forms as
  Python, but for repetitions that hold a capture group (Java would keep a
  stale capture from them); its group names allow no ``_``
  (``ip_schemepart`` is ``ipschemepart``, the second ``host`` group
  ``host2``).
- **ECMAScript** (``RegExp``, node, browsers) backtracks and has no possessive
  quantifiers: ``x*+`` is written ``(?=(x*))\\N``, a lookahead (which never
  gives back what it matched) capturing the run and a back-reference
  consuming it: the same language, the same linear cost. Inside such a
  lookahead repetitions are plain greedy ones, and a pattern that would need
  more groups than V8's fast path holds (63) is written with greedy
  repetitions throughout, its runs unrolled (``Emitter.greedy`` in
  :mod:`rfc1738.compile.emit`).

:mod:`rfc1738.compile.export` writes a grammar's patterns in one of them;
what an export gives, :class:`~rfc1738.runtime.exported.Export`, is defined
apart, so that ``import rfc1738`` has it without the writers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..runtime.exported import Export, ExportedPattern
from .emit import PYTHON_FORMS, Dialect, Emitter

__all__ = [
    "DIALECTS",
    "ECMASCRIPT",
    "JAVA",
    "JSON_SCHEMA",
    "PORTABLE_PYTHON",
    "RE2",
    "Dialect",
    "Export",
    "ExportedPattern",
]

#: Characters with a meaning outside a class in at least one dialect.
_SPECIAL = frozenset("\\^$.|?*+()[]{}")


class _Portable(Dialect):
    """Escapes that every engine reads the same way (not Python's ``re.escape``)."""

    def literal_char(self, char: str) -> str:
        if char in _SPECIAL:
            return "\\" + char
        code = ord(char)
        if 0x20 < code < 0x7F:
            return char
        return self.class_char(code)


class _RE2(_Portable):
    """RE2: a linear-time engine, so no possessive quantifiers (it has none)."""

    name = "re2"
    begin, end = "^", "$"
    possessive_runs = False

    def possessive(self, writer: Emitter, body: Callable[[], str], quantifier: str) -> str:
        return writer.atom(body()) + quantifier

    def class_char(self, code: int) -> str:
        if code > 0xFF:
            return f"\\x{{{code:04x}}}"
        return super().class_char(code)


class _Java(_Portable):
    """``java.util.regex``: possessive quantifiers as in Python; no ``_`` in group names."""

    name = "java"
    begin, end = r"\A", r"\z"
    # A group inside x?+ or x*+ keeps its capture when the match backtracks
    # past it (the possessive loop does not undo what its body set): such
    # repetitions are written greedy. None of them repeats, so the stack
    # stays flat; the runs of characters stay possessive.
    possessive_groups = False

    def group_name(self, production: str, taken: int) -> str:
        name = production.replace("_", "")
        return name if not taken else f"{name}{taken + 1}"

    def named_group(self, name: str, body: str) -> str:
        return f"(?<{name}>{body})"


class _ECMAScript(_Portable):
    """ECMAScript ``RegExp`` (no flags): atomic runs through a lookahead and a back-reference."""

    name = "ecmascript"
    begin, end = "^", "$"

    def literal_char(self, char: str) -> str:
        # Escaped so that the pattern can also be written as a /.../ literal.
        return "\\/" if char == "/" else super().literal_char(char)

    def named_group(self, name: str, body: str) -> str:
        return f"(?<{name}>{body})"

    # V8 matches a pattern with more capture groups than fit its static
    # offsets vector (128 integers: 63 groups and the whole match) through
    # the runtime, which took five times as long per character of a long
    # input on the dispatching pattern, and grew with it.
    max_groups = 63

    def possessive(self, writer: Emitter, body: Callable[[], str], quantifier: str) -> str:
        if writer.atomic:
            # Inside a lookahead, which gives back nothing once it has matched,
            # a repetition the writer found possessive is written greedy: it
            # never needs to give back either (emit._possessive), and V8 keeps
            # no capture registers on its backtracking stack for each of its
            # iterations (a long host name took four times as long and ran out
            # of stack at half the length).
            return writer.atom(body()) + quantifier
        # The group's number is taken before the body is written: groups inside
        # the body open after this one.
        number = writer.new_group()
        writer.atomic += 1
        try:
            inner = body()
        finally:
            writer.atomic -= 1
        return f"(?=({writer.atom(inner)}{quantifier}))(?:\\{number})"


class _JSONSchema(_ECMAScript):
    """A JSON Schema ``pattern``: ECMAScript that Python's ``re`` (``jsonschema``) reads alike.

    Plain groups, numbered as the ECMAScript export's named ones are (Python
    spells a name ``(?P<``, and the back-references use numbers), and the end
    written as "no character follows" (Python's ``$`` also matches before a
    final newline). Not a dialect of :func:`rfc1738.export`: what
    :mod:`rfc1738.pydantic` gives as a field's schema.
    """

    name = "json-schema"
    end = r"(?![\s\S])"

    def named_group(self, name: str, body: str) -> str:
        return f"({body})"


#: Python's ``re``, in a form every Python 3.11 and later matches alike: the
#: fast parser runs a possessive repetition of a group (``(?:x)*+``) where the
#: running Python matches it right (:mod:`rfc1738.runtime.possessive`: CPython
#: 3.11.0 to 3.11.4 do not); an exported pattern may run on another Python,
#: so there it is an atomic group around the greedy repetition
#: (``(?>(?:x)*)``), the same language, which those read right too: the
#: tables' atomic form. Runs of one class stay possessive (``[c]*+``).
PORTABLE_PYTHON: Dialect = PYTHON_FORMS["atomic"]
RE2: Dialect = _RE2()
JAVA: Dialect = _Java()
ECMASCRIPT: Dialect = _ECMAScript()
JSON_SCHEMA: Dialect = _JSONSchema()

#: The dialects by the name :func:`rfc1738.export` and the command line take.
DIALECTS: Mapping[str, Dialect] = {d.name: d for d in (PORTABLE_PYTHON, RE2, JAVA, ECMASCRIPT)}
