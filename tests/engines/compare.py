"""What an engine answered for each sample, and where it differs from the library.

Two comparisons per valid sample:

- every production the library reports a span for: the engine's span (or
  text) of its group;
- every field the URL class reads with a hook (``READ_BY_HOOK``: gopher's
  selector, search and gopher+ string, nntp's article number, prospero's
  fieldspecs): the library's raw value against the engine's, which is the
  text of the field's own group (``article_number``) or what the export's
  :class:`~rfc1738.runtime.hooks.Derived` cuts out of a group's text
  (``after_gtype``). A hooked field with neither is a disagreement: the
  export would leave it out.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import rfc1738
from rfc1738.compile.dialects import DIALECTS
from rfc1738.compile.export import Export, ExportedPattern, export_grammar

from .samples import Sample

__all__ = [
    "Answer",
    "Given",
    "assert_agree",
    "hooked_values",
    "spans_from_numbers",
    "written_greedy",
]

#: How many disagreements a failing test shows.
SHOWN = 10

#: What an engine's ``Answer.fields`` holds: spans of the groups that took
#: part, texts of the groups that took part, or texts of every group with
#: ``""`` for one that took no part (DuckDB, Spark's ``regexp_extract``).
Given = Literal["spans", "texts", "empty_for_absent"]


@dataclass(frozen=True, slots=True)
class Answer:
    """An engine's answer for one sample."""

    #: Whether the pattern of the sample's scheme matched.
    scheme: bool
    #: Whether the ``any`` pattern matched.
    any: bool
    #: Production → span or text of its group (see :data:`Given`), for every
    #: production the scheme's pattern captures; ``None`` when not asked.
    fields: dict[str, tuple[int, int]] | dict[str, str] | None = None


def spans_from_numbers(
    export: Export, scheme: str, span: Callable[[int], tuple[int, int]]
) -> dict[str, tuple[int, int]]:
    """Production → span of its first group that took part (``span(n)`` is ``(-1, -1)`` if not)."""
    found: dict[str, tuple[int, int]] = {}
    for production, numbers in export.schemes[scheme].fields().items():
        for number in numbers:
            where = span(number)
            if where[0] >= 0:
                found[production] = where
                break
    return found


def _own(found: ExportedPattern, sample: Sample) -> frozenset[str]:
    """The groups the library has no span for: what hooked fields are read from."""
    return frozenset({cut.source for cut in found.derived.values()} | set(sample.value_dict()))


def expected_texts(export: Export, sample: Sample) -> dict[str, str]:
    """Production → the text it matched, ``""`` for one that took no part."""
    found = export.schemes[sample.scheme]
    spans, own = sample.span_dict(), _own(found, sample)
    return {
        production: sample.text[spans[production][0] : spans[production][1]]
        if production in spans
        else ""
        for production in found.fields()
        if production not in own
    }


def hooked_values(
    found: ExportedPattern, fields: set[str], text: Callable[[str], str | None]
) -> dict[str, object]:
    """Each of ``fields`` from the exported groups: its own group's text, or what is cut out.

    ``text(production)`` is the text of the production's group (``None``
    where it took no part). A field the export has no group or cut for is
    left out.
    """
    values: dict[str, object] = {}
    productions = set(found.groups.values())
    for name in fields:
        if name in found.derived:
            cut = found.derived[name]
            values[name] = cut.apply(text(cut.source))
        elif name in productions:
            values[name] = text(name)
    return values


def _texts(
    fields: dict[str, tuple[int, int]] | dict[str, str], text: str
) -> Callable[[str], str | None]:
    """Production → the text of its group in ``text`` (``None`` where it took no part)."""

    def found(production: str) -> str | None:
        value = fields.get(production)
        if isinstance(value, tuple):
            return text[value[0] : value[1]]
        return value

    return found


def assert_agree(
    engine: str,
    export: Export,
    samples: Sequence[Sample],
    answers: Sequence[Answer],
    given: Given = "spans",
) -> None:
    """Fail, showing the first few, if any answer differs from the library's."""
    assert len(samples) == len(answers)
    wrong: list[str] = []
    compared = 0
    for sample, answer in zip(samples, answers, strict=True):
        if answer.scheme != sample.valid:
            wrong.append(f"{sample.text!r}: {sample.scheme} pattern {answer.scheme}")
        if answer.any != sample.valid:
            wrong.append(f"{sample.text!r}: any pattern {answer.any}")
        if answer.fields is None or not sample.valid:
            continue
        found = export.schemes[sample.scheme]
        own = _own(found, sample)
        got = {p: v for p, v in answer.fields.items() if p not in own}
        want: object = expected_texts(export, sample) if given == "empty_for_absent" else None
        if want is None:
            spans = {p: (a, b) for p, (a, b) in sample.spans}
            want = (
                spans if given == "spans" else {p: sample.text[a:b] for p, (a, b) in spans.items()}
            )
        if got != want:
            wrong.append(f"{sample.text!r}: fields {got} != {want}")
        library = sample.value_dict()
        values = hooked_values(found, set(library), _texts(answer.fields, sample.text))
        if given == "empty_for_absent":
            # The engine gives "" for a group that took no part: so is None here.
            library = {name: "" if value is None else value for name, value in library.items()}
            values = {name: "" if value is None else value for name, value in values.items()}
        compared += len(library)
        if values != library:
            wrong.append(f"{sample.text!r}: hooked fields {values} != {library}")
    assert not wrong, (
        f"{engine}: {len(wrong)} disagreements with rfc1738 on {len(samples)} strings "
        f"({compared} hooked field values):\n" + "\n".join(wrong[:SHOWN])
    )


def written_greedy(dialect: str) -> Export:
    """The shipped grammar in ``dialect`` with no possessive repetition and runs unrolled.

    What the writer falls back to for a pattern that would pass the dialect's
    ``max_groups`` (ECMAScript's dispatching pattern), here for every pattern.
    """
    chosen = copy.copy(DIALECTS[dialect])
    chosen.max_groups = 0
    return export_grammar(rfc1738.load(), chosen)
