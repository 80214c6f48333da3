"""What :func:`rfc1738.export` gives: the patterns of a grammar in one regex dialect.

Small records (:class:`~rfc1738._records.Record`) in a module of their own,
so that ``import rfc1738`` has the types without the writers: the patterns
are written by :mod:`rfc1738.compile.dialects` from the compiler's IR, when a
grammar is exported. The dialects' names are here too (:data:`DIALECT_NAMES`),
so that the command line offers them without importing the compiler.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._records import Record
from .hooks import Derived

__all__ = ["DIALECT_NAMES", "Export", "ExportedPattern"]

#: The regex dialects a grammar is exported in, by the names :func:`rfc1738.export`
#: and ``rfc1738 grammar export --dialect`` take (:data:`rfc1738.compile.dialects.DIALECTS`).
DIALECT_NAMES = ("python", "re2", "java", "ecmascript")


class ExportedPattern(Record):
    """One scheme's full-match pattern in one dialect."""

    _fields = ("pattern", "groups", "numbers", "markers", "derived")
    __slots__ = _fields
    #: The pattern, anchored at both ends.
    pattern: str
    #: Capture group name → the production (object field) it holds.
    groups: Mapping[str, str]
    #: Capture group name → its number (for ``regexp_extract(col, pattern, n)``).
    numbers: Mapping[str, int]
    #: Group name → the number of its marker group, for groups that may be
    #: empty (``mark_empty``): not empty exactly when the group took part.
    markers: Mapping[str, int]
    #: Field → how it is cut out of a group's text: the fields of the
    #: scheme's objects that no group holds (gopher's selector, search and
    #: gopher+ string, prospero's fieldspecs).
    derived: Mapping[str, Derived]

    def __init__(
        self,
        pattern: str,
        groups: Mapping[str, str],
        numbers: Mapping[str, int],
        markers: Mapping[str, int],
        derived: Mapping[str, Derived] | None = None,
    ) -> None:
        self._fill(pattern, groups, numbers, markers, {} if derived is None else derived)

    def fields(self) -> dict[str, tuple[int, ...]]:
        """Production → the numbers of the groups that may hold it, in order.

        A production reached along several alternatives (wais' ``host``) has
        one group per alternative; at most one of them takes part in a match.
        """
        found: dict[str, list[int]] = {}
        for group, production in self.groups.items():
            found.setdefault(production, []).append(self.numbers[group])
        return {production: tuple(numbers) for production, numbers in found.items()}


class Export(Record):
    """A grammar written in one dialect: what ``rfc1738 grammar export`` prints."""

    _fields = ("dialect", "schemes", "any", "omits", "any_groups")
    __slots__ = _fields
    dialect: str
    #: Scheme (a grammar file's name; ``generic`` for every other scheme) → its pattern.
    schemes: Mapping[str, ExportedPattern]
    #: One pattern for any URL: the scheme (without case) picks the production.
    any: str
    #: What the patterns leave out, to be checked on the captured groups.
    omits: tuple[str, ...]
    #: :attr:`any` with every scheme's groups (a production has a group per
    #: scheme that has it; only the matching scheme's take part). The fields
    #: cut out of a group are in each scheme's ``derived``.
    any_groups: ExportedPattern

    def __init__(
        self,
        dialect: str,
        schemes: Mapping[str, ExportedPattern],
        any: str,
        omits: tuple[str, ...],
        any_groups: ExportedPattern,
    ) -> None:
        self._fill(dialect, schemes, any, omits, any_groups)

    def as_json(self) -> dict[str, object]:
        """The JSON form: ``{"dialect", "schemes": {s: {"pattern", "groups", "derived"}}, ...}``.

        ``"derived"`` maps a field no group holds to :meth:`Derived.as_json`;
        ``"any"`` holds the dispatching pattern, ``"omits"`` what no pattern checks.
        """
        return {
            "dialect": self.dialect,
            "schemes": {
                scheme: {
                    "pattern": found.pattern,
                    "groups": dict(found.groups),
                    "derived": {name: cut.as_json() for name, cut in found.derived.items()},
                }
                for scheme, found in self.schemes.items()
            },
            "any": {"pattern": self.any},
            "omits": list(self.omits),
        }
