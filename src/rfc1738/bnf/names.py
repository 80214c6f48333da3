"""Rule names as Lark's loader writes them, and as the grammar files do."""

from __future__ import annotations

__all__ = ["base_name"]


def base_name(name: str) -> str:
    """A rule's name without the namespace Lark's ``%import`` may give it.

    >>> base_name("common__hostport")
    'hostport'
    """
    return str(name.rpartition("__")[2] if not name.startswith("__") else name)
