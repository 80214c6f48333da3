"""The site is built once per test session, into a temporary directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.site.sitebuild import build_site, missing_docs_tools


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as `make docs` builds it (skips without the ``docs`` extra)."""
    missing = missing_docs_tools()
    if missing:
        pytest.skip(f"docs tools not installed ({', '.join(missing)}): pip install '.[docs]'")
    return build_site(tmp_path_factory.mktemp("site") / "site")
