"""URL validation at cluster scale: RFC 1738 as Spark SQL columns (``rfc1738[spark]``).

- :func:`is_valid_url` and :func:`url_struct` are column expressions built
  from the grammar exported in the Java dialect and plain SQL functions:
  they run in the JVM, no Python UDF;
- :func:`url_verdict` is a pandas UDF that runs the library itself, for the
  error message, position and rule of the rows that need them.

The top layer: it imports the URL and parse layers, nothing imports it, and
``import rfc1738`` does not import it (nor pyspark).

>>> from rfc1738.spark import is_valid_url, url_struct  # doctest: +SKIP
>>> df.select(is_valid_url("url"), url_struct("url").host)  # doctest: +SKIP
"""

from __future__ import annotations

from .columns import fields, grammar_file, is_valid_url, url_struct
from .verdicts import VERDICT_SCHEMA, url_verdict

__all__ = ["VERDICT_SCHEMA", "fields", "grammar_file", "is_valid_url", "url_struct", "url_verdict"]
