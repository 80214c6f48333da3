"""``rfc1738 check`` on its engines, and the bulk API, against a ``urlsplit`` loop (issue 21).

Run by ``make bench`` (not part of ``make test``). Writes ``--lines`` lines
(10^6 by default) cycling through every line of the shared corpora
(``../shared/corpora``, or ``$RFC1738_CORPORA``) to a temporary file, then
runs, each in a fresh process, the best of ``--runs`` wall times (one for Parquet; start-up
included) on 2 cores and on 1 (``taskset -c 0``; DuckDB still starts its
threads, on that one core):

- ``loop``: a plain Python loop calling ``urllib.parse.urlsplit`` on each
  line of the file (the base every ratio divides);
- ``check``: ``rfc1738 check FILE`` (DuckDB when installed); target 6x;
- ``check --engine python``: the library in Python (``check_lines``);
- ``check --format parquet --output OUT``: target 2x;
- ``check --jsonl`` (output to ``/dev/null``): target 1.0x (issue 20: 0.5x);
- ``bulk``: in one fresh process, :func:`rfc1738.columns.check` on the list
  of the file's lines (``.valid``), against the ``urlsplit`` loop over the
  same list in that process (its own base, printed beside it); target 6x.

Then the peak resident set size of ``check`` (``RUSAGE_CHILDREN`` of an
intermediate process) on the file and on one 4 times larger: within 20%.
Each line gives the figure, the cores, seconds, lines per second, the ratio
to the loop on as many cores, the peak RSS and the target.

    python tests/benchmarks/bench_check.py [--lines 1000000] [--runs 3]

``--only FIGURE ...`` runs only those (the loop always, as the base; ``bulk``
and ``memory`` name the last two), ``--cores 2`` or ``--cores 1`` one of the
two: e.g. ``--only "check --jsonl" --cores 2`` while working on ``--jsonl``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_columns import corpus_lines  # the shared corpora, as bench_columns reads them
from check_memory import LOOP  # the plain loop every ratio is against, as check_memory times it

#: The bulk API on a list, against the loop over the same list, in one process.
BULK = """
import json, sys, time
from urllib.parse import urlsplit
from rfc1738.columns import check
with open(sys.argv[1], encoding="utf-8", errors="surrogateescape") as lines:
    urls = lines.read().split("\\n")[:-1]
split = getattr(urlsplit, "__wrapped__", urlsplit)
def loop():
    for url in urls:
        try:
            split(url)
        except ValueError:
            pass
check(urls[:10])  # the connection and its macros, once per process
times = {"loop": [], "bulk": []}
for _ in range(int(sys.argv[2])):
    start = time.perf_counter(); loop(); times["loop"].append(time.perf_counter() - start)
    start = time.perf_counter(); valid = check(urls).valid
    times["bulk"].append(time.perf_counter() - start)
print(json.dumps({k: min(v) for k, v in times.items()} | {"valid": sum(map(bool, valid))}))
"""

#: What each figure runs: its arguments after ``rfc1738``, or a Python program.
RUNS = {
    "loop": None,
    "check": ["check"],
    "check --engine python": ["check", "--engine", "python"],
    "check --format parquet --output OUT": ["check", "--format", "parquet", "--output"],
    "check --jsonl": ["check", "--jsonl"],
}
TARGETS = {
    "check": 6.0,
    "check --format parquet --output OUT": 2.0,
    "check --jsonl": 1.0,
    "bulk API check(list).valid": 6.0,
}


def script() -> list[str]:
    """The ``rfc1738`` console script next to this Python, or ``python -m rfc1738``."""
    found = Path(sys.executable).parent / "rfc1738"
    if found.exists():
        return [str(found)]
    which = shutil.which("rfc1738")
    return [which] if which else [sys.executable, "-m", "rfc1738"]


def command(figure: str, path: Path, out: Path) -> list[str]:
    arguments = RUNS[figure]
    if arguments is None:
        return [sys.executable, "-c", LOOP, str(path)]
    if arguments[-1] == "--output":
        return [*script(), *arguments, str(out), str(path)]
    return [*script(), *arguments, str(path)]


def one_run(argv: list[str]) -> dict[str, object]:
    """Run ``argv``: its wall time, exit status and peak RSS (this process's only child)."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        done = subprocess.run(argv, stdout=sink, check=False)
    seconds = time.perf_counter() - start
    kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if sys.platform == "darwin":
        kib /= 1024
    return {"status": done.returncode, "seconds": seconds, "peak_mib": kib / 1024}


def measure(argv: list[str], cores: int) -> dict[str, object]:
    """:func:`one_run` in a fresh intermediate process, on ``cores`` cores (1: taskset -c 0)."""
    pin = ["taskset", "-c", "0"] if cores == 1 else []
    done = subprocess.run(
        [*pin, sys.executable, __file__, "--one", json.dumps(argv)],
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, object] = json.loads(done.stdout)
    return found


def best(argv: list[str], cores: int, runs: int) -> tuple[float, float]:
    """The fastest of ``runs`` wall times, and the highest peak RSS (MiB)."""
    results = [measure(argv, cores) for _ in range(runs)]
    seconds = min(float(r["seconds"]) for r in results)  # type: ignore[arg-type]
    peak = max(float(r["peak_mib"]) for r in results)  # type: ignore[arg-type]
    return seconds, peak


def row(figure: str, cores: int, seconds: float, lines: int, base: float, peak: str) -> None:
    ratio = base / seconds
    target = TARGETS.get(figure)
    wanted = f"{target:.1f}x {'met' if ratio >= target else 'missed'}" if target else ""
    print(
        f"{figure:<38}{cores:>6}{seconds:>9.2f}{lines / seconds:>12,.0f}{ratio:>8.2f}x"
        f"{peak:>11}  {wanted}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--only", nargs="+", choices=[*RUNS, "bulk", "memory"])
    parser.add_argument("--cores", type=int, choices=[1, 2])
    args = parser.parse_args()
    wanted = set(args.only or [*RUNS, "bulk", "memory"]) | {"loop"}
    if args.one is not None:
        print(json.dumps(one_run(json.loads(args.one))))
        return
    pinned = shutil.which("taskset") is not None
    print(
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, "
        f"{time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()[0]:.1f}; "
        f"{' '.join(script())}"
    )
    cores_list = (2, 1) if pinned else (2,)
    if args.cores is not None:
        cores_list = tuple(c for c in cores_list if c == args.cores)
    if not pinned:
        print("(no taskset here: 2 cores only)")
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "urls.txt"
        out = Path(directory) / "out.parquet"
        urls = corpus_lines(args.lines)
        path.write_text("\n".join(urls) + "\n", encoding="utf-8", errors="surrogateescape")
        del urls
        print(f"{args.lines:,} lines of the corpora, {path.stat().st_size / 2**20:.1f} MiB\n")
        print(
            f"{'figure':<38}{'cores':>6}{'seconds':>9}{'lines/s':>12}{'vs loop':>9}"
            f"{'peak RSS':>11}  target"
        )
        for cores in cores_list:
            base = 0.0
            for figure in (f for f in RUNS if f in wanted):
                # Parquet takes half a minute a run: once is enough to see its ratio.
                runs = 1 if "parquet" in figure else args.runs
                seconds, peak = best(command(figure, path, out), cores, runs)
                base = base or seconds
                row(figure, cores, seconds, args.lines, base, f"{peak:.0f} MiB")
            if "bulk" not in wanted:
                continue
            pin = ["taskset", "-c", "0"] if cores == 1 else []
            done = subprocess.run(
                [*pin, sys.executable, "-c", BULK, str(path), str(args.runs)],
                capture_output=True,
                text=True,
                check=True,
            )
            bulk = json.loads(done.stdout)
            row(
                "urlsplit loop over the list (its base)",
                cores,
                bulk["loop"],
                args.lines,
                bulk["loop"],
                "",
            )
            row("bulk API check(list).valid", cores, bulk["bulk"], args.lines, bulk["loop"], "")
        if "memory" not in wanted:
            print(f"load average at the end {os.getloadavg()[0]:.1f}")
            return
        # Memory: the same command on a file 4 times larger.
        larger = Path(directory) / "urls4.txt"
        with larger.open("wb") as copy:
            for _ in range(4):
                copy.write(path.read_bytes())
        peaks = []
        for file in (path, larger):
            _, peak = best([*script(), "check", str(file)], 2, 1)
            peaks.append(peak)
        print(
            f"\npeak RSS of rfc1738 check: {peaks[0]:.0f} MiB for {args.lines:,} lines, "
            f"{peaks[1]:.0f} MiB for {4 * args.lines:,}: {peaks[1] / peaks[0]:.2f}x "
            f"(target within 20%: {'met' if peaks[1] <= 1.2 * peaks[0] else 'missed'})"
        )
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
