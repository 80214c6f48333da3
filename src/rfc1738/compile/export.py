"""Export: a grammar's patterns in one dialect, one per scheme and one for any URL.

Every pattern is anchored at both ends, so a search (``rlike``,
``RegExp.test``, ``re2.search``) is a full match. :func:`export_grammar`
gives one pattern per scheme with its capture groups, and one pattern for
"any RFC 1738 URL" that dispatches on the scheme, without case (section 2.1)
and without lookahead (RE2 has none): the generic branch's scheme is written
as "any scheme but the predefined ones", built from their names.

The groups are the productions a scheme's class reads, and what its
``HOOK_EXPORTS`` add for the fields its hook reads
(:mod:`rfc1738.compile.hooks`): a group for the text the hook cuts (gopher's
``after_gtype``), with each field cut out of it described as a
:class:`~rfc1738.runtime.hooks.Derived` (``ExportedPattern.derived``), or a
group of the field's own (nntp's ``article_number``). The dialects are those
of :mod:`rfc1738.compile.dialects`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from ..bnf.files import GENERIC
from ..errors import GrammarError
from ..runtime.exported import Export, ExportedPattern
from ..runtime.hooks import Derived, HookExport
from ..runtime.hosts import MAX_HOST, MAX_LABEL, MAX_OCTET, MAX_PORT
from .dialects import DIALECTS, JSON_SCHEMA
from .emit import Dialect, Emitter, write
from .hooks import with_hooks
from .ir import Alt, Chars, Group, Lit, Node, NodeVisitor, Rep, Seq, Transform, folded
from .pipeline import CompiledFile, SchemeClasses, captured

__all__ = [
    "OMITS",
    "Export",
    "ExportedPattern",
    "SchemeSource",
    "export_grammar",
    "export_patterns",
    "json_schema_export",
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


def export_grammar(
    parsers: SchemeClasses, dialect: str | Dialect, *, mark_empty: bool = False
) -> Export:
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
            captured(parsers.url_class(scheme)),
            tuple(getattr(parsers.url_class(scheme), "HOOK_EXPORTS", ())),
        )
        for scheme, entry in sorted(parsers.files.items())
    }
    return export_patterns(dialect, sources, generic=GENERIC, omits=OMITS, mark_empty=mark_empty)


def json_schema_export(parsers: SchemeClasses) -> Export:
    """Every scheme of ``parsers`` as JSON Schema patterns (:data:`~.dialects.JSON_SCHEMA`).

    What :mod:`rfc1738.pydantic` gives as its fields' schemas; no dialect
    name of :func:`rfc1738.export` reaches it.
    """
    return export_grammar(parsers, JSON_SCHEMA)


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
        nodes[scheme], derived[scheme] = with_hooks(
            source.grammar, source.start, source.capture, source.hooks
        )
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
        branches.append(_WithoutSchemes(others).visit(nodes[generic]))
    either = Alt(tuple(branches)) if len(branches) > 1 else branches[0]
    anything = write(either, chosen, capture=False)
    captured_either = _exported(chosen, write(either, chosen, mark_empty=mark_empty))
    return Export(chosen.name, schemes, _anchored(chosen, anything.source), omits, captured_either)


def _exported(
    dialect: Dialect, writer: Emitter, derived: Mapping[str, Derived] | None = None
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


def _check_prefix(scheme: str, node: Node) -> None:
    """Make sure ``node`` matches only text that begins with ``scheme:`` (any case).

    The dispatching pattern relies on it: a branch for ``http`` must not
    take a URL of another scheme, which the library would parse with that
    scheme's production.
    """
    prefix = _PREFIX.visit(node)
    wanted = f"{scheme}:"
    if len(prefix) < len(wanted) or any(
        not found <= folded(char) for found, char in zip(prefix, wanted, strict=False)
    ):
        raise GrammarError(
            f"the production of scheme {scheme} does not begin with {wanted!r}: no "
            "pattern can dispatch on the scheme to it"
        )


class _Prefix(NodeVisitor[list[frozenset[str]]]):
    """Character sets every match of a node begins with, one per position."""

    def visit_chars(self, node: Chars) -> list[frozenset[str]]:
        return [node.chars]

    def visit_lit(self, node: Lit) -> list[frozenset[str]]:
        return [folded(c, node.ignore_case) for c in node.text]

    def visit_group(self, node: Group) -> list[frozenset[str]]:
        return self.visit(node.item)

    def visit_seq(self, node: Seq) -> list[frozenset[str]]:
        found: list[frozenset[str]] = []
        for item in node.items:
            found.extend(self.visit(item))
            if not isinstance(item, Chars | Lit):
                break
        return found

    def visit_alt(self, node: Alt) -> list[frozenset[str]]:
        heads = [self.visit(option) for option in node.options]
        size = min(len(head) for head in heads)
        return [frozenset().union(*(head[i] for head in heads)) for i in range(size)]

    def generic_visit(self, node: Node, *context: object) -> list[frozenset[str]]:
        return []


_PREFIX = _Prefix()


class _WithoutSchemes(Transform):
    """The generic tree, its ``scheme`` production narrowed to the schemes not in ``schemes``."""

    def __init__(self, schemes: Collection[str]) -> None:
        self.schemes = schemes

    def visit_group(self, node: Group) -> Node:
        if node.name != "scheme":
            return Group(node.name, self.visit(node.item))
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
        return Group(node.name, _other_words(item.item.chars, self.schemes))


def _other_words(alphabet: frozenset[str], words: Collection[str]) -> Node:
    """One or more characters of ``alphabet``, but none of ``words`` in any case.

    Written as the words' trie: at each node, a character leading to a child,
    any other character of the alphabet and then anything, or (where no word
    ends) nothing more.
    """
    trie: dict[str, object] = {}
    for word in words:
        if all(folded(c) <= alphabet for c in word):
            node = trie
            for char in word.lower():
                node = node.setdefault(char, {})  # type: ignore[assignment]
            node[""] = {}

    def build(node: Mapping[str, object], root: bool) -> Node:
        options: list[Node] = []
        used: set[str] = set()
        for char, child in sorted(node.items()):
            if char:
                used |= folded(char)
                assert isinstance(child, dict)
                options.append(Seq((Chars(folded(char)), build(child, False))))
        rest = alphabet - used
        if rest:
            options.append(Seq((Chars(rest), Rep(Chars(alphabet), 0, None))))
        choice = options[0] if len(options) == 1 else Alt(tuple(options))
        ends_word = "" in node
        return choice if root or ends_word else Rep(choice, 0, 1)

    return build(trie, True)
