"""Text in SQL: how a string and a name are quoted for DuckDB (the macros, a file's queries)."""

from __future__ import annotations

__all__ = ["sql_name", "sql_string"]


def sql_string(text: str) -> str:
    """``text`` as an SQL string literal (DuckDB reads a backslash as itself)."""
    return "'" + text.replace("'", "''") + "'"


def sql_name(name: str) -> str:
    """``name`` as an SQL identifier (``group`` is a keyword)."""
    return '"' + name.replace('"', '""') + '"'
