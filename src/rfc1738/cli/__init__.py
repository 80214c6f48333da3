"""The ``rfc1738`` command line: :func:`main`, one module per command."""

from __future__ import annotations

from .main import main

__all__ = ["main"]
