"""Speed of rfc1738 against urllib.parse and rfc3986, on real URL corpora.

Run with ``make bench`` (not part of ``make test``). Reads the corpora from
``../shared/corpora`` (or ``$RFC1738_CORPORA``) and prints every ratio of
issue 11, each measured within this one run:

- start-up: a fresh process that imports and parses one URL, against the
  same with ``urllib.parse``; ``rfc1738 parse URL`` in wall time;
- per corpus, ``parse`` and ``is_valid`` against ``urlsplit`` (URLs per
  second), and the errors: the first error's details in a fresh process,
  and the median time of ``str(error)`` over the rejected lines;
- how the time of adversarial inputs grows from 100 kB to 1 MB.

``check_memory.py`` gives the ``rfc1738 check`` ratios.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import rfc1738

CORPORA = Path(os.environ.get("RFC1738_CORPORA", Path(__file__).parents[3] / "shared" / "corpora"))
FILES = ("web_http.txt", "web_https.txt", "node_files.txt", "isaacs_files.txt", "legacy_mixed.txt")

#: urlsplit keeps a cache of recent results; timing the wrapped function measures
#: the split itself, as rfc1738 has no such cache.
SPLIT = getattr(urlsplit, "__wrapped__", urlsplit)


def best_of(runs: int, work: Callable[[], object]) -> float:
    """The fastest of ``runs`` timings of ``work``, in seconds."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def loop(function: Callable[[str], object], urls: list[str]) -> Callable[[], None]:
    def run() -> None:
        # try/except rather than contextlib.suppress: entering and leaving a
        # context manager per URL costs about a third of a microsecond, the
        # same for every function timed, which would pull every ratio toward 1.
        for url in urls:
            try:  # noqa: SIM105 (see above: suppress costs per URL)
                function(url)
            except ValueError:
                pass

    return run


def rfc3986_validator() -> Callable[[str], object] | None:
    try:
        import rfc3986
        from rfc3986 import validators
    except ImportError:
        return None
    validator = validators.Validator().require_presence_of("scheme")

    def validate(url: str) -> bool:
        try:
            validator.validate(rfc3986.uri_reference(url))
        except Exception:
            return False
        return True

    return validate


def corpus_table(runs: int, reference_sample: int, error_sample: int) -> None:
    candidates = {
        "urllib.parse.urlsplit": SPLIT,
        "rfc1738.parse": rfc1738.parse,
        "rfc1738.is_valid": rfc1738.is_valid,
    }
    validate = rfc3986_validator()
    if validate is not None:
        candidates["rfc3986 validate"] = validate
    print(
        f"{'corpus':<18}{'URLs':>7}{'valid':>8}  {'function':<24}{'URLs/s':>11}{'vs urlsplit':>13}"
    )
    for name in FILES:
        path = CORPORA / name
        if not path.exists():
            print(f"{name:<18} missing at {path}")
            continue
        urls = path.read_text(encoding="utf-8").splitlines()
        valid = sum(rfc1738.is_valid(u) for u in urls)
        for function in candidates.values():  # warm every parser up once
            loop(function, urls[:50])()
        # Round robin, best of each: a slow spell of the machine then hits
        # every function alike instead of the one that happened to run in it.
        best = dict.fromkeys(candidates, float("inf"))
        for _ in range(runs):
            for label, function in candidates.items():
                best[label] = min(best[label], best_of(1, loop(function, urls)))
        base = best["urllib.parse.urlsplit"]
        for label, seconds in best.items():
            print(
                f"{name:<18}{len(urls):>7}{valid:>8}  {label:<24}"
                f"{len(urls) / seconds:>11,.0f}{base / seconds:>12.2f}x"
            )
        sample = random.Random(1738).sample(urls, min(reference_sample, len(urls)))

        def reference(u: str) -> object:
            return rfc1738.parse(u, parser="reference")

        seconds = best_of(1, loop(reference, sample))
        sample_base = best_of(runs, loop(SPLIT, sample))
        print(
            f"{name:<18}{len(sample):>7}{'':>8}  {'rfc1738 reference':<24}"
            f"{len(sample) / seconds:>11,.0f}{sample_base / seconds:>12.4f}x"
        )
        errors(urls, error_sample)


def wall(command: list[str], runs: int) -> float:
    """The median wall time of ``runs`` fresh processes running ``command``, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def startup(runs: int = 11) -> None:
    """Fresh-process start-up, against urllib.parse, and the command line."""
    url = "http://www.example.com/a"
    python = sys.executable
    ours = [python, "-c", f"import rfc1738; rfc1738.parse({url!r})"]
    theirs = [python, "-c", f"import urllib.parse; urllib.parse.urlsplit({url!r})"]
    bare = wall([python, "-c", "pass"], runs)
    rounds = {"urllib": [], "rfc1738": []}
    for _ in range(runs):  # in turn, so that a slow spell hits both
        rounds["urllib"].append(wall(theirs, 1))
        rounds["rfc1738"].append(wall(ours, 1))
    base, mine = (statistics.median(rounds[k]) for k in ("urllib", "rfc1738"))
    print(
        f"start-up (median of {runs} fresh processes, wall): python -c pass {bare * 1e3:.1f} ms; "
        f"import + first urlsplit {base * 1e3:.1f} ms; import rfc1738 + first parse "
        f"{mine * 1e3:.1f} ms: {mine / base:.2f}x the time (target at most 2x)"
    )
    script = shutil.which("rfc1738", path=str(Path(python).parent)) or shutil.which("rfc1738")
    if script:
        cli = wall([script, "parse", url], runs)
        print(f"rfc1738 parse URL: {cli * 1e3:.1f} ms wall (target under 100 ms)")
    code = (
        "import time; t0 = time.perf_counter(); import rfc1738; t1 = time.perf_counter(); "
        "rfc1738.parse('http://www.example.com/a'); t2 = time.perf_counter(); "
        "rfc1738.parse('ftp://h.example/x'); t3 = time.perf_counter(); "
        "print(f'{(t1-t0)*1e3:.1f} {(t2-t1)*1e3:.1f} {(t3-t2)*1e3:.1f}')"
    )
    rows = [
        subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
        for _ in range(5)
    ]
    values = sorted((tuple(map(float, r.stdout.split())) for r in rows), key=lambda v: v[0])
    imp, first, second = values[len(values) // 2]
    print(
        f"  inside the process: import rfc1738 {imp:.1f} ms; first parse (http) {first:.1f} ms; "
        f"first parse of a second scheme (ftp) {second:.1f} ms  (median of 5)"
    )
    lark = subprocess.run(
        [
            python,
            "-c",
            f"import sys, rfc1738; rfc1738.parse({url!r}); print('lark' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    print(f"  Lark imported by import + parse: {lark}")


def errors(urls: list[str], sample: int) -> None:
    """Error details: the first in a fresh process, then the median over rejected lines."""
    rejected = [u for u in urls if not rfc1738.is_valid(u)]
    if not rejected:
        return
    first = rejected[0]
    code = (
        "import sys, time, rfc1738\n"
        "t = time.perf_counter()\n"
        "try:\n    rfc1738.parse(sys.argv[1])\n"
        "except rfc1738.URLSyntaxError as e:\n    str(e)\n"
        "print((time.perf_counter() - t) * 1e3)"
    )
    done = [
        float(
            subprocess.run(
                [sys.executable, "-c", code, first], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(3)
    ]
    chosen = random.Random(1738).sample(rejected, min(sample, len(rejected)))
    times = []
    for url in chosen:
        start = time.perf_counter()
        try:
            rfc1738.parse(url)
        except rfc1738.URLSyntaxError as error:
            str(error)
        times.append(time.perf_counter() - start)
    print(
        f"{'':<18}{len(rejected):>7}{'':>8}  errors: first in a process "
        f"{statistics.median(done):.1f} ms (target at most 50 ms); median str(error) over "
        f"{len(chosen)} rejected lines {statistics.median(times) * 1e6:,.0f} us "
        "(target at most 50 us)"
    )


#: Inputs built to make a backtracking matcher slow; each grows with n.
ADVERSARIAL: dict[str, Callable[[int], str]] = {
    "http: long label, bad end": lambda n: "http://" + "a" * n + "!",
    "http: many dots": lambda n: "http://" + "a." * n + "!",
    "http: digits and dots": lambda n: "http://" + "1." * n + "!",
    "http: run of %": lambda n: "http://h/" + "%" * n,
    "ftp: :@ in login": lambda n: "ftp://" + ":@" * n,
    "ftp: long user, bad host": lambda n: "ftp://" + "a" * n + "@" + "b" * n + " ",
    "generic: a: in login": lambda n: "x://" + "a:" * n + " ",
    "generic: @. in login": lambda n: "x://" + "@." * n + " ",
    "gopher: run of %09": lambda n: "gopher://h/1" + "%09" * n + " ",
    "news: long article id": lambda n: "news:" + "a" * n + "@ ",
    "prospero: many fields": lambda n: "prospero://h/" + ";a=" * n + " ",
    "telnet: many labels": lambda n: "telnet://" + "a." * n + "a:1 ",
}


def sized(build: Callable[[int], str], size: int) -> str:
    """The input of ``build`` closest to ``size`` characters."""
    unit = len(build(1000)) - len(build(0))
    return build(max(1, size * 1000 // unit))


def adversarial(runs: int) -> None:
    """How is_valid's time grows from 100 kB to 1 MB (target: at most 12x, under 0.5 s)."""
    sizes = (10_000, 100_000, 1_000_000)
    print(
        f"{'input':<28}" + "".join(f"{f'{n // 1000:,} kB':>12}" for n in sizes) + f"{'growth':>9}"
    )
    for label, build in ADVERSARIAL.items():
        times = []
        for size in sizes:
            text = sized(build, size)
            times.append(best_of(runs, lambda text=text: rfc1738.is_valid(text)))
        growth = times[-1] / times[-2]
        print(f"{label:<28}" + "".join(f"{t * 1e3:>10.2f}ms" for t in times) + f"{growth:>8.1f}x")
    print("(growth: 1 MB against 100 kB, 10x the input; a linear cost grows about 10x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="timings per figure (best kept)")
    parser.add_argument("--reference-sample", type=int, default=300)
    parser.add_argument(
        "--error-sample", type=int, default=200, help="rejected lines timed per corpus"
    )
    parser.add_argument(
        "--adversarial-runs",
        type=int,
        default=15,
        help="timings per adversarial input (best kept: a loaded machine needs many)",
    )
    args = parser.parse_args()
    print(
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, "
        f"{time.strftime('%Y-%m-%d')}"
    )
    startup()
    print()
    corpus_table(args.runs, args.reference_sample, args.error_sample)
    print()
    adversarial(args.adversarial_runs)


if __name__ == "__main__":
    main()
