"""RFC 1738 in DuckDB: SQL macros that validate URLs and take them apart (``rfc1738[duckdb]``).

:func:`register` creates, on one connection, macros written from the
grammar's column plan (:mod:`rfc1738.columns.plan`): RE2 patterns that
DuckDB runs itself (the verdict, the host checks' screen, each scheme's
fields), and SQL for the fields section 3 cuts further. Python runs only
for the few URLs whose host checks the plan's screen leaves in doubt (the
library judges them: a long label, a large port), and in
``rfc1738_error``, which asks the library why a URL is not valid.

>>> import duckdb, rfc1738.duckdb  # doctest: +SKIP
>>> con = duckdb.connect(); rfc1738.duckdb.register(con)  # doctest: +SKIP
>>> con.sql("SELECT rfc1738_struct('http://h/').host")  # doctest: +SKIP

The top layer: it imports the URL layer and the column plan, nothing imports
it, and ``import rfc1738`` does not import it (nor duckdb).
"""

from __future__ import annotations

import contextlib
from typing import Any

import duckdb

from ..columns.errors import error_of, error_row
from ..columns.store import column_plan
from ..urls import Grammar, shipped
from .macros import macro_statements, screen_statements

__all__ = ["ERROR_TYPE", "register", "register_screen"]

#: The SQL type of ``rfc1738_error``'s result.
ERROR_TYPE = "STRUCT(reason VARCHAR, position INTEGER, rule VARCHAR, error VARCHAR)"


def register(
    con: duckdb.DuckDBPyConnection,
    *,
    grammar: Grammar | None = None,
    prefix: str = "rfc1738",
    errors: bool = True,
    struct: bool = True,
) -> None:
    """Create the macros on ``con`` (temporary: they live as long as the connection).

    - ``rfc1738_is_valid(url, host_checks := true)``: :func:`rfc1738.is_valid`;
      ``host_checks := false`` for the bare grammar's verdict; null for null.
    - ``rfc1738_struct(url, host_checks := true)``: the struct of
      :mod:`rfc1738.columns.plan` (``scheme`` as written, then every
      field as written; null where it does not apply, ``''`` where empty;
      prospero's ``fieldspecs`` a list of ``(name, value)``); null for a
      URL that is not valid.
    - ``rfc1738_grammar_file(url)``: the grammar file that reads it (its
      scheme's in lower case, or ``generic``), as ``rfc1738 check`` counts.
    - ``rfc1738_struct_of_valid(url, file)``: the struct of a URL known to
      be valid whose grammar file is ``file`` (for a query that has both).
    - ``rfc1738_error(url, host_checks := true)``: the library's error for
      a URL that is not valid (``reason``, 0-based ``position``, ``rule``,
      the full message ``error``), null for a valid one: a Python function
      called a row at a time, for the rows the macros reject.
    - ``rfc1738_screen(url, host_checks := true)``: the verdict as far as
      SQL takes it, no Python called: ``1`` valid, ``0`` not, ``2`` valid
      by the grammar with host checks that only the library can finish (a
      long host or label, a large port: :func:`register_screen`).

    ``grammar``: an edited grammar (:func:`rfc1738.load`) instead of the
    shipped one; ``prefix``: another name before ``_is_valid``, ... (one
    connection may hold several grammars' macros); ``errors=False``: no
    ``rfc1738_error`` (the bulk API's runner explains rows in Python);
    ``struct=False``: no ``rfc1738_struct`` and ``rfc1738_struct_of_valid``
    (a connection that only validates: DuckDB reads their text, some 34 KB
    of SQL, in about 15 ms). Called again on the same connection, it
    replaces what it created.
    """
    chosen = shipped() if grammar is None else grammar
    plan = column_plan(chosen)
    # Python functions a row a call: the library's work on a row outweighs
    # the call; Arrow ones would have pyarrow import pandas where it is
    # installed (a fifth of a second), and `import rfc1738.duckdb` pyarrow.
    _function(con, f"{prefix}_valid_of", _judge(chosen), "BOOLEAN")
    for statement in macro_statements(plan, prefix, struct=struct):
        con.execute(statement)
    if not errors:
        return
    _function(con, f"{prefix}_error_of", _explainer(chosen), ERROR_TYPE)
    con.execute(
        f"CREATE OR REPLACE TEMP MACRO {prefix}_error(url, host_checks := true) AS "
        f"{prefix}_error_of(url, host_checks)"
    )


def register_screen(
    con: duckdb.DuckDBPyConnection, *, grammar: Grammar | None = None, prefix: str = "rfc1738"
) -> None:
    """Create only ``rfc1738_grammar_file`` and ``rfc1738_screen`` on ``con``: see :func:`register`.

    For a caller that judges the few rows screened ``2`` itself, in Python
    with :func:`rfc1738.is_valid` (``rfc1738 check`` counting a file): no
    Python function on the connection, whose first creation has DuckDB
    import numpy (some 35 ms). ``grammar`` and ``prefix`` as for
    :func:`register`, which creates these two too.
    """
    plan = column_plan(shipped() if grammar is None else grammar)
    for statement in screen_statements(plan, prefix):
        con.execute(statement)


def _function(con: duckdb.DuckDBPyConnection, name: str, function: Any, result: str) -> None:
    """Register ``function(url, host_checks)``, called a row at a time, on ``con`` as ``name``."""
    # Registered before on this connection (a function cannot be replaced): removed.
    with contextlib.suppress(duckdb.InvalidInputException, duckdb.CatalogException):
        con.remove_function(name)
    # The UDF type and null handling by name: duckdb 1.x and 2.x keep their enums apart.
    create: Any = con.create_function
    create(
        name,
        function,
        [duckdb.sqltype("VARCHAR"), duckdb.sqltype("BOOLEAN")],
        duckdb.sqltype(result),
        type="native",
        null_handling="special",
    )


def _judge(grammar: Grammar) -> Any:
    """The function behind ``rfc1738_is_valid``'s URLs in doubt: the library's verdict."""

    def judge(url: str | None, host_checks: bool | None) -> bool | None:
        if url is None:
            return None
        return grammar.is_valid(url, host_checks=host_checks is not False)

    return judge


def _explainer(grammar: Grammar) -> Any:
    """The function behind ``rfc1738_error``: a rejected URL's error row; ``None`` if valid."""

    def explain(url: str | None, host_checks: bool | None) -> dict[str, object] | None:
        error = None if url is None else error_of(grammar, url, host_checks is not False)
        return None if error is None else error_row(error)

    return explain
