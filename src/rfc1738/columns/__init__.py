"""Many URLs at once, and the grammar as columns for engines (``rfc1738[duckdb]``, ``[polars]``).

- :func:`check` and :func:`check_batches`: verdicts on a list of strings, a
  file, a pyarrow array, a pandas or Polars Series, and if asked each URL's
  struct and each rejected URL's error, on DuckDB when it is installed and
  on the library in Python otherwise (:mod:`rfc1738.columns.bulk`; what
  they give, :mod:`rfc1738.columns.checked`; the lines of a file,
  :mod:`rfc1738.columns.lines`; what judges them, :mod:`rfc1738.columns.runners`);
- :func:`column_plan`: what a column engine runs, compiled once per grammar
  from the grammar's exported patterns (:mod:`rfc1738.columns.plan`), and
  the struct every backend gives (:mod:`rfc1738.duckdb`, :mod:`rfc1738.polars`).

>>> from rfc1738.columns import check
>>> check(["http://example.com/", "ftp://host with space/"]).valid
[True, False]

The extras' layer: it imports the URL layer (and the compiler, the first
time a grammar's plan is made), nothing below imports it, and ``import
rfc1738`` does not import it.
"""

from __future__ import annotations

from .bulk import check, check_batches, default_engine
from .checked import Checked, Engine
from .plan import ColumnPlan, StructField
from .store import column_plan

__all__ = [
    "Checked",
    "ColumnPlan",
    "Engine",
    "StructField",
    "check",
    "check_batches",
    "column_plan",
    "default_engine",
]
