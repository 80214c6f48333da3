"""Fixtures of the engine tests: the samples, computed once per run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

    from .samples import Sample


@pytest.fixture(scope="session")
def all_samples() -> tuple[Sample, ...]:
    """Every sample string with the library's answer (see :mod:`tests.engines.samples`)."""
    # Imported here, not at collection: drawing from the grammar needs Hypothesis's
    # character tables, which it would rather not load while plugins load.
    from .samples import samples

    return samples()


@pytest.fixture(scope="session")
def encodable(all_samples: tuple[Sample, ...]) -> tuple[Sample, ...]:
    """The samples an engine storing UTF-8 text with no NUL can hold (no lone surrogates)."""
    return tuple(
        s
        for s in all_samples
        if "\x00" not in s.text and not any(0xD800 <= ord(c) <= 0xDFFF for c in s.text)
    )


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    """The one local SparkSession of the test run: docs/spark.md's, made by its code.

    The same session the column harness uses (:func:`.spark_session.test_session`).
    Skips without pyspark or Java.
    """
    from .spark_session import test_session

    yield test_session()
