"""What :func:`rfc1738.export` gives: the patterns of a grammar in one regex dialect.

Plain records, so that ``import rfc1738`` has the type without the writers:
the patterns themselves are written by :mod:`rfc1738.parse.dialects` from
the compiler's IR, when a grammar is exported.
"""

# No `from __future__ import annotations`: the NamedTuple fields' annotations stay
# types, not strings that typing compiles one by one at import (docs/architecture.md).
from collections.abc import Mapping
from typing import NamedTuple

__all__ = ["Export", "ExportedPattern"]


class ExportedPattern(NamedTuple):
    """One scheme's full-match pattern in one dialect."""

    #: The pattern, anchored at both ends.
    pattern: str
    #: Capture group name → the production (object field) it holds.
    groups: Mapping[str, str]
    #: Capture group name → its number (for ``regexp_extract(col, pattern, n)``).
    numbers: Mapping[str, int]
    #: Group name → the number of its marker group, for groups that may be
    #: empty (``mark_empty``): not empty exactly when the group took part.
    markers: Mapping[str, int]

    def fields(self) -> dict[str, tuple[int, ...]]:
        """Production → the numbers of the groups that may hold it, in order.

        A production reached along several alternatives (wais' ``host``) has
        one group per alternative; at most one of them takes part in a match.
        """
        found: dict[str, list[int]] = {}
        for group, production in self.groups.items():
            found.setdefault(production, []).append(self.numbers[group])
        return {production: tuple(numbers) for production, numbers in found.items()}


class Export(NamedTuple):
    """A grammar written in one dialect: what ``rfc1738 grammar export`` prints."""

    dialect: str
    #: Scheme (a grammar file's name; ``generic`` for every other scheme) → its pattern.
    schemes: Mapping[str, ExportedPattern]
    #: One pattern for any URL: the scheme (without case) picks the production.
    any: str
    #: What the patterns leave out, to be checked on the captured groups.
    omits: tuple[str, ...]
    #: :attr:`any` with every scheme's groups (a production has a group per
    #: scheme that has it; only the matching scheme's take part).
    any_groups: ExportedPattern

    def as_json(self) -> dict[str, object]:
        """The JSON form: ``{"dialect", "schemes": {s: {"pattern", "groups"}}, "any", "omits"}``."""
        return {
            "dialect": self.dialect,
            "schemes": {
                scheme: {"pattern": found.pattern, "groups": dict(found.groups)}
                for scheme, found in self.schemes.items()
            },
            "any": {"pattern": self.any},
            "omits": list(self.omits),
        }
