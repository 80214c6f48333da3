"""Small immutable records: what a frozen dataclass gives, for classes on the import path.

A frozen dataclass (or a ``typing.NamedTuple``) is made by code that
``dataclasses`` (or ``typing``) writes and compiles when its class statement
runs: about a millisecond, or a few hundred microseconds, of ``import rfc1738``
each. A :class:`Record` subclass names its fields in ``_fields``, in order
(and makes them its ``__slots__``), annotates them for type checkers, and sets
them in its ``__init__`` with :meth:`Record._fill`; the rest is here, written
once:

- equality (same class, equal fields) and a hash of the fields;
- ``repr`` as a dataclass writes it, ``Name(field=value, ...)``;
- immutability: assigning or deleting a field raises ``AttributeError``;
- pickling and copying (by the fields, in order), and ``__match_args__``.

Unlike a ``NamedTuple``, a record is no tuple: it neither iterates nor
equals a tuple of its fields.
"""

from __future__ import annotations

from typing import Any, ClassVar, NoReturn

__all__ = ["Record"]


class Record:
    """The base of a small immutable record; see the module's description."""

    __slots__ = ()

    #: The fields, in order (a subclass's ``__slots__`` too).
    _fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        setattr(cls, "__match_args__", cls._fields)  # noqa: B010 - a name type checkers guard

    def _fill(self, *values: object) -> None:
        """Set the fields, in the order of ``_fields`` (for ``__init__``)."""
        for name, value in zip(self._fields, values, strict=True):
            object.__setattr__(self, name, value)

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self._fields])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({shown})"

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), self._values())
