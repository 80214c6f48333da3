"""A scheme's hooks lowered into its tree: the groups that give the fields a hook reads.

A URL class whose hook reads a field section 3 cuts further than the grammar
declares how an export gives it (``HOOK_EXPORTS``, :mod:`rfc1738.runtime.hooks`):
the text after a production captured to the end of the URL, with the fields
cut out of it at the literals the start rule writes (:class:`SplitAfter`,
gopher's ``after_gtype``), or a production in a group of its own
(:class:`OwnGroup`, nntp's ``article_number``). :func:`with_hooks` puts those
groups into the start rule's tree and says how each field is cut
(:class:`~rfc1738.runtime.hooks.Derived`).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from ..errors import GrammarError
from ..runtime.hooks import Derived, HookExport, OwnGroup, SplitAfter
from ..runtime.layout import literal_before
from .ir import Group, Lit, Node, Rep, Seq, Transform

if TYPE_CHECKING:
    from .pipeline import CompiledFile

__all__ = ["with_hooks"]


def with_hooks(
    file: CompiledFile, start: str, capture: Collection[str], hooks: tuple[HookExport, ...]
) -> tuple[Node, dict[str, Derived]]:
    """``start``'s simplified tree capturing ``capture`` and the groups ``hooks`` need.

    Also gives the fields cut out of those groups, by field.
    """
    own = {hook.production for hook in hooks if isinstance(hook, OwnGroup)}
    node = file.ir(start, frozenset(capture) | own)
    derived: dict[str, Derived] = {}
    for hook in hooks:
        if isinstance(hook, OwnGroup):
            node = _OwnGroup(hook).written(node, str(file.path))
            continue
        node = _CaptureAfter(hook).written(node, str(file.path))
        derived.update(hook.cuts(lambda production: _literal_before(file, start, production)))
    return node, derived


def _literal_before(file: CompiledFile, start: str, production: str) -> str:
    """The literal ``start`` writes before ``production`` (gopher's ``%09``)."""
    try:
        return literal_before(file.layout(start, {production}), production)
    except ValueError:
        raise GrammarError(
            f"{start} writes no literal before {production}: no field can be cut there",
            file=str(file.path),
        ) from None


class _OwnGroup(Transform):
    """The tree with ``hook.production`` captured, as ``hook.field``, only outside other groups.

    The walk carries whether it is inside a group.
    """

    def __init__(self, hook: OwnGroup) -> None:
        self.hook = hook
        self.found = 0

    def written(self, node: Node, path: str) -> Node:
        written = self.visit(node, False)
        if not self.found:
            raise GrammarError(
                f"{self.hook.production} stands nowhere outside another field: no group can "
                f"hold {self.hook.field}",
                file=path,
            )
        return written

    def visit_group(self, node: Group, inside: bool) -> Node:
        if node.name != self.hook.production:
            return Group(node.name, self.visit(node.item, True))
        if inside:
            return self.visit(node.item, True)  # the port's digits: the port's group holds them
        self.found += 1
        return Group(self.hook.field, self.visit(node.item, True))


class _CaptureAfter(Transform):
    """The tree with the text after group ``hook.after``, to the end of the match, captured.

    The text is what follows the production in its sequence; every part of
    the tree around that sequence must end where it ends (an optional part
    at the end of the start rule), so that the text runs to the end of the
    URL. The walk carries whether the node ends where the match ends.
    """

    def __init__(self, hook: SplitAfter) -> None:
        self.hook = hook
        self.found = self.misplaced = 0

    def written(self, node: Node, path: str) -> Node:
        written = self.visit(node, True)
        if self.misplaced or not self.found:
            raise GrammarError(
                f"nothing follows {self.hook.after} to the end of the URL in one part of the "
                f"production: no group can hold the text {', '.join(self.hook.fields)} are cut "
                "from",
                file=path,
            )
        return written

    def visit_seq(self, node: Seq, at_end: bool) -> Node:
        items = node.items
        for index, item in enumerate(items):
            if isinstance(item, Group) and item.name == self.hook.after:
                if not at_end:
                    self.misplaced += 1
                    break
                self.found += 1
                rest = items[index + 1 :] or (Lit(""),)
                after = Group(self.hook.group, rest[0] if len(rest) == 1 else Seq(rest))
                return Seq((*items[: index + 1], after))
        last = len(items) - 1
        return Seq(tuple(self.visit(item, at_end and i == last) for i, item in enumerate(items)))

    def visit_rep(self, node: Rep, at_end: bool) -> Node:
        return Rep(self.visit(node.item, at_end and node.high == 1), node.low, node.high)
