"""How :meth:`URL.replace` writes each decoded field back into a URL.

Each public field of a URL class maps to one of these: it takes the decoded
value the caller gives and returns the text to put in the URL (escaped where
section 2.2 requires, with the characters of the field's own production,
read from the grammar), stored under the name of the raw field it sets.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._text import escape, rule_chars, terminal_chars

__all__ = [
    "Escaped",
    "Field",
    "Number",
    "OneChar",
    "Pairs",
    "Path",
    "Segments",
    "Verbatim",
]


@dataclass(frozen=True, slots=True)
class Field:
    """A field that sets the raw field ``raw``; ``optional``: it may be ``None``."""

    raw: str
    optional: bool = True

    def encode(self, name: str, value: object) -> object:
        """The raw value for ``value`` (``name`` is the field's name, for errors)."""
        if value is None:
            if not self.optional:
                raise ValueError(f"{name} cannot be None")
            return None
        return self.write(name, value)

    def write(self, name: str, value: object) -> object:
        raise NotImplementedError


def _text(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    return value


@dataclass(frozen=True, slots=True)
class Verbatim(Field):
    """A field that is never escaped (a host, a news group): written as given."""

    def write(self, name: str, value: object) -> str:
        return _text(name, value)


@dataclass(frozen=True, slots=True)
class Number(Field):
    """A decimal number (a port, an article number), given as an ``int``."""

    def write(self, name: str, value: object) -> str:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} must be an int or None, not {type(value).__name__}")
        if value < 0:
            raise ValueError(f"{name} cannot be negative: {value}")
        return str(value)


@dataclass(frozen=True, slots=True)
class Escaped(Field):
    """A field escaped with the characters of production ``rule`` in ``<file>.lark``."""

    file: str = ""
    rule: str = ""

    def write(self, name: str, value: object) -> str:
        return escape(_text(name, value), rule_chars(self.file, self.rule))


@dataclass(frozen=True, slots=True)
class Path(Field):
    """A path: ``/`` separates segments, each escaped as production ``rule``."""

    file: str = ""
    rule: str = ""

    def write(self, name: str, value: object) -> str:
        safe = rule_chars(self.file, self.rule)
        return "/".join(escape(segment, safe) for segment in _text(name, value).split("/"))


@dataclass(frozen=True, slots=True)
class Segments(Field):
    """A path given as its decoded segments; ``()`` means no path."""

    file: str = ""
    rule: str = ""

    def encode(self, name: str, value: object) -> str | None:
        if not isinstance(value, tuple | list) or not all(isinstance(s, str) for s in value):
            raise TypeError(f"{name} must be a tuple of str")
        if not value:
            return None
        safe = rule_chars(self.file, self.rule)
        return "/".join(escape(segment, safe) for segment in value)


@dataclass(frozen=True, slots=True)
class Pairs(Field):
    """Prospero's ``(name, value)`` pairs, each escaped as ``fieldname`` / ``fieldvalue``."""

    file: str = ""
    names: str = ""
    values: str = ""

    def encode(self, name: str, value: object) -> tuple[tuple[str, str], ...]:
        if not isinstance(value, tuple | list):
            raise TypeError(f"{name} must be a tuple of (name, value) pairs")
        pairs: list[tuple[str, str]] = []
        for pair in value:
            if not isinstance(pair, tuple | list) or len(pair) != 2:
                raise TypeError(f"{name} must be a tuple of (name, value) pairs")
            key, item = pair
            pairs.append(
                (
                    escape(_text(name, key), rule_chars(self.file, self.names)),
                    escape(_text(name, item), rule_chars(self.file, self.values)),
                )
            )
        return tuple(pairs)


@dataclass(frozen=True, slots=True)
class OneChar(Field):
    """One character, escaped unless terminal ``terminal`` of ``<file>.lark`` matches it."""

    file: str = ""
    terminal: str = ""

    def write(self, name: str, value: object) -> str:
        char = _text(name, value)
        if len(char) != 1:
            raise ValueError(f"{name} must be one character, not {char!r}")
        written = escape(char, terminal_chars(self.file, self.terminal))
        if len(written) > len("%XX"):
            raise ValueError(f"{name} {char!r} is more than one octet: it cannot be one {name}")
        return written
