"""``rfc1738 --version`` and ``rfc1738.__version__``: one version, the installed package's."""

from __future__ import annotations

from importlib.metadata import version

import rfc1738

from .helpers import run


def test_the_package_and_its_metadata_agree() -> None:
    assert rfc1738.__version__ == version("rfc1738")


def test_the_command_prints_it() -> None:
    done = run("--version")
    assert done.status == 0
    assert done.out == f"rfc1738 {rfc1738.__version__}\n"
