"""The exported patterns on the adversarial inputs, in each engine: time per match.

Run with ``python tests/benchmarks/bench_engines.py`` (not part of ``make
test``). For each input of ``bench.ADVERSARIAL`` at each size, the best of
three runs of one match of the scheme's pattern and one of ``any``, in
Python ``re``, Google RE2 (``google-re2``), node's ``RegExp`` and Java's
``java.util.regex`` (``java Adversarial.java``, Java 11+). Prints a Markdown
table in milliseconds (``StackOverflowError``, ``RangeError``: the engine ran
out of stack). ``--sizes`` sets the sizes (default 100,000 and 1,000,000).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import rfc1738
from tests.benchmarks.bench import ADVERSARIAL
from tests.engines.spark_session import find_java_home

HERE = Path(__file__).resolve().parent
SIZES = (100_000, 1_000_000)


def best_of_3(match: Callable[[str], object], other: Callable[[str], object], text: str) -> float:
    times = []
    for _ in range(3):
        started = time.perf_counter()
        match(text)
        other(text)
        times.append(time.perf_counter() - started)
    return min(times) * 1e3


def in_process(
    dialect: str, compile_: Callable[[str], re.Pattern[str]], sizes: tuple[int, ...]
) -> dict[str, float]:
    export = rfc1738.export(dialect)
    anything = compile_(export.any)
    found = {}
    for label, build in ADVERSARIAL.items():
        pattern = compile_(export.schemes[label.partition(":")[0]].pattern)
        for n in sizes:
            found[f"{label}|{n}"] = best_of_3(pattern.search, anything.search, build(n))
    return found


def external(dialect: str, command: list[str], sizes: tuple[int, ...]) -> dict[str, str]:
    export = rfc1738.export(dialect)
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as table:
        for label, build in ADVERSARIAL.items():
            pattern = export.schemes[label.partition(":")[0]].pattern
            for n in sizes:
                table.write(f"{label}|{n}\t{pattern}\t{export.any}\t{build(n)}\n")
    done = subprocess.run([*command, table.name], capture_output=True, text=True, check=True)
    Path(table.name).unlink()
    return dict(line.split("\t") for line in done.stdout.splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", help="comma-separated sizes n of the inputs")
    args = parser.parse_args()
    sizes = tuple(int(size) for size in args.sizes.split(",")) if args.sizes else SIZES

    import re2

    columns: dict[str, dict[str, float] | dict[str, str]] = {
        "python re": in_process("python", re.compile, sizes),
        "google-re2": in_process("re2", re2.compile, sizes),
        "node": external("ecmascript", ["node", str(HERE / "adversarial.js")], sizes),
    }
    java_home = find_java_home()
    if java_home is not None:
        java = str(Path(java_home) / "bin" / "java")
        command = [java, "-Xss1m", str(HERE / "Adversarial.java")]
        columns["java"] = external("java", command, sizes)
    head = " | ".join(f"{name} n={n:,}" for name in columns for n in sizes)
    print(f"| input | {head} |")
    print("|---|" + "---:|" * (len(columns) * len(sizes)))
    for label in ADVERSARIAL:
        cells = []
        for values in columns.values():
            for n in sizes:
                value = values[f"{label}|{n}"]
                cells.append(f"{float(value):.1f}" if _number(value) else str(value))
        print(f"| {label} | " + " | ".join(cells) + " |")


def _number(value: object) -> bool:
    try:
        float(str(value))
    except ValueError:
        return False
    return True


if __name__ == "__main__":
    main()
