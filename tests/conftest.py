"""Test-wide settings.

Under CI (the ``CI`` environment variable set, as ``.ci/run`` is run), the
Hypothesis suites are derandomized: CI checks that the same examples as every
other CI run still pass, so a submission lands or not on its own merits, not
on a draw. Runs on a developer's machine keep drawing new examples, which is
how the fuzz suite found the 4300-digit port (tests/urls/test_numbers.py).
No example has a deadline, under CI or not: time is never asserted.

Compiled grammars are cached in a directory of this run, never in the
user's cache (``RFC1738_CACHE_DIR``, inherited by the commands the tests run).

No Hypothesis example has a deadline: the suite asserts no timings, and a
first example that builds a grammar's Earley parser (a second on a loaded
2-core machine) failed the 200 ms default depending on test order.
"""

from __future__ import annotations

import os
import tempfile

from hypothesis import settings

from tests.budget import examples

os.environ["RFC1738_CACHE_DIR"] = tempfile.mkdtemp(prefix="rfc1738-test-cache-")

# No example is timed (a deadline is a timed assertion, and `make test` runs two
# suites at once on two cores, next to whatever else the machine runs).
# A test that names no count draws Hypothesis's default 100, or its share
# (tests/budget.py).
settings.register_profile("untimed", deadline=None, max_examples=examples(100))
settings.register_profile(
    "ci", parent=settings.get_profile("untimed"), derandomize=True, print_blob=True
)
settings.load_profile("ci" if os.environ.get("CI") else "untimed")
