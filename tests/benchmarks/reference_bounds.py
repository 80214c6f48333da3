"""The reference parser's costliest inputs, per scheme, within its bounds (docs/parsers.md).

Run by hand (not part of ``make test`` or ``make bench``; nothing here
asserts a time): ``python tests/benchmarks/reference_bounds.py``. Each input
runs in a fresh process, which prints one row of a Markdown table:

- the Earley work of a parse of it with no budget, in steps
  (:meth:`rfc1738.bnf.adapter.EarleyParser.work`), against
  :data:`rfc1738.runtime.reference.MAX_REFERENCE_WORK`;
- the CPU time (``time.process_time``, best of 3) of
  ``parse(text, parser="reference")`` with the bounds, and what it gave;
- how much the process's peak RSS grew meanwhile.

The inputs are, for each scheme, the one that took the most work of those
found by repeating short units (``a``, ``a.``, ``a-``, ``1.``, ``/``,
``;a=b``, ``%09``, ...) in each of the scheme's loops (host, user, password,
path, search, selector, ...) up to the length bound; and the W3 1994
grammar's slow shapes (docs/w3-1994.md).
"""

from __future__ import annotations

import json
import subprocess
import sys

import lark

from rfc1738.runtime.reference import MAX_REFERENCE_WORK

#: Name → (URL, grammar): "shipped" or "w3".
CASES: dict[str, tuple[str, str]] = {
    "http: a host of 1,020 labels": ("http://" + "a." * 1019 + "a/", "shipped"),
    "ftp: a user of 2,038 characters": ("ftp://" + "a" * 2038 + "@h/", "shipped"),
    "file: 1,019 path segments": ("file://h/" + "a/" * 1019, "shipped"),
    "gopher: two %09, then 2,028 ':'": ("gopher://h/1s%09q%09" + ":" * 2028, "shipped"),
    "gopher: 70 %09": ("gopher://h/1" + "%09" * 70, "shipped"),
    "gopher: 85 %09": ("gopher://h/1" + "%09" * 85, "shipped"),
    "gopher: 678 %09 (issue 19)": ("gopher://h/1" + "%09" * 678, "shipped"),
    "mailto: 1,020 'a@'": ("mailto:" + "a@" * 1020, "shipped"),
    "news: an article of 1,020 'a/'": ("news:" + "a/" * 1020 + "@h", "shipped"),
    "nntp: a group of 1,018 'a.'": ("nntp://h/a" + "a." * 1018 + "a", "shipped"),
    "telnet: a host of 2,037 characters": ("telnet://" + "a" * 2037 + "/", "shipped"),
    "wais: a search of 1,018 'a='": ("wais://h/d?" + "a=" * 1018, "shipped"),
    "prospero: 508 fieldspecs": ("prospero://h/p" + ";a=b" * 508, "shipped"),
    "generic: a host of 2,042 characters": ("x://" + "a" * 2042 + "/", "shipped"),
    "W3: a path segment of 200": ("http://h/" + "a" * 200, "w3"),
    "W3: a path segment of 400": ("http://h/" + "a" * 400, "w3"),
    "W3: a host of 50 labels": ("http://" + "a." * 49 + "a/", "w3"),
    "W3: a host of 100 labels": ("http://" + "a." * 99 + "a/", "w3"),
}

#: Run in a fresh process for one case: prints [length, steps, seconds, outcome, KiB].
ONE = """
import gc, json, resource, sys, time
import rfc1738
from rfc1738.bnf.files import w3_1994_grammar_dir

text, which = json.loads(sys.argv[1])
grammar = rfc1738.load(w3_1994_grammar_dir()) if which == "w3" else rfc1738.shipped()
entry = grammar.scheme_file(text)
earley = grammar.dispatch.reference_parser(entry.scheme).earley(entry.start)
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
best = float("inf")
for _ in range(3):
    gc.collect()
    start = time.process_time()
    try:
        grammar.parse(text, parser="reference")
        outcome = "parsed"
    except rfc1738.InputTooLongError as error:
        outcome = f"refused at {error.position}"
    except rfc1738.URLSyntaxError as error:
        outcome = f"error at {error.position} ({error.rule})"
    best = min(best, time.process_time() - start)
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss
print(json.dumps([len(text), earley.work(text), best, outcome, grown]))
"""


def main() -> None:
    print(f"MAX_REFERENCE_WORK = {MAX_REFERENCE_WORK:,}; lark {lark.__version__}")
    print("| input | characters | steps | CPU s | outcome | peak RSS growth |")
    print("|---|---:|---:|---:|---|---:|")
    for name, case in CASES.items():
        done = subprocess.run(
            [sys.executable, "-c", ONE, json.dumps(case)],
            capture_output=True,
            text=True,
            check=True,
        )
        length, steps, seconds, outcome, grown = json.loads(done.stdout)
        print(
            f"| {name} | {length:,} | {steps:,} | {seconds:.2f} | {outcome} | "
            f"{grown / 1024:.0f} MiB |",
            flush=True,
        )


if __name__ == "__main__":
    main()
