"""Fixtures of the column tests: the engines' sample strings, computed once per run."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def texts() -> tuple[str, ...]:
    """Every sample string of ``tests/engines/samples.py``: test data, corpora, drawn, mutated."""
    # Imported here, not at collection: drawing from the grammar needs Hypothesis's
    # character tables, which it would rather not load while plugins load.
    from tests.engines.samples import texts as sample_texts

    return tuple(sample_texts())


@pytest.fixture(scope="session")
def storable(texts: tuple[str, ...]) -> tuple[str, ...]:
    """The samples an engine storing UTF-8 text can hold (no lone surrogates)."""
    return tuple(t for t in texts if not any(0xD800 <= ord(c) <= 0xDFFF for c in t))
