"""Speed of errors: the first one in a process, then per rejected corpus line.

Run with ``make bench`` (not part of ``make test``; nothing here asserts a
time). Prints:

- the first error in a fresh process (``parse`` of a bad URL and
  ``str(error)``), after ``import rfc1738`` and after the scheme's regular
  expression is compiled, so that it is the error's own cost: the error
  automaton loaded from the wheel's tables (``rfc1738/runtime/_tables.py``);
- per corpus of ``../shared/corpora``: the median, 90th percentile and mean
  microseconds of ``parse`` + ``str(error)`` over its rejected lines, and
  the same for the Earley reference on a sample;
- the time of one error against input length (10 kB to 1 MB).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import rfc1738
from rfc1738.urls.grammar import shipped

CORPORA = Path(os.environ.get("RFC1738_CORPORA", Path(__file__).parents[3] / "shared" / "corpora"))
FILES = ("web_http.txt", "web_https.txt", "node_files.txt", "isaacs_files.txt", "legacy_mixed.txt")

#: Bad URLs of several schemes for the first error in a process.
FIRST = ("http://h/a~b", "ftp://h/a b", "mailto:", "x-foo:a|b")

_FIRST_ERROR = """
import sys, time
import rfc1738
text = sys.argv[1]
# Compile the scheme's expression and the generic one (an error of a
# predefined scheme asks whether the generic production takes the URL):
# prebuilt with the wheel too, and not the error's own cost.
rfc1738.is_valid(text)
rfc1738.is_valid("x-y:z")
began = time.perf_counter()
try:
    rfc1738.parse(text)
except rfc1738.URLSyntaxError as error:
    str(error)
print((time.perf_counter() - began) * 1e3)
"""


def first_error(runs: int) -> None:
    figures = []
    for text in FIRST:
        times = [
            float(
                subprocess.run(
                    [sys.executable, "-c", _FIRST_ERROR, text],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            )
            for _ in range(runs)
        ]
        figures.append(f"{text} {statistics.median(times):.1f} ms")
    print("first error in a process, automaton from the wheel's tables: " + "; ".join(figures))
    print(f"(median of {runs} processes each)")


def timed(function: Callable[[str], object], texts: list[str]) -> list[float]:
    """Microseconds of ``function`` + ``str(error)`` per text."""
    found = []
    for text in texts:
        began = time.perf_counter()
        try:
            function(text)
        except rfc1738.URLSyntaxError as error:
            str(error)
        found.append((time.perf_counter() - began) * 1e6)
    return found


def corpus_errors(sample: int) -> None:
    print(f"{'corpus':<18}{'rejected':>9}  {'parser':<10}{'median':>9}{'p90':>9}{'mean':>9}  µs")
    for name in FILES:
        path = CORPORA / name
        if not path.exists():
            print(f"{name:<18} missing at {path}")
            continue
        bad = [u for u in path.read_text(encoding="utf-8").splitlines() if not rfc1738.is_valid(u)]
        if not bad:
            continue
        timed(rfc1738.parse, bad[:50])  # every scheme's automaton built once

        def reference(u: str) -> object:
            return rfc1738.parse(u, parser="reference")

        picked = random.Random(1738).sample(bad, min(sample, len(bad)))
        for label, function, texts in (
            ("automaton", rfc1738.parse, bad),
            ("earley", reference, picked),
        ):
            found = sorted(timed(function, texts))
            p90 = found[int(len(found) * 0.9)]
            print(
                f"{name:<18}{len(texts):>9}  {label:<10}{statistics.median(found):>9.1f}"
                f"{p90:>9.1f}{statistics.fmean(found):>9.1f}"
            )


def growth() -> None:
    """One error's time against input length: the automaton alone, and all of it.

    "all" is ``parse`` + ``str(error)``: the fast parser's expression, the
    automaton, and for a predefined scheme the generic expression (whether
    the generic production takes the URL), whose own growth is the regex
    engine's.
    """
    shapes = {
        "http: long path, bad end": lambda n: "http://h/" + "a/" * (n // 2) + "~",
        "http: many dots": lambda n: "http://" + "a." * (n // 2) + "!",
        "gopher: run of %09": lambda n: "gopher://h/1" + "%09" * (n // 3) + " ",
        "generic: a: in login": lambda n: "x://" + "a:" * (n // 2) + " ",
    }
    sizes = (10_000, 100_000, 1_000_000)
    grammar = shipped()
    print(
        f"{'one error, input':<28}{'':<10}"
        + "".join(f"{f'n={n:,}':>14}" for n in sizes)
        + "  growth"
    )
    for label, make in shapes.items():
        texts = [make(n) for n in sizes]
        automaton = grammar.dispatch.explainer.automaton(grammar.scheme_file(texts[0]).scheme)
        assert automaton is not None
        for part, function in (("automaton", automaton.error), ("all", rfc1738.parse)):
            times = [min(sum(timed(function, [t])) for _ in range(3)) / 1e3 for t in texts]
            print(
                f"{label:<28}{part:<10}"
                + "".join(f"{t:>12.2f}ms" for t in times)
                + f"{times[-1] / times[0]:>7.0f}x"
            )
    print("(n grows 100x; linear cost grows about 100x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="processes per first-error figure")
    parser.add_argument("--earley-sample", type=int, default=200)
    args = parser.parse_args()
    first_error(args.runs)
    print()
    corpus_errors(args.earley_sample)
    print()
    growth()


if __name__ == "__main__":
    main()
