"""The version of rfc1738: the one place it is written.

``pyproject.toml`` reads it from here when the package is built
(``[tool.hatch.version]``); ``rfc1738.__version__`` and ``rfc1738 --version``
print it.
"""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
