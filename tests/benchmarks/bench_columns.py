"""The column plan's backends against a plain ``urlsplit`` loop: bulk API, DuckDB, Polars.

Run by ``make bench`` (not part of ``make test``). Builds ``--lines`` lines
(10^6 by default) by cycling through every line of the shared corpora
(``../shared/corpora``, or ``$RFC1738_CORPORA``), then times, each the best of
``--runs`` within this one run, every figure as lines per second and as a
ratio to a plain Python loop calling ``urllib.parse.urlsplit`` on the same
lines (the wrapped function, without its cache):

- the bulk API, :func:`rfc1738.columns.check`, on the list of strings, on
  DuckDB and on the library in Python, with ``rfc1738.is_valid`` in a loop
  beside them; then on the file (:func:`rfc1738.columns.check_batches`,
  against the loop over the file's lines, reading included), with the
  grammar files (``schemes=True``) as ``rfc1738 check`` counts them;
- DuckDB's macros (``rfc1738_is_valid``, with and without host checks,
  ``rfc1738_struct``) and Polars' expressions (``is_valid_url``,
  ``url_struct``) over the lines already in the engine;
- the errors of the rejected lines: a pass in Python over them against the
  DuckDB and Polars functions (UDFs) that run the same code;
- each DuckDB figure on 1 and on 2 threads, Polars' on 1 and on 2 (a fresh
  process each: ``POLARS_MAX_THREADS``);
- the plan's first use in a fresh process: computed (an empty cache), and
  read from the disk cache.

Every verdict count is checked against ``rfc1738.is_valid``.

    python tests/benchmarks/bench_columns.py [--lines 1000000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import rfc1738
from rfc1738.columns import check, check_batches

CORPORA = Path(os.environ.get("RFC1738_CORPORA", Path(__file__).parents[3] / "shared" / "corpora"))
SPLIT = getattr(urlsplit, "__wrapped__", urlsplit)


def corpus_lines(count: int) -> list[str]:
    """``count`` lines, cycling through every line of every corpus file."""
    found: list[str] = []
    for path in sorted(CORPORA.glob("*.txt")):
        found.extend(path.read_text(encoding="utf-8", errors="surrogateescape").splitlines())
    if not found:
        sys.exit(f"no corpora at {CORPORA}")
    return [found[i % len(found)] for i in range(count)]


def best(runs: int, work: Callable[[], object]) -> tuple[float, object]:
    """The fastest of ``runs`` timings of ``work`` (seconds), and its last result."""
    fastest, result = float("inf"), None
    for _ in range(runs):
        start = time.perf_counter()
        result = work()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest, result


def split_loop(urls: list[str]) -> int:
    for url in urls:
        try:  # noqa: SIM105 (a context manager per URL costs a third of a microsecond)
            SPLIT(url)
        except ValueError:
            pass
    return len(urls)


def split_file(path: Path) -> int:
    count = 0
    with open(path, encoding="utf-8", errors="surrogateescape") as lines:
        for line in lines:
            try:  # noqa: SIM105 (as above)
                SPLIT(line.rstrip("\n"))
            except ValueError:
                pass
            count += 1
    return count


class Table:
    """Rows of figures, each against the loop it is compared with."""

    def __init__(self, lines: int) -> None:
        self.lines = lines
        print(f"{'figure':<58}{'seconds':>9}{'lines/s':>13}{'vs loop':>9}")

    def row(self, label: str, seconds: float, base: float | None) -> None:
        ratio = f"{base / seconds:>8.2f}x" if base else f"{'':>9}"
        print(f"{label:<58}{seconds:>9.3f}{self.lines / seconds:>13,.0f}{ratio}", flush=True)


def bulk(urls: list[str], path: Path, runs: int, table: Table, valid: int) -> float:
    loop, _ = best(runs, lambda: split_loop(urls))
    table.row("urlsplit loop over the list (the base)", loop, loop)
    seconds, _ = best(runs, lambda: sum(map(rfc1738.is_valid, urls)))
    table.row("rfc1738.is_valid loop over the list", seconds, loop)
    check(urls[:10], engine="duckdb")  # the connection and its macros, once per process
    # The verdicts as a list of bools: what a caller of check() reads.
    seconds, found = best(runs, lambda: check(urls, engine="duckdb").valid)
    assert sum(1 for v in found if v) == valid  # type: ignore[attr-defined]
    table.row("bulk API check(list).valid, DuckDB", seconds, loop)
    seconds, found = best(runs, lambda: check(urls, schemes=True, engine="duckdb").schemes)
    table.row("bulk API check(list, schemes=True).schemes, DuckDB", seconds, loop)
    seconds, found = best(1, lambda: check(urls, engine="python"))
    assert sum(1 for v in found.valid if v) == valid  # type: ignore[attr-defined]
    table.row("bulk API check(list), Python (the library)", seconds, loop)
    file_loop, _ = best(runs, lambda: split_file(path))
    table.row("urlsplit loop over the file (the base for files)", file_loop, file_loop)

    # What rfc1738 check keeps of a file: counts (by grammar file), not a verdict a line.
    def batches(schemes: bool) -> int:
        found = 0
        for batch in check_batches(path, schemes=schemes, engine="duckdb"):
            found += len(batch) - batch.invalid
            if schemes:
                batch.counts()
        return found

    seconds, found = best(runs, lambda: batches(False))
    assert found == valid
    table.row("bulk API check_batches(file), valid count, DuckDB", seconds, file_loop)
    seconds, found = best(runs, lambda: batches(True))
    table.row("bulk API check_batches(file), counts(), DuckDB", seconds, file_loop)
    return loop


def duckdb_figures(urls: list[str], runs: int, table: Table, valid: int, loop: float) -> None:
    import duckdb
    import pyarrow as pa

    import rfc1738.duckdb

    con = duckdb.connect()
    rfc1738.duckdb.register(con)
    con.register("urls", pa.table({"url": pa.array(urls, pa.large_string())}))
    queries = {
        "rfc1738_is_valid(url)": "SELECT count(*) FILTER (rfc1738_is_valid(url)) FROM urls",
        "rfc1738_is_valid(url, host_checks := false)": (
            "SELECT count(*) FILTER (rfc1738_is_valid(url, host_checks := false)) FROM urls"
        ),
        "rfc1738_struct(url)": "SELECT count(rfc1738_struct(url)) FROM urls",
    }
    for threads in (1, 2):
        con.execute(f"SET threads = {threads}")
        for label, query in queries.items():
            seconds, found = best(runs, lambda q=query: con.sql(q).fetchall()[0])
            if "host_checks" not in label:
                assert found == (valid,), found
            table.row(f"DuckDB {label}, {threads} thread(s)", seconds, loop)


POLARS = """
import json, sys, time
import polars as pl
from rfc1738.polars import is_valid_url, url_struct
urls = json.load(open(sys.argv[1]))
frame = pl.DataFrame({"url": urls})
times = {}
bare = is_valid_url("url", host_checks=False).sum()
for label, expr in (("is_valid_url", is_valid_url("url").sum()),
                    ("is_valid_url(host_checks=False)", bare),
                    ("url_struct", url_struct("url").is_not_null().sum())):
    best = float("inf")
    for _ in range(int(sys.argv[2])):
        start = time.perf_counter()
        found = frame.select(expr).item()
        best = min(best, time.perf_counter() - start)
    times[label] = [best, found]
print(json.dumps(times))
"""


def polars_figures(urls: list[str], runs: int, table: Table, valid: int, loop: float) -> None:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as out:
        json.dump(urls, out)
    try:
        for threads in (1, 2):
            env = {**os.environ, "POLARS_MAX_THREADS": str(threads)}
            done = subprocess.run(
                [sys.executable, "-c", POLARS, out.name, str(runs)],
                capture_output=True,
                text=True,
                check=True,
                env=env,
            )
            for label, (seconds, found) in json.loads(done.stdout).items():
                if "host_checks" not in label:
                    assert found == valid, (label, found)
                table.row(f"Polars {label}, {threads} thread(s)", seconds, loop)
    finally:
        os.unlink(out.name)


def errors(urls: list[str], runs: int) -> None:
    """The rejected lines' errors: a loop over them, a DuckDB UDF, a Polars UDF (per line)."""
    import duckdb
    import polars as pl
    import pyarrow as pa

    import rfc1738.duckdb
    from rfc1738.columns.errors import error_of, error_row
    from rfc1738.polars import url_error

    grammar = rfc1738.load()
    rejected = [u for u in urls if not rfc1738.is_valid(u)]
    storable = [u for u in rejected if not any(0xD800 <= ord(c) <= 0xDFFF for c in u)]
    loop, _ = best(
        runs, lambda: [error_row(e) for u in storable if (e := error_of(grammar, u, True))]
    )
    con = duckdb.connect()
    rfc1738.duckdb.register(con)
    con.register("rejected", pa.table({"url": pa.array(storable, pa.large_string())}))
    udf, _ = best(runs, lambda: con.sql("SELECT rfc1738_error(url) FROM rejected").fetchall())
    frame = pl.DataFrame({"url": storable})
    polars, _ = best(runs, lambda: frame.select(url_error("url")).to_series().to_list())
    count = len(storable)
    print(
        f"errors of {count:,} rejected lines, per line: a loop in Python "
        f"{loop / count * 1e6:.1f} us; "
        f"DuckDB's rfc1738_error {udf / count * 1e6:.1f} us; Polars' url_error "
        f"{polars / count * 1e6:.1f} us"
    )


FIRST = (
    "import time; t = time.perf_counter(); from rfc1738.columns import column_plan; "
    "column_plan(); print(time.perf_counter() - t)"
)


def first_use() -> None:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "RFC1738_CACHE_DIR": cache}
        times = []
        for _ in range(2):  # an empty cache, then the file the first run wrote
            done = subprocess.run(
                [sys.executable, "-c", FIRST], capture_output=True, text=True, check=True, env=env
            )
            times.append(float(done.stdout))
    print(
        f"the plan's first use in a fresh process: computed {times[0] * 1e3:.0f} ms "
        f"(imports and Lark included); from the disk cache {times[1] * 1e3:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, "
        f"{time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()[0]:.1f}"
    )
    urls = corpus_lines(args.lines)
    valid = sum(map(rfc1738.is_valid, urls))
    print(f"{len(urls):,} lines from {CORPORA}, {valid:,} valid")
    first_use()
    table = Table(len(urls))
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "urls.txt"
        path.write_text("\n".join(urls) + "\n", encoding="utf-8", errors="surrogateescape")
        loop = bulk(urls, path, args.runs, table, valid)
    duckdb_figures(urls, args.runs, table, valid, loop)
    polars_figures(urls, args.runs, table, valid, loop)
    errors(urls, args.runs)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
