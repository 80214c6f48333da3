"""The grammar in other engines' regular-expression dialects: RE2, Java, ECMAScript.

The writer of :mod:`rfc1738.compile.emit` walks the compiler's IR once per dialect;
each :class:`~rfc1738.regex.Dialect` here says how its engine spells a named
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
  repetitions throughout, its runs unrolled (``Writer.greedy`` in
  :mod:`rfc1738.compile.emit`).

The patterns are written from the compiler's IR (:mod:`rfc1738.compile.pipeline`,
which reads the grammar files with Lark); what an export gives,
:class:`~rfc1738.runtime.exported.Export`, is defined apart, so that
``import rfc1738`` has it without the writers.

Every pattern is anchored at both ends, so a search (``rlike``,
``RegExp.test``, ``re2.search``) is a full match. :func:`export` gives one
pattern per scheme with its capture groups, and one pattern for "any RFC 1738
URL" that dispatches on the scheme, without case (section 2.1) and without
lookahead (RE2 has none): the generic branch's scheme is written as "any
scheme but the predefined ones", built from their names.

The groups are the productions a scheme's class reads, and what its
``HOOK_EXPORTS`` add for the fields its hook reads (:mod:`rfc1738.runtime.hooks`):
a group for the text the hook cuts (gopher's ``after_gtype``), with each
field cut out of it described as a :class:`~rfc1738.runtime.hooks.Derived`
(``ExportedPattern.derived``), or a group of the field's own (nntp's
``article_number``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..bnf.files import GENERIC
from ..errors import GrammarError
from ..runtime.exported import Export, ExportedPattern
from ..runtime.hooks import Derived, HookExport, OwnGroup, SplitAfter
from ..runtime.hosts import CHECKED_PRODUCTIONS, MAX_HOST, MAX_LABEL, MAX_OCTET, MAX_PORT
from ..runtime.layout import literal_before
from ..runtime.possessive import repetition
from .emit import Dialect, Writer, write
from .ir import Alt, Chars, Group, Lit, Node, Rep, Seq
from .pipeline import CompiledFile

if TYPE_CHECKING:
    from ..urls.grammar import Grammar

__all__ = [
    "DIALECTS",
    "ECMASCRIPT",
    "JAVA",
    "OMITS",
    "PORTABLE_PYTHON",
    "RE2",
    "Export",
    "ExportedPattern",
    "SchemeSource",
    "export_grammar",
    "export_patterns",
]

#: What no exported pattern checks: the host checks beyond the grammar
#: (:mod:`rfc1738.runtime.hosts`), to be done on the captured groups.
OMITS = (
    f"host: a label of at most {MAX_LABEL} characters, a host name of at most {MAX_HOST} "
    "(RFC 1034 section 3.5, RFC 1123 section 2.1); check them on the host group",
    f"hostnumber: each of its four parts at most {MAX_OCTET}, and at most {MAX_HOST} "
    "characters in all; check them on the hostnumber group",
    f"port: at most {MAX_PORT}; check it on the port group",
)

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

    def possessive(self, writer: Writer, body: Callable[[], str], quantifier: str) -> str:
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

    def possessive(self, writer: Writer, body: Callable[[], str], quantifier: str) -> str:
        if writer.atomic:
            # Inside a lookahead, which gives back nothing once it has matched,
            # a repetition the writer found possessive is written greedy: it
            # never needs to give back either (regex._possessive), and V8 keeps
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


class _PortablePython(Dialect):
    """Python's ``re``, in a form every Python 3.11 and later matches alike.

    The fast parser runs a possessive repetition of a group (``(?:x)*+``)
    where the running Python matches it right (:mod:`rfc1738.runtime.possessive`:
    CPython 3.11.0 to 3.11.4 do not); an exported pattern may run on another
    Python, so there it is an atomic group around the greedy repetition
    (``(?>(?:x)*)``), the same language, which those read right too. Runs of
    one class stay possessive (``[c]*+``).
    """

    def possessive(self, writer: Writer, body: Callable[[], str], quantifier: str) -> str:
        return repetition(writer.atom(body()), quantifier, "atomic")


PORTABLE_PYTHON: Dialect = _PortablePython()
RE2: Dialect = _RE2()
JAVA: Dialect = _Java()
ECMASCRIPT: Dialect = _ECMAScript()

#: The dialects by the name :func:`export` and the command line take.
DIALECTS: Mapping[str, Dialect] = {d.name: d for d in (PORTABLE_PYTHON, RE2, JAVA, ECMASCRIPT)}


@dataclass(frozen=True, slots=True)
class SchemeSource:
    """Where one scheme's pattern comes from: its file, start rule and captured productions.

    ``hooks`` are the class's ``HOOK_EXPORTS``: the groups and cuts that give
    the fields its hook reads (:mod:`rfc1738.runtime.hooks`).
    """

    grammar: CompiledFile
    start: str
    capture: Collection[str]
    hooks: tuple[HookExport, ...] = ()


def export_grammar(parsers: Grammar, dialect: str | Dialect, *, mark_empty: bool = False) -> Export:
    """Every scheme of ``parsers`` in ``dialect``, capturing what its URL class reads.

    The groups are those of the fast parser (the productions the scheme's
    class reads and those the host checks read) and those the class's
    ``HOOK_EXPORTS`` add for the fields its hook reads. The host checks
    themselves are left out (:data:`OMITS`).
    """
    sources = {
        scheme: SchemeSource(
            parsers.tables.compiled_file(scheme),
            entry.start,
            parsers.url_class(scheme).PRODUCTIONS | CHECKED_PRODUCTIONS,
            tuple(getattr(parsers.url_class(scheme), "HOOK_EXPORTS", ())),
        )
        for scheme, entry in sorted(parsers.files.items())
    }
    return export_patterns(dialect, sources, generic=GENERIC, omits=OMITS, mark_empty=mark_empty)


def export_patterns(
    dialect: str | Dialect,
    sources: Mapping[str, SchemeSource],
    *,
    generic: str = GENERIC,
    omits: tuple[str, ...] = (),
    mark_empty: bool = False,
) -> Export:
    """Write every scheme of ``sources`` in ``dialect``, and the dispatching pattern.

    ``generic`` names the source that serves every scheme without a file of
    its own; its ``scheme`` production must be a run of one character class.
    ``mark_empty`` adds a marker group to each captured production that may
    be empty (see :func:`~rfc1738.compile.emit.write`): engines such
    as Spark's ``regexp_extract`` give ``""`` for a group that took no part.
    """
    chosen = _dialect(dialect)
    nodes: dict[str, Node] = {}
    derived: dict[str, dict[str, Derived]] = {}
    for scheme, source in sources.items():
        nodes[scheme], derived[scheme] = _with_hooks(source)
    schemes = {
        scheme: _exported(chosen, write(node, chosen, mark_empty=mark_empty), derived[scheme])
        for scheme, node in nodes.items()
    }
    branches = [node for scheme, node in nodes.items() if scheme != generic]
    for scheme, node in nodes.items():
        if scheme != generic:
            _check_prefix(scheme, node)
    if generic in nodes:
        others = [scheme for scheme in nodes if scheme != generic]
        branches.append(_without_schemes(nodes[generic], others))
    either = Alt(tuple(branches)) if len(branches) > 1 else branches[0]
    anything = write(either, chosen, capture=False)
    captured = _exported(chosen, write(either, chosen, mark_empty=mark_empty))
    return Export(chosen.name, schemes, _anchored(chosen, anything.source), omits, captured)


def _exported(
    dialect: Dialect, writer: Writer, derived: Mapping[str, Derived] | None = None
) -> ExportedPattern:
    production = {name: p for p, names in writer.names().items() for name in names}
    # In the order the groups open (their numbers).
    groups = {
        name: production[name] for name in sorted(writer.numbers, key=writer.numbers.__getitem__)
    }
    return ExportedPattern(
        _anchored(dialect, writer.source),
        groups,
        dict(writer.numbers),
        dict(writer.markers),
        dict(derived or {}),
    )


def _with_hooks(source: SchemeSource) -> tuple[Node, dict[str, Derived]]:
    """The scheme's tree with the groups its hooks need, and the fields cut out of them."""
    own = {hook.production for hook in source.hooks if isinstance(hook, OwnGroup)}
    node = source.grammar.ir(source.start, frozenset(source.capture) | own)
    derived: dict[str, Derived] = {}
    for hook in source.hooks:
        if isinstance(hook, OwnGroup):
            node = _own_group(node, hook, str(source.grammar.path))
            continue
        node = _capture_after(node, hook, str(source.grammar.path))
        separator = _literal_before(source, hook.at)
        pair = "" if hook.pairs is None else _literal_before(source, hook.pairs)
        derived.update(hook.derive(separator, pair))
    return node, derived


def _literal_before(source: SchemeSource, production: str) -> str:
    """The literal ``source``'s start rule writes before ``production`` (gopher's ``%09``)."""
    try:
        return literal_before(source.grammar.layout(source.start, {production}), production)
    except ValueError:
        raise GrammarError(
            f"{source.start} writes no literal before {production}: no field can be cut there",
            file=str(source.grammar.path),
        ) from None


def _own_group(node: Node, hook: OwnGroup, path: str) -> Node:
    """``node`` with ``hook.production`` captured, as ``hook.field``, only outside other groups."""
    found = 0

    def walk(node: Node, inside: bool) -> Node:
        nonlocal found
        if isinstance(node, Group):
            if node.name != hook.production:
                return Group(node.name, walk(node.item, True))
            if inside:
                return walk(node.item, True)  # the port's digits: the port's group holds them
            found += 1
            return Group(hook.field, walk(node.item, True))
        if isinstance(node, Seq):
            return Seq(tuple(walk(item, inside) for item in node.items))
        if isinstance(node, Alt):
            return Alt(tuple(walk(option, inside) for option in node.options))
        if isinstance(node, Rep):
            return Rep(walk(node.item, inside), node.low, node.high)
        return node

    written = walk(node, False)
    if not found:
        raise GrammarError(
            f"{hook.production} stands nowhere outside another field: no group can hold "
            f"{hook.field}",
            file=path,
        )
    return written


def _capture_after(node: Node, hook: SplitAfter, path: str) -> Node:
    """``node`` with the text after group ``hook.after``, to the end of the match, captured.

    The text is what follows the production in its sequence; every part of
    the tree around that sequence must end where it ends (an optional part
    at the end of the start rule), so that the text runs to the end of the URL.
    """
    found = misplaced = 0

    def walk(node: Node, at_end: bool) -> Node:
        nonlocal found, misplaced
        if isinstance(node, Seq):
            items = node.items
            for index, item in enumerate(items):
                if isinstance(item, Group) and item.name == hook.after:
                    if not at_end:
                        misplaced += 1
                        break
                    found += 1
                    rest = items[index + 1 :] or (Lit(""),)
                    after = Group(hook.group, rest[0] if len(rest) == 1 else Seq(rest))
                    return Seq((*items[: index + 1], after))
            last = len(items) - 1
            return Seq(tuple(walk(item, at_end and i == last) for i, item in enumerate(items)))
        if isinstance(node, Alt):
            return Alt(tuple(walk(option, at_end) for option in node.options))
        if isinstance(node, Rep):
            return Rep(walk(node.item, at_end and node.high == 1), node.low, node.high)
        if isinstance(node, Group):
            return Group(node.name, walk(node.item, at_end))
        return node

    written = walk(node, True)
    if misplaced or not found:
        raise GrammarError(
            f"nothing follows {hook.after} to the end of the URL in one part of the "
            f"production: no group can hold the text {', '.join(hook.fields)} are cut from",
            file=path,
        )
    return written


def _dialect(dialect: str | Dialect) -> Dialect:
    if isinstance(dialect, Dialect):
        return dialect
    try:
        return DIALECTS[dialect]
    except KeyError:
        known = ", ".join(DIALECTS)
        raise ValueError(f"unknown dialect {dialect!r}: one of {known}") from None


def _anchored(dialect: Dialect, source: str) -> str:
    return f"{dialect.begin}(?:{source}){dialect.end}"


def _letters(char: str) -> frozenset[str]:
    """``char`` and, for an ASCII letter, its other case (section 2.1)."""
    if char.isascii() and char.isalpha():
        return frozenset({char.lower(), char.upper()})
    return frozenset({char})


def _check_prefix(scheme: str, node: Node) -> None:
    """Make sure ``node`` matches only text that begins with ``scheme:`` (any case).

    The dispatching pattern relies on it: a branch for ``http`` must not
    take a URL of another scheme, which the library would parse with that
    scheme's production.
    """
    prefix = _prefix(node)
    wanted = f"{scheme}:"
    if len(prefix) < len(wanted) or any(
        not found <= _letters(char) for found, char in zip(prefix, wanted, strict=False)
    ):
        raise GrammarError(
            f"the production of scheme {scheme} does not begin with {wanted!r}: no "
            "pattern can dispatch on the scheme to it"
        )


def _prefix(node: Node) -> list[frozenset[str]]:
    """Character sets every match of ``node`` begins with, one per position."""
    if isinstance(node, Chars):
        return [node.chars]
    if isinstance(node, Lit):
        return [_letters(c) if node.ignore_case else frozenset({c}) for c in node.text]
    if isinstance(node, Group):
        return _prefix(node.item)
    if isinstance(node, Seq):
        found: list[frozenset[str]] = []
        for item in node.items:
            head = _prefix(item)
            found.extend(head)
            if not isinstance(item, Chars | Lit):
                break
        return found
    if isinstance(node, Alt):
        heads = [_prefix(option) for option in node.options]
        size = min(len(head) for head in heads)
        return [frozenset().union(*(head[i] for head in heads)) for i in range(size)]
    return []


def _without_schemes(generic: Node, schemes: Collection[str]) -> Node:
    """``generic`` with its ``scheme`` production narrowed to the schemes not in ``schemes``."""

    def narrowed(node: Node) -> Node:
        if isinstance(node, Group):
            if node.name != "scheme":
                return Group(node.name, narrowed(node.item))
            item = node.item
            if not (
                isinstance(item, Rep)
                and isinstance(item.item, Chars)
                and item.low == 1
                and item.high is None
            ):
                raise GrammarError(
                    "the generic production's scheme is not a run of one character class: "
                    "no pattern can tell the predefined schemes from it"
                )
            return Group(node.name, _other_words(item.item.chars, schemes))
        if isinstance(node, Seq):
            return Seq(tuple(narrowed(item) for item in node.items))
        if isinstance(node, Alt):
            return Alt(tuple(narrowed(option) for option in node.options))
        if isinstance(node, Rep):
            return Rep(narrowed(node.item), node.low, node.high)
        return node

    return narrowed(generic)


def _other_words(alphabet: frozenset[str], words: Collection[str]) -> Node:
    """One or more characters of ``alphabet``, but none of ``words`` in any case.

    Written as the words' trie: at each node, a character leading to a child,
    any other character of the alphabet and then anything, or (where no word
    ends) nothing more.
    """
    trie: dict[str, object] = {}
    for word in words:
        if all(_letters(c) <= alphabet for c in word):
            node = trie
            for char in word.lower():
                node = node.setdefault(char, {})  # type: ignore[assignment]
            node[""] = {}

    def build(node: Mapping[str, object], root: bool) -> Node:
        options: list[Node] = []
        used: set[str] = set()
        for char, child in sorted(node.items()):
            if char:
                used |= _letters(char)
                assert isinstance(child, dict)
                options.append(Seq((Chars(_letters(char)), build(child, False))))
        rest = alphabet - used
        if rest:
            options.append(Seq((Chars(rest), Rep(Chars(alphabet), 0, None))))
        choice = options[0] if len(options) == 1 else Alt(tuple(options))
        ends_word = "" in node
        return choice if root or ends_word else Rep(choice, 0, 1)

    return build(trie, True)
