"""The reference parser within its bounds: a length, and the work one parse may do.

Earley's work is about linear in the length of a URL the grammar reads one
way, and cubic where it reads it in many ways: gopher's ``%09`` may end the
selector or belong to it. Before issue 19, ``gopher://h/1`` and 678 ``%09``
(2,046 characters, within :data:`rfc1738.MAX_REFERENCE_LENGTH`) took 113 s,
and ``rfc1738 tree`` on it 149 s and 1.95 GB. Now a parse stops after
:data:`~rfc1738.runtime.reference.MAX_REFERENCE_WORK` steps with
:class:`rfc1738.InputTooLongError`, a count rather than a clock: where it
stops is the same on every run and machine. No assertion here is timed; the
long URLs of every scheme are checked to stay within half the budget, so
that the reference parser remains the oracle of the fast one up to its
length bound (the equivalence tests compare the two).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import rfc1738
from rfc1738.runtime.reference import MAX_REFERENCE_WORK
from tests.cli.helpers import run

#: Reproducer 6 of issue 19: 2,046 characters.
REPRODUCER = "gopher://h/1" + "%09" * 678


def refused(text: str) -> rfc1738.InputTooLongError:
    with pytest.raises(rfc1738.InputTooLongError) as caught:
        rfc1738.parse(text, parser="reference")
    return caught.value


def test_the_reproducer_is_refused_with_the_documented_error() -> None:
    error = refused(REPRODUCER)
    assert error.rule == "gopherurl"
    assert error.reason == (
        f"the reference parser stops after {MAX_REFERENCE_WORK:,} steps of work, and the "
        "grammar reads this URL in too many ways to parse it within them"
    )
    # Where it stopped: inside the URL, the same however much of it follows.
    assert 0 < error.position < len(REPRODUCER)
    assert refused(REPRODUCER[:600]).position == error.position
    with pytest.raises(rfc1738.InputTooLongError):
        rfc1738.parse_tree(REPRODUCER)
    # The fast parser reads it (selector "", search and gopher+ cut at the first two %09).
    url = rfc1738.parse(REPRODUCER)
    assert (url.gopher_type, url.selector) == ("1", "")


def test_short_runs_of_the_same_shape_still_parse() -> None:
    """The bound is not a pattern: a gopher URL with a few dozen ``%09`` parses."""
    text = "gopher://h/1" + "%09" * 40
    assert rfc1738.parse(text, parser="reference") == rfc1738.parse(text)


@pytest.mark.parametrize("command", [["tree"], ["parse", "--parser", "reference"]])
def test_the_command_line_reports_it_as_an_error(command: list[str]) -> None:
    result = run(*command, REPRODUCER)
    # Not judged, as a URL over the length bound is not (docs/cli.md, "Exit status").
    assert result.status == 3
    # tree writes the error on stderr, parse as JSON on stdout.
    assert "the reference parser stops after 2,000,000 steps of work" in result.err + result.out
    assert "Traceback" not in result.err


#: Parse the reproducer with Earley and print the process's peak memory (KiB on Linux).
MEMORY = """
import json, resource, rfc1738
text = "gopher://h/1" + "%09" * 678
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    rfc1738.parse_tree(text)
except rfc1738.InputTooLongError:
    pass
print(json.dumps([before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss]))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in KiB is Linux's")
def test_the_refused_parse_takes_little_memory() -> None:
    done = subprocess.run(
        [sys.executable, "-c", MEMORY], capture_output=True, text=True, check=True, timeout=300
    )
    before, after = json.loads(done.stdout)
    # 1.95 GB before the bound; about 20 MiB more than the start-up now.
    assert after - before < 200 * 1024


#: For each scheme, URLs near the length bound whose loops take the most work
#: of their kind (found by probing every scheme's loops with repeated units:
#: docs/parsers.md, "The reference parser's bounds").
LONG = [
    "x://" + "a" * 2042 + "/",
    "ftp://" + "a" * 2038 + "@h/",
    "telnet://" + "a" * 2037 + "/",
    "gopher://h/1s%09q%09" + ":" * 2028,
    "gopher://h/1" + "a" * 1000 + "%09" + "b" * 1000 + "%09c",
    "http://" + "a." * 1019 + "a/",
    "news:" + "a/" * 1020 + "@h",
    "prospero://h/p" + ";a=b" * 508,
    "wais://h/d?" + "a=" * 1018,
    "mailto:" + "a@" * 1020,
    "file://h/" + "a/" * 1019,
    "nntp://h/a" + "a." * 1018,
]


@pytest.mark.parametrize("text", LONG, ids=lambda text: text[:12])
def test_long_urls_of_every_scheme_take_less_than_half_the_budget(text: str) -> None:
    assert len(text) <= rfc1738.MAX_REFERENCE_LENGTH
    grammar = rfc1738.shipped()
    entry = grammar.scheme_file(text)
    earley = grammar.dispatch.reference_parser(entry.scheme).earley(entry.start)
    assert earley.work(text) <= MAX_REFERENCE_WORK // 2
