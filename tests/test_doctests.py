"""Every example in the package's docstrings runs, against the installed package."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import rfc1738

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(rfc1738.__path__, prefix="rfc1738.")
    if info.name != "rfc1738.tools.demo"
)


@pytest.mark.parametrize("name", ["rfc1738", *MODULES])
def test_docstring_examples_run(name: str) -> None:
    if name.startswith("rfc1738.spark"):
        pytest.importorskip("pyspark", reason="rfc1738.spark needs pyspark (the spark extra)")
    if name == "rfc1738.pydantic":
        pytest.importorskip("pydantic", reason="rfc1738.pydantic needs pydantic (its extra)")
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
