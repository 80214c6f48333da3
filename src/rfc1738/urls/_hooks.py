"""How a URL class reads the fields its hooks declare (``HOOK_EXPORTS``).

The one declaration (:mod:`rfc1738.runtime.hooks`) gives, with the start
rule's layout, each field's reading: a :class:`~rfc1738.runtime.hooks.Derived`
cut of the text after a production (:class:`~rfc1738.runtime.hooks.SplitAfter`,
the same cut the exported patterns describe), or the rest of the URL after
the other fields (:class:`~rfc1738.runtime.hooks.OwnGroup`). The readings
are worked out once per class and layout (the layouts of a grammar are made
once), since :meth:`URL._cut <rfc1738.urls.base.URL._cut>` runs for every
object of a hooked class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..runtime.hooks import Derived, HookExport, SplitAfter
from ..runtime.layout import Layout, literal_before
from ..runtime.spans import Spans

if TYPE_CHECKING:
    from ._fields import Field

__all__ = ["read_hooks", "split_cuts"]

#: One field's reading: ``read(raw, text, spans)`` sets its raw field.
_Reading = Callable[[dict[str, object], str, Spans], None]

#: The readings of a class per layout: (class, id of the layout) → (the layout, readings).
#: The layout is kept with them, so that its id is not reused while kept.
_KEPT: dict[tuple[type, int], tuple[Layout, tuple[_Reading, ...]]] = {}
_KEPT_MAX = 1024


def read_hooks(
    cls: type,
    hooks: tuple[HookExport, ...],
    raw: dict[str, object],
    text: str,
    spans: Spans,
    layout: Layout,
) -> None:
    """Set the raw fields ``hooks`` (``cls``'s) read, in ``raw``, from ``text`` and its spans."""
    key = (cls, id(layout))
    kept = _KEPT.get(key)
    if kept is None or kept[0] is not layout:
        kept = (layout, _readings(cls, hooks, layout))
        if len(_KEPT) < _KEPT_MAX:
            _KEPT[key] = kept
    for reading in kept[1]:
        reading(raw, text, spans)


def split_cuts(hook: SplitAfter, layout: Layout) -> dict[str, Derived]:
    """``hook``'s fields as :class:`~rfc1738.runtime.hooks.Derived` cuts, by field."""
    return hook.cuts(lambda production: literal_before(layout, production))


def _readings(cls: type, hooks: tuple[HookExport, ...], layout: Layout) -> tuple[_Reading, ...]:
    declared: tuple[Field[Any], ...] = getattr(cls, "DECLARED", ())
    raw_names = {field.name: field.raw_name for field in declared}
    found: list[_Reading] = []
    for hook in hooks:
        if isinstance(hook, SplitAfter):
            for field, cut in split_cuts(hook, layout).items():
                found.append(_cut_after(hook.after, raw_names[field], cut.apply))
        else:
            others = tuple(field.production for field in declared if field.name != hook.field)
            width = len(literal_before(layout, hook.production))
            found.append(_rest_after(others, width, raw_names[hook.field]))
    return tuple(found)


def _cut_after(after: str, raw_name: str, apply: Callable[[str | None], object]) -> _Reading:
    def read(raw: dict[str, object], text: str, spans: Spans) -> None:
        span = spans.get(after)
        raw[raw_name] = apply(None if span is None else text[span[1] :])

    return read


def _rest_after(others: tuple[str, ...], width: int, raw_name: str) -> _Reading:
    def read(raw: dict[str, object], text: str, spans: Spans) -> None:
        end = max((span[1] for span in map(spans.get, others) if span is not None), default=0)
        # The production is what follows the other fields, after its literal ("/").
        raw[raw_name] = text[end + width :] if end < len(text) else None

    return read
