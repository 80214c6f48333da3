"""rfc1738.spark on the corpora: the native columns against the pandas UDF, in rows/s.

Run with ``python tests/benchmarks/bench_spark.py`` (not part of ``make
test``; needs the ``spark`` extra and Java 17). Reads every line of the
corpora in ``../shared/corpora`` (or ``$RFC1738_CORPORA``) into one cached
DataFrame, then times, on a local SparkSession with ``--cores`` cores:

- a baseline: ``length(url) > 0``, what reading the cached rows costs;
- ``is_valid_url(host_checks=False)`` (one ``rlike`` with the ``any`` pattern);
- ``is_valid_url`` (grammar and host checks, in the JVM);
- ``url_struct`` (every field, in the JVM);
- ``url_verdict`` (the library itself in a pandas UDF: verdict and error).

Each figure is the best of ``--runs`` timed runs after one warm-up run; the
counts of rows kept are checked against ``rfc1738.is_valid`` in this process.
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
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()

    from pyspark.sql import functions as F

    from rfc1738.spark import is_valid_url, url_struct, url_verdict

    lines: list[str] = []
    for name in FILES:
        lines.extend((CORPORA / name).read_text(encoding="utf-8").splitlines())
    valid = sum(rfc1738.is_valid(line) for line in lines)
    bare = sum(rfc1738.is_valid(line, host_checks=False) for line in lines)

    spark = local_session("rfc1738-bench", cores=args.cores)
    frame = spark.createDataFrame([(line,) for line in lines], "url string")
    frame = frame.repartition(args.cores).cache()
    frame.count()

    def baseline() -> int:
        return frame.filter(F.length("url") > 0).count()

    def grammar_only() -> int:
        return frame.filter(is_valid_url("url", host_checks=False)).count()

    def native() -> int:
        return frame.filter(is_valid_url("url")).count()

    def struct() -> int:
        parts = frame.select(url_struct("url").alias("u"))
        return parts.filter(F.col("u").isNotNull() & F.col("u.scheme").isNotNull()).count()

    def udf() -> int:
        return frame.select(url_verdict("url").alias("v")).filter(F.col("v.valid")).count()

    print(f"Python {platform.python_version()}, Java at {find_java_home()}, ", end="")
    print(f"pyspark {spark.version}, local[{args.cores}], {platform.machine()}")
    print(f"{len(lines):,} lines of {', '.join(FILES)}; rfc1738.is_valid: {valid:,} valid")
    print(f"{'column':<40}{'seconds':>10}{'rows/s':>12}{'kept':>10}")
    nonempty = sum(1 for line in lines if line)
    for label, work, want in (
        ("length(url) > 0 (baseline)", baseline, nonempty),
        ("is_valid_url(host_checks=False) (JVM)", grammar_only, bare),
        ("is_valid_url (JVM)", native, valid),
        ("url_struct (JVM)", struct, valid),
        ("url_verdict (pandas UDF)", udf, valid),
    ):
        seconds, count = best_of(args.runs, work)
        print(f"{label:<40}{seconds:>10.2f}{len(lines) / seconds:>12,.0f}{count:>10,}")
        assert count == want, f"{label}: {count} rows, rfc1738.is_valid says {want}"
    spark.stop()


if __name__ == "__main__":
    main()
