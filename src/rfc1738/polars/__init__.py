"""RFC 1738 in Polars: expressions that validate URLs and take them apart (``rfc1738[polars]``).

Written from the grammar's column plan (:mod:`rfc1738.columns.plan`): its
RE2 patterns run in Polars' string functions (Rust's ``regex`` crate reads
them), its host checks and cuts are Polars expressions. No Python runs per
row but in :func:`url_error`, which asks the library why a URL is not
valid.

>>> import polars as pl  # doctest: +SKIP
>>> from rfc1738.polars import is_valid_url, url_struct  # doctest: +SKIP
>>> df.select(is_valid_url("url"), url_struct("url").struct.field("host"))  # doctest: +SKIP

Polars computes every branch of ``when``/``then`` on every row, so the
costly parts (a scheme's pattern that takes URLs apart, the host checks'
second look) run on a column where the rows they do not concern are null,
which costs next to nothing.

The top layer: it imports the URL layer and the column plan, nothing imports
it, and ``import rfc1738`` does not import it (nor polars).
"""

from __future__ import annotations

import polars as pl

from ..columns.errors import ERROR_FIELDS, error_of, error_row
from ..columns.plan import SCHEME, ColumnPlan, FieldSource, SchemeColumns
from ..columns.store import column_plan
from ..runtime.hooks import Derived
from ..urls import Grammar, shipped

__all__ = ["ERROR_DTYPE", "grammar_file", "is_valid_url", "url_error", "url_struct"]

#: The dtype of :func:`url_error`'s struct.
ERROR_DTYPE = pl.Struct(
    {"reason": pl.String, "position": pl.Int32, "rule": pl.String, "error": pl.String}
)

#: The dtype of a ``"pairs"`` field: prospero's fieldspecs.
PAIRS_DTYPE = pl.List(pl.Struct({"name": pl.String, "value": pl.String}))

#: The scheme as section 2.1 reads it: group 1, ASCII characters before the first ``:``.
DISPATCH = r"^([^:\x{80}-\x{10ffff}]+):"

IntoExpr = pl.Expr | str


def _expr(col: IntoExpr) -> pl.Expr:
    return pl.col(col) if isinstance(col, str) else col


def _plan(grammar: Grammar | None) -> ColumnPlan:
    return column_plan(shipped() if grammar is None else grammar)


def grammar_file(col: IntoExpr, *, grammar: Grammar | None = None) -> pl.Expr:
    """The grammar file that reads each URL: its scheme's, in lower case, or ``generic``.

    The scheme is the text before the first ``:``, compared without case
    (ASCII letters only, section 2.1); null for null.
    """
    return _file_of(_plan(grammar), _expr(col))


def _file_of(plan: ColumnPlan, url: pl.Expr) -> pl.Expr:
    key = url.str.extract(DISPATCH, 1).str.to_lowercase()
    names = [name for name in plan.schemes if name != plan.generic]
    found = key.replace_strict(names, names, default=plan.generic, return_dtype=pl.String)
    return pl.when(url.is_null()).then(None).otherwise(found)


class _Let:
    """Values computed once and named, for the expressions after them: ``let`` for Polars.

    Polars does not always find that an expression is used twice (one
    under ``when``, say) and may compute it for each use; a struct's
    fields, added stage by stage (``struct.with_fields``) and read with
    ``pl.field``, are computed once.
    """

    def __init__(self, **values: pl.Expr) -> None:
        self.expr = pl.struct([value.alias(name) for name, value in values.items()])

    def then(self, **values: pl.Expr) -> _Let:
        """Add ``values``, which may read the values before them with ``pl.field``."""
        self.expr = self.expr.struct.with_fields(**values)
        return self

    def get(self, name: str) -> pl.Expr:
        """The value named ``name``."""
        found: pl.Expr = self.expr.struct.field(name)
        return found


f = pl.field


def is_valid_url(
    col: IntoExpr, *, host_checks: bool = True, grammar: Grammar | None = None
) -> pl.Expr:
    """A boolean column: :func:`rfc1738.is_valid` of each string; null for null.

    ``host_checks=False`` gives the bare grammar's verdict (one
    ``str.contains`` with the plan's ``verdict`` pattern). With host checks,
    most URLs take one ``str.contains`` with the plan's ``screened``
    pattern (a long one its ``short_labels`` and ``short_host`` too); the
    few left in doubt (a long label, a large port: 613 of the million
    lines of the corpora) are judged by the library, in Python: taking
    them apart in Polars cost every row more than that.
    """
    chosen = shipped() if grammar is None else grammar
    url = _expr(col)
    plan = column_plan(chosen)
    if not host_checks:
        return url.str.contains(plan.verdict)
    limits = plan.limits
    let = _Let(u=url)
    if plan.screened is None:
        let.then(ok=f("u").str.contains(plan.verdict)).then(doubt=f("ok"))
    else:
        let.then(ok=f("u").str.contains(plan.screened), length=f("u").str.len_chars())
        let.then(long=f("ok") & (f("length") > limits.label))
        grammar_ok = pl.when(~f("ok")).then(f("u")).str.contains(plan.verdict).fill_null(False)
        if plan.short_labels is not None and plan.short_host is not None:
            # The host's labels, then its length, where the screen took a long URL.
            longer = f("long") & (f("length") > limits.host)
            labels = pl.when(f("long")).then(f("u")).str.contains(plan.short_labels)
            name = pl.when(longer).then(f("u")).str.contains(plan.short_host)
            let.then(short=labels.fill_null(True) & name.fill_null(True), rest=grammar_ok)
            let.then(doubt=~f("short") | f("rest"))
        else:
            long = f("long") & (f("length") <= limits.host)
            run = (
                pl.lit(True)
                if plan.label_run is None
                else pl.when(long).then(f("u")).str.contains(plan.label_run).fill_null(False)
            )
            let.then(run=run, rest=grammar_ok)
            let.then(doubt=(f("long") & ((f("length") > limits.host) | f("run"))) | f("rest"))

    def judged(urls: pl.Series) -> pl.Series:
        """The library's verdict on the URLs in doubt (the others are null here)."""
        found = pl.Series(urls.name, [None] * len(urls), dtype=pl.Boolean)
        doubted = urls.is_not_null().arg_true()
        if len(doubted):
            verdicts = [chosen.is_valid(text) for text in urls.gather(doubted).to_list()]
            found = found.scatter(doubted, verdicts)
        return found

    doubted = pl.when(f("doubt")).then(f("u")).map_batches(judged, return_dtype=pl.Boolean)
    valid = pl.when(f("u").is_null()).then(None).when(f("doubt")).then(doubted).otherwise(f("ok"))
    return let.then(valid=valid).get("valid")


def _value(source: FieldSource, groups: pl.Expr) -> pl.Expr:
    """The field's text, null where it took no part (Polars says so of each group)."""
    texts = [groups.struct.field(name) for name in source.names]
    return texts[0] if len(texts) == 1 else pl.coalesce(texts)


def _field(source: FieldSource, groups: pl.Expr) -> pl.Expr:
    value = _value(source, groups)
    return value if source.cut is None else _cut(value, source.cut)


def _cut(value: pl.Expr, cut: Derived) -> pl.Expr:
    """:meth:`Derived.apply` as a Polars expression on ``value``."""
    if cut.pair:
        halves = pl.element().str.splitn(cut.pair, 2)
        pair = pl.struct(
            name=halves.struct.field("field_0"),
            value=halves.struct.field("field_1").fill_null(""),
        )
        return value.str.split(cut.separator).list.slice(1).list.eval(pair)
    if cut.parts:
        return value.str.splitn(cut.separator, cut.parts).struct.field(f"field_{cut.part}")
    return value.str.split(cut.separator).list.get(cut.part, null_on_oob=True)


def _host_checks(plan: ColumnPlan, scheme: SchemeColumns, groups: pl.Expr) -> pl.Expr:
    """The checks of :func:`rfc1738.runtime.hosts.check_spans` on one scheme's fields.

    As the plan's patterns (:class:`~rfc1738.columns.plan.HostLimits`): on
    a column of mostly nulls, a pattern costs nothing where splitting into
    lists does.
    """
    limits = plan.limits
    ok = pl.lit(True)
    host = scheme.fields.get("host")
    if host is not None:
        text = _value(host, groups)
        labels = ~text.str.contains(limits.long_label)
        number = scheme.fields.get("hostnumber")
        if number is None:
            shape = labels
        else:
            octets = ~text.str.contains(limits.large_part)
            shape = pl.when(_value(number, groups).is_not_null()).then(octets).otherwise(labels)
        ok = ok & (text.is_null() | ((text.str.len_chars() <= limits.host) & shape))
    port = scheme.fields.get("port")
    if port is not None:
        value = _value(port, groups)
        ok = ok & (value.is_null() | ~value.str.contains(limits.large_port))
    return ok


def url_struct(
    col: IntoExpr, *, host_checks: bool = True, grammar: Grammar | None = None
) -> pl.Expr:
    """A struct column: ``scheme`` as written, then every field of the plan, as written.

    Null where the URL's scheme has no such field or the URL leaves it out,
    ``""`` where it is empty; prospero's ``fieldspecs`` a list of
    ``{name, value}``; the struct null for a URL that is not valid (host
    checks unless ``host_checks=False``). The same contract as
    :func:`rfc1738.duckdb.register`'s ``rfc1738_struct``.
    """
    plan = _plan(grammar)
    let = _Let(u=_expr(col))
    let.then(file=_file_of(plan, f("u")))
    let.then(
        **{
            f"groups_{s.name}": pl.when(f("file") == s.name)
            .then(f("u"))
            .str.extract_groups(s.pattern)
            for s in plan.schemes.values()
        }
    )
    valid: list[pl.Expr] = []
    values: dict[str, list[pl.Expr]] = {field.name: [] for field in plan.fields}
    for scheme in plan.schemes.values():
        groups = f(f"groups_{scheme.name}")
        matched = groups.struct.field("1").is_not_null()
        if host_checks:
            matched = matched & _host_checks(plan, scheme, groups)
        valid.append(pl.when(f("file") == scheme.name).then(matched))
        for name, source in scheme.fields.items():
            values[name].append(_field(source, groups))
    columns = [f("u").str.split_exact(":", 1).struct.field("field_0").alias(SCHEME)]
    for field in plan.fields:
        dtype = PAIRS_DTYPE if field.kind == "pairs" else pl.String
        found = values[field.name]
        if not found:
            column = pl.lit(None, dtype=dtype)
        else:
            column = found[0] if len(found) == 1 else pl.coalesce(found)
        columns.append(column.cast(dtype).alias(field.name))
    let.then(valid=pl.coalesce(valid).fill_null(False))
    return let.then(struct=pl.when(f("valid")).then(pl.struct(columns))).get("struct")


def url_error(
    col: IntoExpr, *, host_checks: bool = True, grammar: Grammar | None = None
) -> pl.Expr:
    """The library's error of each URL that is not valid; null for a valid one (and for null).

    A struct of ``reason``, 0-based ``position``, ``rule`` and the full
    message ``error``, from :func:`rfc1738.parse` run in Python (a batch of
    rows at a time): use it on the rows :func:`is_valid_url` rejects.
    """
    chosen = shipped() if grammar is None else grammar

    def explain(urls: pl.Series) -> pl.Series:
        rows: list[dict[str, object] | None] = []
        for text in urls.to_list():
            error = None if text is None else error_of(chosen, text, host_checks)
            rows.append(None if error is None else error_row(error))
        return pl.Series(urls.name, rows, dtype=ERROR_DTYPE)

    assert tuple(field.name for field in ERROR_DTYPE.fields) == ERROR_FIELDS
    return _expr(col).map_batches(explain, return_dtype=ERROR_DTYPE)
