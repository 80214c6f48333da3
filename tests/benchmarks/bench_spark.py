"""rfc1738.spark on the corpora: the native columns against the pandas UDF, in rows/s.

Run with ``make bench`` (the last step) or ``python tests/benchmarks/bench_spark.py``
(not part of ``make test``; needs the ``spark`` extra and Java 17). Reads
the lines of the corpora in ``../shared/corpora`` (or ``$RFC1738_CORPORA``),
repeated to ``--lines`` (10^6, as issue 21's targets), into one cached
DataFrame, then times, on a local SparkSession with ``--cores`` cores:

- a baseline: ``length(url) > 0``, what reading the cached rows costs;
- ``is_valid_url(host_checks=False)`` (one ``rlike`` a row, its file's pattern);
- ``is_valid_url`` (grammar and host checks, in the JVM);
- ``url_struct`` (every field of every row, in the JVM, written to Spark's
  ``noop`` sink; the rows with a struct counted once, untimed);
- ``url_verdict`` (the library itself in a pandas UDF: verdict and error).

Each figure is the best of ``--runs`` timed runs after one warm-up run; the
counts of rows kept are checked against ``rfc1738.is_valid`` in this process.
Last, the ratios to ``url_verdict``, within the run. ``--cores 1`` and
``--cores 2`` give how each figure grows with cores.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import rfc1738
from tests.benchmarks.bench import CORPORA, FILES
from tests.engines.spark_session import find_java_home, local_session


def best_of(runs: int, work: Callable[[], int]) -> tuple[float, int]:
    work()  # warm-up: compile the patterns, start the Python workers
    times, result = [], 0
    for _ in range(runs):
        started = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - started)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", default="1,2", help="local cores, one session each: 1,2")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--lines", type=int, default=1_000_000)
    args = parser.parse_args()

    corpora: list[str] = []
    for name in FILES:
        corpora.extend((CORPORA / name).read_text(encoding="utf-8").splitlines())
    lines = (corpora * (args.lines // len(corpora) + 1))[: args.lines]
    valid = sum(rfc1738.is_valid(line) for line in lines)
    bare = sum(rfc1738.is_valid(line, host_checks=False) for line in lines)

    for cores in (int(n) for n in args.cores.split(",")):
        run_session(cores, args.runs, lines, len(corpora), valid, bare)


def run_session(
    cores: int, runs: int, lines: list[str], corpora: int, valid: int, bare: int
) -> None:
    """Every figure on a local session with ``cores`` cores, and the ratios to the pandas UDF."""
    from pyspark.sql import functions as F

    from rfc1738.spark import is_valid_url, url_struct, url_verdict

    spark = local_session("rfc1738-bench", cores=cores)
    frame = spark.createDataFrame([(line,) for line in lines], "url string")
    frame = frame.repartition(cores).cache()
    frame.count()

    def baseline() -> int:
        return frame.filter(F.length("url") > 0).count()

    def grammar_only() -> int:
        return frame.filter(is_valid_url("url", host_checks=False)).count()

    def native() -> int:
        return frame.filter(is_valid_url("url")).count()

    def struct() -> int:
        # Every field of every row built, and written to Spark's sink that
        # keeps nothing: a count of the rows with a struct could be answered
        # from the condition alone (Spark drops what a query does not read).
        frame.select(url_struct("url").alias("u")).write.format("noop").mode("overwrite").save()
        return structs

    # The rows with a struct, counted once (not timed): those is_valid keeps.
    structs = frame.select(url_struct("url").alias("u")).filter(F.col("u").isNotNull()).count()

    def udf() -> int:
        return frame.select(url_verdict("url").alias("v")).filter(F.col("v.valid")).count()

    print(f"Python {platform.python_version()}, Java at {find_java_home()}, ", end="")
    print(f"pyspark {spark.version}, local[{cores}], {platform.machine()}")
    print(f"{len(lines):,} lines of {', '.join(FILES)} ({corpora:,} lines, repeated)")
    print(f"rfc1738.is_valid: {valid:,} valid")
    print(f"{'column':<40}{'seconds':>10}{'rows/s':>12}{'kept':>10}")
    nonempty = sum(1 for line in lines if line)
    seconds_of: dict[str, float] = {}
    for label, work, want in (
        ("length(url) > 0 (baseline)", baseline, nonempty),
        ("is_valid_url(host_checks=False) (JVM)", grammar_only, bare),
        ("is_valid_url (JVM)", native, valid),
        ("url_struct (JVM)", struct, valid),
        ("url_verdict (pandas UDF)", udf, valid),
    ):
        seconds, count = best_of(runs, work)
        print(f"{label:<40}{seconds:>10.2f}{len(lines) / seconds:>12,.0f}{count:>10,}")
        assert count == want, f"{label}: {count} rows, rfc1738.is_valid says {want}"
        seconds_of[label] = seconds
    udf_seconds = seconds_of["url_verdict (pandas UDF)"]
    print("rows/s against url_verdict (targets: url_struct above 1.0x, is_valid_url 2.0x):")
    for label, seconds in seconds_of.items():
        print(f"  {label:<40}{udf_seconds / seconds:>8.2f}x")
    spark.stop()


if __name__ == "__main__":
    main()
