"""What an engine answered for each sample, and where it differs from the library."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rfc1738.parse.dialects import Export

from .samples import Sample

__all__ = ["Answer", "assert_agree", "spans_from_numbers"]

#: How many disagreements a failing test shows.
SHOWN = 10


@dataclass(frozen=True, slots=True)
class Answer:
    """An engine's answer for one sample."""

    #: Whether the pattern of the sample's scheme matched.
    scheme: bool
    #: Whether the ``any`` pattern matched.
    any: bool
    #: Production → span, or, for engines that give only the text, production → text
    #: (``""`` where the production took no part); ``None`` when not asked.
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


def expected_texts(export: Export, sample: Sample) -> dict[str, str]:
    """Production → the text it matched, ``""`` for one that took no part."""
    spans = sample.span_dict()
    return {
        production: sample.text[spans[production][0] : spans[production][1]]
        if production in spans
        else ""
        for production in export.schemes[sample.scheme].fields()
    }


def assert_agree(
    engine: str, export: Export, samples: Sequence[Sample], answers: Sequence[Answer]
) -> None:
    """Fail, showing the first few, if any answer differs from the library's."""
    assert len(samples) == len(answers)
    wrong: list[str] = []
    for sample, answer in zip(samples, answers, strict=True):
        if answer.scheme != sample.valid:
            wrong.append(f"{sample.text!r}: {sample.scheme} pattern {answer.scheme}")
        if answer.any != sample.valid:
            wrong.append(f"{sample.text!r}: any pattern {answer.any}")
        if answer.fields is not None and sample.valid:
            spans = next(iter(answer.fields.values()), None)
            want: object = (
                expected_texts(export, sample) if isinstance(spans, str) else sample.span_dict()
            )
            if answer.fields != want:
                wrong.append(f"{sample.text!r}: fields {answer.fields} != {want}")
    assert not wrong, (
        f"{engine}: {len(wrong)} disagreements with rfc1738 on {len(samples)} strings:\n"
        + "\n".join(wrong[:SHOWN])
    )
