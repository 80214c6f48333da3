"""``rfc1738 check`` over a million lines: its speed against a urlsplit loop; its memory.

Run by ``make bench`` (not part of ``make test``). Writes generated lines (a
quarter of them invalid, eleven forms of URL, every line different) to a
temporary file, then runs on that file, each in a fresh process:

- ``loop``: a plain Python loop calling ``urllib.parse.urlsplit`` on each line
  (what issue 11 compares with);
- ``check``: ``rfc1738 check FILE`` (on DuckDB where it is installed);
- ``check-py``: ``rfc1738 check --engine python FILE`` (the library in Python);
- ``jsonl``: ``rfc1738 check --jsonl FILE`` (output to ``/dev/null``), on
  ``--jsonl-lines`` lines (enough that start-up, about 0.1 s, is a small
  part of the time);

and prints for each the wall time (start-up included), lines per second,
the peak resident set size of the process
(``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss``, read in a fresh
intermediate process so the peak of one run does not hide the next's) and
the speed ratio to the loop over the same lines.

    python tests/benchmarks/check_memory.py [--lines 10000 1000000] [--jsonl-lines 200000]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

#: One line of each kind, ``{i}`` the line number; the last ones are invalid.
VALID = (
    "http://host{i}.example.com/path/{i}/index.html?q={i}&r=x",
    "ftp://user{i}:pw@ftp.example.org:2121/pub/dir{i}/file.txt;type=i",
    "gopher://gopher{i}.example.net:70/1sel{i}%09search%09plus",
    "mailto:user{i}@example.com",
    "news:comp.lang.python{i}",
    "nntp://news.example.com/comp.lang.c/{i}",
    "telnet://user{i}@192.0.2.{b}:23/",
    "wais://wais.example.com/db{i}?query",
    "file:///home/user{i}/notes.txt",
    "prospero://host.dom//pros/name{i};field=value",
    "https://www.example{i}.com/a/b?c=d",
)
INVALID = (
    "http://host{i}.example.com/a b",
    "http://user{i}@host.com/",
    "ftp://h/pub/{i}#frag",
    "http://h/caf\u00e9{i}",
)

#: The plain loop rfc1738 check is compared with.
LOOP = """
import sys
from urllib.parse import urlsplit
with open(sys.argv[1], encoding="utf-8", errors="surrogateescape") as lines:
    for line in lines:
        try:
            urlsplit(line.rstrip("\\n"))
        except ValueError:
            pass
"""


def lines(count: int) -> Iterator[bytes]:
    """``count`` lines cycling through the kinds: 11 valid, then 4 invalid."""
    kinds = VALID + INVALID
    for i in range(count):
        template = kinds[i % len(kinds)]
        yield (template.format(i=i, b=i % 256) + "\n").encode()


def write_lines(count: int, path: Path) -> None:
    with path.open("wb") as out:
        chunk: list[bytes] = []
        for line in lines(count):
            chunk.append(line)
            if len(chunk) == 10_000:
                out.write(b"".join(chunk))
                chunk.clear()
        out.write(b"".join(chunk))


def script() -> list[str]:
    """The ``rfc1738`` console script next to this Python, or ``python -m rfc1738``."""
    found = Path(sys.executable).parent / "rfc1738"
    if found.exists():
        return [str(found)]
    which = shutil.which("rfc1738")
    return [which] if which else [sys.executable, "-m", "rfc1738"]


def command(mode: str, path: Path) -> list[str]:
    if mode == "loop":
        return [sys.executable, "-c", LOOP, str(path)]
    if mode == "check":
        return [*script(), "check", str(path)]
    if mode == "check-py":
        return [*script(), "check", "--engine", "python", str(path)]
    return [*script(), "check", "--jsonl", str(path)]


def one_run(mode: str, path: Path) -> dict[str, object]:
    """Run ``mode`` on ``path``: its wall time, peak RSS and first line of output."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        done = subprocess.run(
            command(mode, path),
            stdout=subprocess.PIPE if mode.startswith("check") else sink,
            check=False,
        )
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    # ru_maxrss is in kilobytes on Linux, bytes on macOS.
    kib = usage.ru_maxrss / 1024 if sys.platform == "darwin" else usage.ru_maxrss
    output = (done.stdout or b"").decode()
    return {
        "status": done.returncode,
        "seconds": seconds,
        "peak_rss_mib": kib / 1024,
        "summary": output.splitlines()[0] if output else "",
    }


def measure(mode: str, path: Path) -> dict[str, object]:
    """:func:`one_run` in a fresh intermediate process (its own RUSAGE_CHILDREN)."""
    run = subprocess.run(
        [sys.executable, __file__, "--one", mode, str(path)],
        capture_output=True,
        text=True,
        check=True,
        env=os.environ,
    )
    result: dict[str, object] = json.loads(run.stdout)
    return result


def report(count: int, modes: tuple[str, ...], directory: Path) -> None:
    path = directory / f"lines-{count}.txt"
    write_lines(count, path)
    results = {mode: measure(mode, path) for mode in modes}
    base = float(results["loop"]["seconds"])  # type: ignore[arg-type]
    for mode, result in results.items():
        seconds = float(result["seconds"])  # type: ignore[arg-type]
        print(
            f"{count:>10,}  {mode:<8}  {result['peak_rss_mib']:>7.1f} MiB  {seconds:>8.2f}"
            f"  {count / seconds:>9,.0f}  {base / seconds:>6.2f}x  {result['summary']}"
        )
    path.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[10_000, 1_000_000])
    parser.add_argument("--jsonl-lines", type=int, nargs="+", default=[200_000])
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(one_run(args.one[0], Path(args.one[1]))))
        return
    print(f"rfc1738 check FILE over generated lines ({' '.join(script())})")
    print("(ratio: the speed against the urlsplit loop over the same lines; targets:")
    print(" check at least 1.0x, check --jsonl at least 0.5x, both in constant memory)\n")
    print(f"{'lines':>10}  {'run':<8}  {'peak RSS':>11}  {'seconds':>8}  {'lines/s':>9}  ratio")
    with tempfile.TemporaryDirectory() as directory:
        for count in args.lines:
            report(count, ("loop", "check", "check-py"), Path(directory))
        for count in args.jsonl_lines:
            report(count, ("loop", "jsonl"), Path(directory))


if __name__ == "__main__":
    main()
