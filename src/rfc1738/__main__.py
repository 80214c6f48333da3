"""``python -m rfc1738``: the command line, as the ``rfc1738`` script runs it."""

from __future__ import annotations

from .cli.main import run

if __name__ == "__main__":
    run()
