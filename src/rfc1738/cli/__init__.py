"""The ``rfc1738`` command line: :func:`main` (:func:`run` as a command), one module per command."""

from __future__ import annotations

from .main import main, run

__all__ = ["main", "run"]
