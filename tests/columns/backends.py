"""Every backend of the column plan, run on a list of strings, and what the library says of each.

A backend answers, for each string: the verdict with the host checks and
without, the struct with the host checks and without, and the grammar file
that reads it. :func:`library` gives the same from :func:`rfc1738.parse`
and the spans of the library's match (the productions' texts, and the
raw values of the fields a class's hook reads), and :func:`assert_same`
fails, showing the first differences, on any disagreement.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pytest

import rfc1738
from rfc1738.columns import check
from rfc1738.columns.plan import SCHEME
from rfc1738.columns.store import column_plan
from rfc1738.runtime.hosts import CHECKED_PRODUCTIONS

__all__ = ["BACKENDS", "Answers", "assert_same", "library"]

#: How many disagreements a failing test shows.
SHOWN = 8


@dataclass
class Answers:
    """One backend's answers, one entry per string."""

    checked: list[bool | None]
    bare: list[bool | None]
    structs: list[dict[str, object] | None]
    bare_structs: list[dict[str, object] | None]
    files: list[str | None]


def _pairs(value: object) -> object:
    """A fieldspecs value as the engines give it: a list of ``{name, value}``."""
    if isinstance(value, tuple):
        return [{"name": name, "value": written} for name, written in value]
    return value


def library(texts: Sequence[str], grammar: rfc1738.Grammar | None = None) -> Answers:
    """What the library says: verdicts, structs from its match's spans, grammar files."""
    chosen = grammar or rfc1738.load()
    plan = column_plan(chosen)
    answers = Answers([], [], [], [], [])
    for text in texts:
        scheme = chosen.scheme_file(text).scheme
        bare = chosen.is_valid(text, host_checks=False)
        checked = chosen.is_valid(text)
        struct = None
        if bare:
            parser = chosen.engine(scheme)
            spans = {**(parser.checked_spans(text) or {}), **(parser.spans(text) or {})}
            cls = chosen.url_class(scheme)
            url = chosen.parse(text, host_checks=False)
            hooked = {name: getattr(url, f"raw_{name}") for name in cls.READ_BY_HOOK}
            wanted = cls.PRODUCTIONS | CHECKED_PRODUCTIONS
            struct = {SCHEME: text.partition(":")[0]}
            for field in plan.fields:
                if field.name in hooked:
                    struct[field.name] = _pairs(hooked[field.name])
                elif field.name in spans and field.name in wanted:
                    start, end = spans[field.name]
                    struct[field.name] = text[start:end]
                else:
                    struct[field.name] = None
        answers.checked.append(checked)
        answers.bare.append(bare)
        answers.structs.append(struct if checked else None)
        answers.bare_structs.append(struct)
        answers.files.append(scheme)
    return answers


def duckdb_macros(texts: Sequence[str], grammar: rfc1738.Grammar | None = None) -> Answers:
    """The macros of :func:`rfc1738.duckdb.register`, one query over a table of the strings."""
    duckdb = pytest.importorskip("duckdb", reason="duckdb is not installed (rfc1738[duckdb])")
    pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (rfc1738[duckdb])")
    import rfc1738.duckdb

    con = duckdb.connect()
    rfc1738.duckdb.register(con, grammar=grammar)
    con.register("urls", pa.table({"url": pa.array(list(texts), pa.string())}))
    rows = con.sql(
        "SELECT rfc1738_is_valid(url), rfc1738_is_valid(url, host_checks := false), "
        "rfc1738_struct(url), rfc1738_struct(url, host_checks := false), "
        "rfc1738_grammar_file(url) FROM urls"
    ).fetchall()
    return Answers(*(list(column) for column in zip(*rows, strict=True)))


def polars_expressions(texts: Sequence[str], grammar: rfc1738.Grammar | None = None) -> Answers:
    """The expressions of :mod:`rfc1738.polars`, one ``select`` over a frame of the strings."""
    pl = pytest.importorskip("polars", reason="polars is not installed (rfc1738[polars])")
    from rfc1738.polars import grammar_file, is_valid_url, url_struct

    frame = pl.DataFrame({"url": list(texts)}, schema={"url": pl.String})
    found = frame.select(
        is_valid_url("url", grammar=grammar).alias("checked"),
        is_valid_url("url", host_checks=False, grammar=grammar).alias("bare"),
        url_struct("url", grammar=grammar).alias("structs"),
        url_struct("url", host_checks=False, grammar=grammar).alias("bare_structs"),
        grammar_file("url", grammar=grammar).alias("files"),
    )
    return Answers(**{name: found[name].to_list() for name in found.columns})


def _bulk(engine: str) -> Callable[[Sequence[str], rfc1738.Grammar | None], Answers]:
    def run(texts: Sequence[str], grammar: rfc1738.Grammar | None = None) -> Answers:
        if engine == "duckdb":
            pytest.importorskip("duckdb", reason="duckdb is not installed (rfc1738[duckdb])")
        checked = check(list(texts), struct=True, schemes=True, grammar=grammar, engine=engine)  # type: ignore[arg-type]
        bare = check(
            list(texts),
            host_checks=False,
            struct=True,
            grammar=grammar,
            engine=engine,  # type: ignore[arg-type]
        )
        assert checked.engine == engine and bare.engine == engine
        assert checked.structs is not None and bare.structs is not None
        assert checked.schemes is not None
        return Answers(checked.valid, bare.valid, checked.structs, bare.structs, checked.schemes)

    return run


def spark_columns(texts: Sequence[str], grammar: rfc1738.Grammar | None = None) -> Answers:
    """The columns of :mod:`rfc1738.spark`, one ``select`` on the run's one SparkSession."""
    from tests.engines.spark_session import test_session

    spark = test_session()
    from pyspark.sql import functions as F

    from rfc1738.spark import grammar_file, is_valid_url, url_struct

    where = None if grammar is None else grammar.directory
    frame = spark.createDataFrame(list(enumerate(texts)), "id int, url string")
    rows = frame.select(
        "id",
        is_valid_url("url", grammar_dir=where).alias("checked"),
        is_valid_url("url", host_checks=False, grammar_dir=where).alias("bare"),
        url_struct("url", grammar_dir=where).alias("structs"),
        url_struct("url", host_checks=False, grammar_dir=where).alias("bare_structs"),
        grammar_file(F.col("url"), grammar_dir=where).alias("files"),
    ).collect()
    rows.sort(key=lambda row: row["id"])
    answers = Answers([], [], [], [], [])
    for row in rows:
        answers.checked.append(row["checked"])
        answers.bare.append(row["bare"])
        for what in ("structs", "bare_structs"):
            found = row[what]
            getattr(answers, what).append(None if found is None else found.asDict(recursive=True))
        answers.files.append(row["files"])
    return answers


#: Backend name → how it answers (skipping where its library is not installed).
BACKENDS: dict[str, Callable[[Sequence[str], rfc1738.Grammar | None], Answers]] = {
    "duckdb macros": duckdb_macros,
    "polars expressions": polars_expressions,
    "bulk API on duckdb": _bulk("duckdb"),
    "bulk API on python": _bulk("python"),
    "spark columns": spark_columns,
}


def assert_same(backend: str, texts: Sequence[str], got: Answers, want: Answers) -> None:
    """Fail, showing the first few, if ``got`` differs from ``want`` for any string."""
    wrong: list[str] = []
    for what in ("checked", "bare", "files", "structs", "bare_structs"):
        mine, theirs = getattr(got, what), getattr(want, what)
        assert len(mine) == len(theirs) == len(texts), what
        for text, a, b in zip(texts, mine, theirs, strict=True):
            if a != b:
                if isinstance(a, dict) and isinstance(b, dict):
                    a = {k: v for k, v in a.items() if b.get(k) != v}
                    b = {k: v for k, v in b.items() if k in a}
                wrong.append(f"{what} of {text!r}: {a!r}, the library {b!r}")
    assert not wrong, (
        f"{backend}: {len(wrong)} disagreements with rfc1738 on {len(texts)} strings:\n"
        + "\n".join(wrong[:SHOWN])
    )
