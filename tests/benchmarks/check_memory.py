"""``rfc1738 check`` runs in constant memory: peak RSS over 10^4 and 10^6 lines.

Run by ``make bench`` (not part of ``make test``). Pipes generated lines (a
quarter of them invalid, eleven forms of URL, every line different) into the
real ``rfc1738 check -`` in a subprocess, and prints for each run the lines,
the peak resident set size of the subprocess
(``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss``) and lines per second
(wall time, start-up included). Each run is measured from a fresh
intermediate process, so the peak of one run does not hide the next's.

    python tests/benchmarks/check_memory.py [--lines 10000 1000000]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
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


def lines(count: int) -> Iterator[bytes]:
    """``count`` lines cycling through the kinds: 11 valid, then 4 invalid."""
    kinds = VALID + INVALID
    for i in range(count):
        template = kinds[i % len(kinds)]
        yield (template.format(i=i, b=i % 256) + "\n").encode()


def command() -> list[str]:
    """The ``rfc1738`` console script next to this Python, or ``python -m rfc1738``."""
    script = Path(sys.executable).parent / "rfc1738"
    if script.exists():
        return [str(script), "check", "-"]
    found = shutil.which("rfc1738")
    return [found, "check", "-"] if found else [sys.executable, "-m", "rfc1738", "check", "-"]


def one_run(count: int) -> dict[str, object]:
    """Feed ``count`` lines to ``rfc1738 check -``; its peak RSS, time and summary line."""
    start = time.perf_counter()
    process = subprocess.Popen(command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    chunk: list[bytes] = []
    for line in lines(count):
        chunk.append(line)
        if len(chunk) == 10_000:
            process.stdin.write(b"".join(chunk))
            chunk.clear()
    process.stdin.write(b"".join(chunk))
    process.stdin.close()
    output = process.stdout.read().decode()
    status = process.wait()
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    # ru_maxrss is in kilobytes on Linux, bytes on macOS.
    kib = usage.ru_maxrss / 1024 if sys.platform == "darwin" else usage.ru_maxrss
    return {
        "lines": count,
        "status": status,
        "seconds": seconds,
        "lines_per_second": count / seconds,
        "peak_rss_mib": kib / 1024,
        "summary": output.splitlines()[0] if output else "",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[10_000, 1_000_000])
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(one_run(args.one)))
        return
    print(f"rfc1738 check - over generated lines ({' '.join(command())})\n")
    print(f"{'lines':>10}  {'peak RSS':>10}  {'seconds':>8}  {'lines/s':>9}  summary")
    for count in args.lines:
        run = subprocess.run(
            [sys.executable, __file__, "--one", str(count)],
            capture_output=True,
            text=True,
            check=True,
            env=os.environ,
        )
        result = json.loads(run.stdout)
        print(
            f"{result['lines']:>10,}  {result['peak_rss_mib']:>7.1f} MiB"
            f"  {result['seconds']:>8.2f}  {result['lines_per_second']:>9,.0f}"
            f"  {result['summary']}"
        )


if __name__ == "__main__":
    main()
