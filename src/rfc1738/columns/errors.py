"""The error of a rejected URL, as the backends give it: the library's own, in a row.

An engine says which URLs are valid; why one is not (where, in which
production, the reason) comes from the library, only for the rows the
engine rejected: :func:`rfc1738.Grammar.parse`'s
:class:`~rfc1738.URLSyntaxError`, whose position, rule and reason the error
automaton works out without Lark. Measured on the corpora
(``docs/performance.md``), a pass in Python over the rejected rows costs the
same per row whether a DuckDB or Polars UDF calls it or a loop does, so the
bulk API loops, and the UDFs (``rfc1738_error``, ``url_error``) are for
queries.
"""

from __future__ import annotations

from ..errors import URLSyntaxError
from ..runtime.bulk import line_error
from ..urls import Grammar

__all__ = ["ERROR_FIELDS", "ErrorRow", "error_of", "error_row", "rejected_error"]

#: The fields of an error row, as :data:`rfc1738.spark.VERDICT_SCHEMA` names them:
#: the reason, the 0-based position, the production being matched, the full message.
ERROR_FIELDS = ("reason", "position", "rule", "error")

#: An error row: the values of :data:`ERROR_FIELDS`.
ErrorRow = dict[str, object]


def error_of(grammar: Grammar, text: str, host_checks: bool) -> URLSyntaxError | None:
    """The library's error for ``text``; ``None`` if it is valid.

    The error :meth:`~rfc1738.Grammar.parse` raises, worked out without
    raising it (:func:`~rfc1738.runtime.bulk.line_error`: less than half the
    time a rejected row, measured on the corpora's, the same errors).
    """
    if grammar.is_valid(text, host_checks=host_checks):
        return None
    return line_error(grammar, text, host_checks=host_checks)


def rejected_error(grammar: Grammar, text: str, host_checks: bool) -> URLSyntaxError | None:
    """:func:`error_of` for a ``text`` an engine has found not valid: not judged again first.

    The error automaton works out the error (and finds a valid text
    valid) without the verdict :func:`error_of` asks for first, a sixth of
    its time a row (0.07 s for the 65,197 rejected lines of 10^6 of the
    corpora). ``None`` if the library finds ``text`` valid after all, as
    :func:`error_of` gives.
    """
    try:
        return line_error(grammar, text, host_checks=host_checks)
    except ValueError:
        if grammar.is_valid(text, host_checks=host_checks):
            return None  # valid after all
        raise


def error_row(error: URLSyntaxError) -> ErrorRow:
    """``error`` as a row of :data:`ERROR_FIELDS`."""
    return {
        "reason": error.reason,
        "position": error.position,
        "rule": error.rule,
        "error": str(error),
    }
