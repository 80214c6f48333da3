"""How many examples a property test draws: its full count, or a share of it.

``make test`` runs the whole suite on .venv's Python with every property
test's full count, then the parser, object and command-line tests again on
each other Python the package admits (Makefile, ``test-python-%``) with
``RFC1738_TEST_SHARE=0.5``: what differs between interpreters (the ``re``
engine, threads, processes) shows on any example, and the full counts have
run once already. Keeping the three extra runs to half their draws keeps
``make test`` within 10 minutes on 2 cores.
"""

from __future__ import annotations

import os

#: The share of each count drawn (1: all of it).
SHARE = float(os.environ.get("RFC1738_TEST_SHARE", "1"))


def examples(count: int) -> int:
    """``count``, or its share under ``RFC1738_TEST_SHARE``, at least one."""
    return max(1, round(count * SHARE))
