"""Griffe extension: a package's function that a subpackage of the same name hides.

``rfc1738.parse`` is a function defined in ``rfc1738/__init__.py`` after the
subpackage ``rfc1738/parse/`` is imported, so at run time the name is the
function. Griffe reads the files, not the running package, and gives the name
to the subpackage. This keeps the function reachable for the API page as
``rfc1738.parse()`` (its own path and anchor stay ``rfc1738.parse``), while
``rfc1738.parse`` stays the subpackage that other names resolve through.
"""

from __future__ import annotations

from typing import Any

import griffe


class ShadowedFunctions(griffe.Extension):
    """Give each module-level function hidden by a submodule a second key, ``name()``."""

    def __init__(self) -> None:
        self.functions: list[griffe.Function] = []

    def on_function_instance(self, *, func: griffe.Function, **kwargs: Any) -> None:
        """Remember the functions defined at module level."""
        if isinstance(func.parent, griffe.Module):
            self.functions.append(func)

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Once the package is loaded, list each hidden function again as ``name()``."""
        for func in self.functions:
            module = func.parent
            assert isinstance(module, griffe.Module)
            if module.members.get(func.name) is not func:
                module.members[f"{func.name}()"] = func
