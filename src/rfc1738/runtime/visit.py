"""The visitor the two tree vocabularies share: the compiler's IR and the layouts objects write by.

A pass over a tree is a class with one method per kind of node it treats,
named after the kind (``seq``, ``alt``, ``group``, ...): :meth:`Visitor.visit`
calls the method of a node's kind, as :meth:`Visitor.kind` reads it, with
the node and whatever the pass carries along. A kind the pass has no method
for goes to :meth:`Visitor.other`. A new pass is one class, not another
chain of ``isinstance`` or ``node[0] ==`` tests.
"""

from typing import Any, Generic, TypeVar

__all__ = ["Visitor"]

R = TypeVar("R")


class Visitor(Generic[R]):
    """A pass over a tree: ``visit(node, *context)`` runs the method named after ``node``'s kind."""

    def kind(self, node: Any) -> str:
        """The name of ``node``'s kind: its class's ``KIND`` (a layout's is its first item)."""
        return str(node.KIND)

    def visit(self, node: Any, *context: Any) -> R:
        """What the pass gives for ``node``, with ``context`` (a position, a reason) passed on."""
        method = getattr(self, self.kind(node), None)
        if method is None:
            return self.other(node, *context)
        result: R = method(node, *context)
        return result

    def other(self, node: Any, *context: Any) -> R:
        """A node of a kind the pass has no method for: an error, unless the pass says otherwise."""
        raise TypeError(f"{type(self).__name__} has no method for a {self.kind(node)!r} node")
