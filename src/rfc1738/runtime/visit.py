"""One way to walk a tree: a method per kind of node, as :class:`ast.NodeVisitor` has.

A :class:`Visitor` calls, for a node, its method named ``visit_`` and the
node's kind (``visit_seq`` for a sequence), or :meth:`Visitor.generic_visit`
where it has none. The compiler's IR and the layouts share the kinds
(``lit``, ``chars``, ``group``, ``seq``, ``alt``, ``rep``; a layout adds
``opt``): :mod:`rfc1738.compile.visit` walks IR nodes, which name their kind;
a layout is a tuple whose first item is its kind, what :meth:`Visitor.kind`
reads unless a subclass says otherwise. A new pass over either is one class.
Imports nothing: the layouts are read at run time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

__all__ = ["Visitor"]

_Result = TypeVar("_Result")


class Visitor(Generic[_Result]):
    """Calls ``visit_<kind>(node, *context)`` for each node it is given.

    ``context`` is passed on as given: what the walk carries down (the
    characters that may follow, whether it is inside a group).
    """

    #: ``visit_<kind>`` methods by kind, collected once per class.
    _methods: ClassVar[dict[str, Callable[..., Any]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._methods = {
            name[len("visit_") :]: getattr(cls, name)
            for name in dir(cls)
            if name.startswith("visit_")
        }

    def kind(self, node: Any) -> str:
        """The kind of ``node``: a layout's first item."""
        return str(node[0])

    def visit(self, node: Any, *context: Any) -> _Result:
        """What this pass makes of ``node``."""
        method = self._methods.get(self.kind(node))
        if method is None:
            return self.generic_visit(node, *context)
        result: _Result = method(self, node, *context)
        return result

    def generic_visit(self, node: Any, *context: Any) -> _Result:
        """A node of a kind this pass has no method for: an error, unless a subclass says."""
        raise TypeError(f"{type(self).__name__} has no visit_{self.kind(node)} for {node!r}")
