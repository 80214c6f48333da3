"""Build hook: the shipped grammar's compiled tables, written into the wheel.

Hatchling runs :class:`TablesHook` when it builds the wheel (``pip install .``,
``python -m build``). It imports the package from ``src/`` (Lark comes from
the build requirements), runs the compile pipeline over ``grammar/`` with the
library's URL classes and writes the tables with the library's own writer
(:func:`rfc1738.compile.pipeline.tables_module`) into the wheel as
``rfc1738/runtime/_tables.py``, so that the installed package parses with the
shipped grammar without importing Lark; the fragment grammar's
(``grammars/fragment``, :func:`rfc1738.text.fragments.fragment_tables`) go
beside them. Nothing is written into the checkout.

The tables are the same whatever Python runs the build: they hold the
expressions as the regex writer writes them, and the Python that runs them
compiles them in the form its ``re`` matches right
(:mod:`rfc1738.runtime.possessive`: CPython 3.11.0 to 3.11.4 need another).
``make test`` installs the wheel ``.venv`` built into Debian's ``python3``
(3.11.2), where ``tests/parsers/test_startup.py`` finds them equal to its own
compile of ``grammar/``.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: Where the tables go inside the wheel.
TABLES_MODULE = "rfc1738/runtime/_tables.py"


class TablesHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compile ``grammar/`` and force-include the tables module into the wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Write the tables module aside and add it to the wheel."""
        if self.target_name != "wheel" or version == "editable":
            return
        root = Path(self.root)
        sys.path.insert(0, str(root / "src"))
        # The build compiles from the grammar files alone: no disk cache.
        saved = os.environ.get("RFC1738_CACHE_DIR")
        os.environ["RFC1738_CACHE_DIR"] = ""
        try:
            from rfc1738.compile.pipeline import tables_module
            from rfc1738.runtime.tables import module_text
            from rfc1738.text.fragments import fragment_tables
            from rfc1738.urls import Grammar

            text = tables_module(Grammar(root / "grammar"))
            # The fragment grammar's too, under their own key (rfc1738.text.fragments).
            text += "\n" + module_text(fragment_tables(root / "grammars" / "fragment"), "FRAGMENT")
        finally:
            sys.path.remove(str(root / "src"))
            if saved is None:
                del os.environ["RFC1738_CACHE_DIR"]
            else:
                os.environ["RFC1738_CACHE_DIR"] = saved
        self._aside = tempfile.mkdtemp(prefix="rfc1738-tables-")
        written = Path(self._aside) / "_tables.py"
        written.write_text(text, encoding="utf-8")
        build_data["force_include"][str(written)] = TABLES_MODULE

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the module written aside."""
        aside = getattr(self, "_aside", None)
        if aside is not None:
            shutil.rmtree(aside, ignore_errors=True)
