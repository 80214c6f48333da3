"""The Java dialect in Spark SQL, and ``rfc1738.spark``: one local SparkSession, few queries.

Every sample is one row of one DataFrame; one query computes, per row, the
exported pattern of its scheme (``rlike``), the ``any`` pattern, and the
columns of :mod:`rfc1738.spark` with and without host checks.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rfc1738
from tests.benchmarks.bench import ADVERSARIAL

from .compare import Answer, assert_agree
from .samples import Sample

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

#: The adversarial inputs' size for the Java timing (characters grow about 2n).
ADVERSARIAL_N = 100_000
#: The most one match of one adversarial input may take (linear: a few ms).
ADVERSARIAL_BUDGET = 2.0


def test_java_dialect_and_columns_agree_with_the_library(
    spark: SparkSession, encodable: Sequence[Sample]
) -> None:
    from pyspark.sql import functions as F

    from rfc1738.spark import fields, is_valid_url, url_struct

    export = rfc1738.export("java")
    rows = [(i, sample.scheme, sample.text) for i, sample in enumerate(encodable)]
    frame = spark.createDataFrame(rows, "id int, scheme string, url string")
    url = F.col("url")
    by_scheme = None
    for scheme, found in export.schemes.items():
        test = F.col("scheme") == scheme
        matched = url.rlike(found.pattern)
        by_scheme = F.when(test, matched) if by_scheme is None else by_scheme.when(test, matched)
    assert by_scheme is not None
    result = frame.select(
        "id",
        by_scheme.alias("matched"),
        url.rlike(export.any).alias("any"),
        is_valid_url(url).alias("valid"),
        is_valid_url(url, host_checks=False).alias("bare"),
        url_struct(url).isNull().alias("no_struct"),
        url_struct(url, host_checks=False).alias("parts"),
    )
    answers, wrong = [], []
    hooked = 0
    collected = sorted(result.collect(), key=lambda row: row["id"])
    for sample, row in zip(encodable, collected, strict=True):
        answers.append(Answer(row["matched"], row["any"]))
        if row["valid"] != sample.checked or row["no_struct"] == sample.checked:
            wrong.append(
                f"{sample.text!r}: is_valid_url {row['valid']}, url_struct {row['no_struct']}"
            )
        if row["bare"] != sample.valid:
            wrong.append(f"{sample.text!r}: is_valid_url(host_checks=False) {row['bare']}")
        if sample.valid:
            got = {
                name: _plain(row["parts"][name])
                for name in fields()
                if row["parts"][name] is not None
            }
            # The productions' texts, and the fields the class reads with a hook
            # (null where absent), as the library has them.
            want: dict[str, object] = {name: sample.text[a:b] for name, (a, b) in sample.spans}
            want.pop("scheme", None)  # the generic production's: the struct's own scheme
            want.update((name, value) for name, value in sample.values if value is not None)
            hooked += len(sample.values)
            if got != want or row["parts"]["scheme"] != sample.text.partition(":")[0]:
                wrong.append(f"{sample.text!r}: url_struct {got} != {want}")
        elif row["parts"] is not None:
            wrong.append(f"{sample.text!r}: url_struct of an invalid URL {row['parts']}")
    assert_agree("spark rlike", export, encodable, answers)
    assert hooked > 0
    assert not wrong, f"rfc1738.spark: {len(wrong)} disagreements:\n" + "\n".join(wrong[:10])


def _plain(value: object) -> object:
    """A struct field as the library gives it: fieldspecs' array of structs as pairs."""
    if isinstance(value, list):
        return tuple((spec["name"], spec["value"]) for spec in value)
    return value


def test_the_pandas_udf_gives_the_librarys_errors(
    spark: SparkSession, all_samples: Sequence[Sample]
) -> None:
    from rfc1738.spark import url_verdict

    texts: list[str | None] = [s.text for s in all_samples if "\x00" not in s.text][::40]
    texts.append(None)
    # One partition: one Python worker to start, not one per core.
    frame = spark.createDataFrame([(t,) for t in texts], "url string").coalesce(1)
    got = [
        tuple(row[0]) if row[0] is not None else None
        for row in frame.select(url_verdict("url")).collect()
    ]
    want: list[object] = []
    for text in texts:
        if text is None:
            want.append((None,) * 6)
            continue
        try:
            url = rfc1738.parse(text)
        except rfc1738.URLSyntaxError as error:
            want.append((False, None, error.reason, error.position, error.rule, str(error)))
        else:
            want.append((True, type(url).__name__, None, None, None, None))
    wrong = [f"{t!r}: {g} != {w}" for t, g, w in zip(texts, got, want, strict=True) if g != w]
    assert not wrong, f"url_verdict: {len(wrong)} disagreements:\n" + "\n".join(wrong[:10])


def test_the_java_screen_passes_only_urls_that_pass_the_host_checks(
    spark: SparkSession, encodable: Sequence[Sample]
) -> None:
    """What a file's ``java_screened`` takes is valid, host checks and all, in Java."""
    from rfc1738.columns import column_plan

    plan = column_plan()
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    compile_ = jvm.java.util.regex.Pattern.compile
    screens = {name: compile_(s.java_screened) for name, s in plan.schemes.items()}
    long_names = [
        f"http://{'a' * 63}.{'b' * 63}.{'c' * 63}.{'d' * 63}/",
        f"http://{'a' * 63}.{'b' * 63}.{'c' * 63}.{'d' * 63}.e/",
        f"ftp://u@{'a' * 64}.b/",
        f"news:x@{'a' * 63}.b",
    ]
    texts = [sample.text for sample in encodable] + long_names
    passed = 0
    for text in texts:
        scheme = text.partition(":")[0].lower() if ":" in text else ""
        screen = screens.get(scheme, screens[plan.generic])
        if screen.matcher(text).matches():
            passed += 1
            assert rfc1738.is_valid(text), text
    assert passed > len(texts) / 4
    # The name of 255 characters and the labels of 63 pass it; one more does not.
    assert [bool(screens[t.partition(":")[0]].matcher(t).matches()) for t in long_names] == [
        True,
        False,
        False,
        True,
    ]


def test_the_short_screen_is_the_screen_on_urls_no_longer_than_a_label(
    spark: SparkSession, encodable: Sequence[Sample]
) -> None:
    """A file's ``java_screened_short`` takes what its ``java_screened`` does, on short URLs.

    A URL of at most ``limits.label`` bytes holds no label or name the
    lookaheads would refuse: is_valid_url runs the short screen on those.
    Longer, it would take a label too long: the length decides which runs.
    """
    from rfc1738.columns import column_plan

    plan = column_plan()
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    compile_ = jvm.java.util.regex.Pattern.compile
    screens = {name: compile_(s.java_screened) for name, s in plan.schemes.items()}
    shorts = {name: compile_(s.java_screened_short) for name, s in plan.schemes.items()}
    label = plan.limits.label
    edges = [f"http://{'a' * (label - 10)}.b/", f"ftp://{'a' * (label - 8)}/", "HTTP://1.2.3.4:99/"]
    texts = [s.text for s in encodable if len(s.text.encode()) <= label] + edges
    assert all(len(text.encode()) <= label for text in edges)
    taken = 0
    for text in texts:
        scheme = text.partition(":")[0].lower() if ":" in text else ""
        name = scheme if scheme in shorts else plan.generic
        short = bool(shorts[name].matcher(text).matches())
        assert short == bool(screens[name].matcher(text).matches()), text
        taken += short
    assert taken > len(texts) / 4
    too_long = f"ftp://u@{'a' * (label + 1)}.b/"
    assert shorts["ftp"].matcher(too_long).matches()
    assert not screens["ftp"].matcher(too_long).matches()
    assert not rfc1738.is_valid(too_long)


def test_the_fields_url_struct_takes_out_are_ascii() -> None:
    """Every character a file's marked Java pattern takes is ASCII (lookbehinds aside).

    url_struct checks the host's and the port's lengths by their count of
    bytes, which is their count of characters only for ASCII text.
    """
    from rfc1738.columns import column_plan
    from rfc1738.compile import written

    for name, scheme in column_plan().schemes.items():
        taken = written.chars(written.read(scheme.java_pattern, java=True))
        assert taken is not None, name
        assert all(char.isascii() for char in taken), name


def test_the_plan_s_java_patterns_are_the_export_s_with_the_classes_listed() -> None:
    """The Java patterns Spark runs: the exported ones, each ASCII class one character at a time.

    ``java.util.regex`` makes such a class one table lookup (the compiler
    writes them so: ``compile/columns.py``); the screens' classes too.
    """
    from dataclasses import replace

    from rfc1738.columns import column_plan
    from rfc1738.compile import written

    def spelled_out(node: written.Node) -> written.Node | None:
        if isinstance(node, written.Atom) and node.chars is not None and not node.anchor:
            return replace(node, text="".join(sorted(node.chars)))
        return None

    classes: list[written.Atom] = []

    def kept(node: written.Node) -> None:
        if isinstance(node, written.Atom) and node.text.startswith("[") and node.chars:
            classes.append(node)

    exported = rfc1738.export("java")
    plan = column_plan()
    for name, scheme in plan.schemes.items():
        ours, theirs = (
            written.transform(written.read(p, java=True), spelled_out)
            for p in (scheme.java, exported.schemes[name].pattern)
        )
        assert ours == theirs, name
        for pattern in (scheme.java, scheme.java_pattern, scheme.java_screened_short):
            assert pattern is not None
            written.transform(written.read(pattern, java=True), lambda n: kept(n))
        assert scheme.java_screened is not None
        assert "-9]" not in scheme.java_screened and "-Z" not in scheme.java_screened
    assert classes
    for atom in classes:
        if all(char.isascii() for char in atom.chars or ()):
            inside = atom.text[1:-1].replace("\\x2d", "")
            assert "-" not in inside, atom.text


@given(
    host=st.from_regex(r"\A[a-z0-9]{1,70}(\.[a-z0-9]{1,70}){0,4}\Z"),
    number=st.from_regex(r"\A0{0,2}[0-9]{1,4}(\.0{0,2}[0-9]{1,4}){3}\Z"),
    port=st.from_regex(r"\A0{0,3}[0-9]{0,6}\Z"),
    numeric=st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_the_java_checks_are_the_host_checks(
    spark: SparkSession, host: str, number: str, port: str, numeric: bool
) -> None:
    """``java_checks`` on the checked fields written side by side: the library's checks."""
    from rfc1738.columns import column_plan
    from rfc1738.runtime.hosts import MAX_HOST, MAX_LABEL, MAX_OCTET, MAX_PORT
    from rfc1738.runtime.numbers import exceeds

    limits = column_plan().limits
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    checks = jvm.java.util.regex.Pattern.compile(limits.java_checks)
    if numeric:
        host = number
    parts = host.split(".")
    want = len(host) <= MAX_HOST and not (
        any(exceeds(part, MAX_OCTET) for part in parts)
        if numeric
        else any(len(part) > MAX_LABEL for part in parts)
    )
    want = want and not (port and exceeds(port, MAX_PORT))
    text = limits.checks_separator.join((host, host if numeric else "", port))
    assert bool(checks.matcher(text).matches()) == want


@pytest.mark.parametrize("dialect", ["java"])
def test_java_stays_linear_on_adversarial_inputs(spark: SparkSession, dialect: str) -> None:
    # java.util.regex itself, in Spark's JVM: each match of ~200,000 characters
    # in milliseconds, and no StackOverflowError (a backtracking loop per
    # label or field used to overflow at about 1,500 of them).
    export = rfc1738.export(dialect)
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    compile_ = jvm.java.util.regex.Pattern.compile
    anything = compile_(export.any)
    slow = []
    for label, build in ADVERSARIAL.items():
        pattern = compile_(export.schemes[label.partition(":")[0]].pattern)
        text = build(ADVERSARIAL_N)
        started = time.perf_counter()
        pattern.matcher(text).find()
        anything.matcher(text).find()
        spent = time.perf_counter() - started
        if spent > ADVERSARIAL_BUDGET:
            slow.append(f"{label}: {spent:.2f} s")
    assert not slow, slow


def test_regexp_extract_gives_each_field(spark: SparkSession, encodable: Sequence[Sample]) -> None:
    # The exported Java patterns as users of regexp_extract(col, pattern, n)
    # use them: one union of per-scheme selects, one group number per field.
    from pyspark.sql import functions as F

    export = rfc1738.export("java")
    frame = spark.createDataFrame(
        [(i, s.scheme, s.text) for i, s in enumerate(encodable) if s.valid],
        "id int, scheme string, url string",
    )
    selects = []
    for scheme, found in export.schemes.items():
        groups = sorted(found.numbers.values())
        extracted = F.array(*(F.regexp_extract("url", found.pattern, n) for n in groups))
        selects.append(frame.filter(F.col("scheme") == scheme).select("id", extracted.alias("g")))
    union = selects[0]
    for select in selects[1:]:
        union = union.unionByName(select)
    by_id = {row["id"]: row["g"] for row in union.collect()}
    valid = [s for s in encodable if s.valid]
    answers = []
    for i, sample in enumerate(encodable):
        if not sample.valid:
            continue
        found = export.schemes[sample.scheme]
        value = dict(zip(sorted(found.numbers.values()), by_id[i], strict=True))
        texts = {p: "".join(value[n] for n in numbers) for p, numbers in found.fields().items()}
        answers.append(Answer(True, True, texts))
    assert_agree("spark regexp_extract", export, valid, answers, given="empty_for_absent")


def test_spark_page_examples(spark: SparkSession) -> None:
    # docs/spark.md shows real output: its examples run on the test session.
    from tests.doc_examples import DOCS, run_examples

    results = run_examples(DOCS / "spark.md", globs={"spark": spark})
    assert results.attempted > 5
    assert results.failed == 0


def test_the_documented_session_names_the_workers_python(spark: SparkSession) -> None:
    # The session is docs/spark.md's code, run with PYSPARK_PYTHON unset: the
    # workers run this Python because the code says so (url_verdict above,
    # and the page's examples, import rfc1738 in them).
    import sys

    from .spark_session import session_code

    assert 'os.environ["PYSPARK_PYTHON"] = sys.executable' in session_code()
    assert spark.sparkContext.pythonExec == sys.executable
