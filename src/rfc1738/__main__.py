"""``python -m rfc1738``: the command line, as the ``rfc1738`` script runs it."""

from __future__ import annotations

import sys

from .cli.main import main

if __name__ == "__main__":
    sys.exit(main())
