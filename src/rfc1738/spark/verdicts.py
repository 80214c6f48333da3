"""The library's full verdict in Spark, through a pandas (Arrow) UDF.

The column expressions of :mod:`rfc1738.spark.columns` say whether a URL is
valid and take it apart without leaving the JVM. For the rows that need more,
the error message, its position and the production that failed,
:func:`url_verdict` runs :func:`rfc1738.parse` itself on the executors, a
batch of rows at a time. It is the slower path (see ``docs/spark.md``): use it
on the rows the columns rejected.
"""

from __future__ import annotations

from functools import cache
from typing import Any, cast

import pandas as pd
from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql.pandas.functions import pandas_udf
from pyspark.sql.types import BooleanType, IntegerType, StringType, StructField, StructType

from ..errors import URLSyntaxError
from ..urls import shipped

__all__ = ["VERDICT_SCHEMA", "url_verdict"]

#: The struct :func:`url_verdict` gives.
VERDICT_SCHEMA = StructType(
    [
        StructField("valid", BooleanType()),
        StructField("class", StringType()),
        StructField("reason", StringType()),
        StructField("position", IntegerType()),
        StructField("rule", StringType()),
        StructField("error", StringType()),
    ]
)


def _verdicts(urls: pd.Series, host_checks: bool) -> pd.DataFrame:
    grammar = shipped()
    rows: list[tuple[object, ...]] = []
    for text in urls:
        if text is None:
            rows.append((None, None, None, None, None, None))
            continue
        try:
            url = grammar.parse(text, host_checks=host_checks)
        except URLSyntaxError as error:
            rows.append((False, None, error.reason, error.position, error.rule, str(error)))
        else:
            rows.append((True, type(url).__name__, None, None, None, None))
    columns = ["valid", "class", "reason", "position", "rule", "error"]
    frame = pd.DataFrame(rows, columns=columns)
    frame["position"] = frame["position"].astype("Int32")
    return frame


def _checked(urls: pd.Series) -> pd.DataFrame:
    return _verdicts(urls, True)


def _bare(urls: pd.Series) -> pd.DataFrame:
    return _verdicts(urls, False)


@cache
def _udf(host_checks: bool) -> Any:
    # Made on first use, in the driver; pandas_udf's overloads cannot see
    # through pandas without its stubs, hence Any.
    return cast(Any, pandas_udf)(VERDICT_SCHEMA)(_checked if host_checks else _bare)


def url_verdict(col: Column | str, *, host_checks: bool = True) -> Column:
    """A struct column with :func:`rfc1738.parse`'s verdict on each string, run in Python.

    Fields: ``valid``; ``class`` (``HttpURL``, ...) for a valid URL; for an
    invalid one the error's ``reason``, its 0-based ``position``, the
    ``rule`` being matched and the full message with its caret picture
    (``error``). A null string gives nulls. Needs ``pandas`` and ``pyarrow``
    on the executors, and ``rfc1738`` installed there.
    """
    url = F.col(col) if isinstance(col, str) else col
    result: Column = _udf(host_checks)(url)
    return result
