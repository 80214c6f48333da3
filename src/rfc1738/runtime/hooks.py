"""Fields that section 3 takes further apart than the grammar: one declaration per hook.

Three URL classes read fields with a hook instead of a production's span,
because RFC 1738 section 3 says more than the grammar:

- gopher (section 3.4) splits the text after ``gtype`` at the first and
  second ``%09`` into selector, search and gopher+ string, where the grammar
  alone is ambiguous (``selector = *xchar`` may hold every ``%09``);
- prospero (section 3.11) reads ``;name=value`` pairs, a repetition: no
  capture group holds its items one by one;
- nntp (section 3.7) has no production for the article number but
  ``digits``, which the port and the hostnumber use too.

Such a class declares its hooks once, as data, in ``HOOK_EXPORTS``; every
reader takes them from there: the class's reading (``URL._cut``, which also
derives ``READ_BY_HOOK``), the export (:mod:`rfc1738.compile.hooks`), the
column plan and the record writer.

- :class:`SplitAfter`: the text after a production, to the end of the URL,
  is captured in one group (``after_gtype``); each field is cut out of that
  text at a literal the start rule puts between the fields (gopher's
  ``%09``, prospero's ``;`` and ``=``).
- :class:`OwnGroup`: the production is captured, under the field's name,
  only where no other captured field holds it (``digits`` after nntp's
  group, not the port's).

Each field cut out of a group is a :class:`Derived` (:meth:`SplitAfter.cuts`):
the group, the separator and which part; an engine cuts it with its own
string functions (:mod:`rfc1738.spark` with ``split``), :meth:`Derived.apply`
in Python (the URL classes). This module imports nothing of the package but
its records (:class:`~rfc1738._records.Record`, not dataclasses: the URL
classes declare their hooks with it, so it is on the path of
``import rfc1738``).
"""

from __future__ import annotations

from collections.abc import Callable

from .._records import Record

__all__ = ["Derived", "HookExport", "OwnGroup", "SplitAfter", "hooked_fields"]

#: Ordinals for the rules' wording.
_ORDINALS = ("first", "second", "third", "fourth", "fifth")


def _ordinal(number: int) -> str:
    return _ORDINALS[number - 1] if number <= len(_ORDINALS) else f"{number}th"


class Derived(Record):
    """A field of a scheme's objects that no group holds: cut out of one group's text.

    The text of group :attr:`source` is split at each :attr:`separator`.
    Without :attr:`pair`, the field is part :attr:`part` (0-based) of at
    most :attr:`parts` (the last one keeps the rest, separators included),
    and null where there are fewer parts. With :attr:`pair`, the text begins
    with the separator and the field is every part after the first, each
    split at its first :attr:`pair` into a name and a value. Where the group
    took no part, the field is null. Values are as written (not decoded).

    >>> selector = Derived("after_gtype", "%09", part=0, parts=3)
    >>> selector.apply("find%09rfc%20822"), Derived("after_gtype", "%09", 1, 3).apply("find")
    ('find', None)
    >>> Derived("after_ppath", ";", pair="=").apply(";type=x;version=2")
    (('type', 'x'), ('version', '2'))
    """

    _fields = ("source", "separator", "part", "parts", "pair", "rule")
    __slots__ = _fields
    #: The production (group) whose text the field is cut from.
    source: str
    #: Where the text is split.
    separator: str
    #: Which part (0-based), when :attr:`pair` is empty.
    part: int
    #: At most this many parts, the last keeping the rest (0: no limit).
    parts: int
    #: Each part after the first split at its first ``pair`` into (name, value).
    pair: str
    #: The rule of RFC 1738 section 3 the cut follows, in words.
    rule: str

    def __init__(
        self,
        source: str,
        separator: str,
        part: int = 0,
        parts: int = 0,
        pair: str = "",
        rule: str = "",
    ) -> None:
        self._fill(source, separator, part, parts, pair, rule)

    def apply(self, text: str | None) -> str | tuple[tuple[str, str], ...] | None:
        """The field cut out of ``text``, the group's text (``None``: the group took no part)."""
        if text is None:
            return None
        if self.pair:
            specs = text.split(self.separator)[1:]
            return tuple(
                (name, value) for name, _, value in (s.partition(self.pair) for s in specs)
            )
        found = (
            text.split(self.separator, self.parts - 1) if self.parts else text.split(self.separator)
        )
        return found[self.part] if self.part < len(found) else None

    def as_json(self) -> dict[str, object]:
        """``{"from", "split", "part", "parts", "rule"}``, or ``"pairs"`` in place of the parts."""
        cut: dict[str, object] = {"from": self.source, "split": self.separator}
        if self.pair:
            cut["pairs"] = self.pair
        else:
            cut["part"], cut["parts"] = self.part, self.parts
        cut["rule"] = self.rule
        return cut


class SplitAfter(Record):
    """Fields a hook cuts out of the text after production :attr:`after`, to the end of the URL.

    The separator is the literal the start rule writes before production
    :attr:`at`. Each of :attr:`fields` is one part, in order, the last
    keeping the rest (gopher: selector, search, gopher+ string, at the
    ``%09`` before ``search``). With :attr:`pairs` (a production), the one
    field is a tuple of (name, value): every part after the first, split at
    the literal before ``pairs`` (prospero: ``;`` before ``fieldname``, ``=``
    before ``fieldvalue``).
    """

    _fields = ("after", "at", "fields", "pairs", "section")
    __slots__ = _fields
    #: The production the text follows.
    after: str
    #: The production the separator is written before.
    at: str
    #: The fields, one per part (with :attr:`pairs`: one field).
    fields: tuple[str, ...]
    #: The production whose literal splits a name from its value, for pairs.
    pairs: str | None
    #: The section of RFC 1738 that says so.
    section: str

    def __init__(
        self,
        after: str,
        at: str,
        fields: tuple[str, ...],
        pairs: str | None = None,
        section: str = "",
    ) -> None:
        self._fill(after, at, fields, pairs, section)

    @property
    def group(self) -> str:
        """The name of the group that captures the text (``after_gtype``)."""
        return f"after_{self.after}"

    def cuts(self, before: Callable[[str], str]) -> dict[str, Derived]:
        """Each field as a :class:`Derived` of :attr:`group`, by field.

        ``before(production)`` is the literal the start rule writes right
        before ``production`` (the separators are the grammar's, not this
        declaration's).
        """
        return self.derive(before(self.at), "" if self.pairs is None else before(self.pairs))

    def derive(self, separator: str, pair: str = "") -> dict[str, Derived]:
        """Each field as a :class:`Derived` of :attr:`group`, given the start rule's literals."""
        where = f"RFC 1738 section {self.section}: " if self.section else ""
        if self.pairs is not None:
            (field,) = self.fields
            rule = f"{where}each {separator}name{pair}value after {self.after}, in order"
            return {field: Derived(self.group, separator, pair=pair, rule=rule)}
        count = len(self.fields)
        found: dict[str, Derived] = {}
        for index, field in enumerate(self.fields):
            if index == 0:
                place = f"up to the first {separator}" if count > 1 else "all of it"
            elif index == count - 1:
                place = f"after the {_ordinal(index)} {separator}, the rest"
            else:
                place = f"between the {_ordinal(index)} and {_ordinal(index + 1)} {separator}"
            rule = f"{where}the text after {self.after}, {place}"
            found[field] = Derived(self.group, separator, index, count, rule=rule)
        return found


class OwnGroup(Record):
    """:attr:`production` captured as :attr:`field`, where no other captured field holds it.

    nntp's article number is ``digits``: so are the port and the parts of a
    hostnumber, which sit inside the ``port`` and ``hostnumber`` groups. The
    production stands after every other field, at the end of the URL: a URL
    class reads the field as the rest of the text after the other fields and
    the literal the start rule writes before the production.
    """

    _fields = ("production", "field", "section")
    __slots__ = _fields
    #: The grammar's production.
    production: str
    #: The group's (and the field's) name.
    field: str
    #: The section of RFC 1738 that says what it is.
    section: str

    def __init__(self, production: str, field: str, section: str = "") -> None:
        self._fill(production, field, section)


#: What a URL class declares in ``HOOK_EXPORTS``.
HookExport = SplitAfter | OwnGroup


def hooked_fields(hooks: tuple[HookExport, ...]) -> frozenset[str]:
    """The fields ``hooks`` read (a class's ``READ_BY_HOOK``)."""
    return frozenset(
        field
        for hook in hooks
        for field in (hook.fields if isinstance(hook, SplitAfter) else (hook.field,))
    )
