"""The strings every engine is run on, and what the library says of each.

Sources: every case of the project's test data (``tests/cases.py``, the
parser-confusion table), a few strings where the fields a hook reads are
cut (``HOOKED``), hosts on each side of the host checks' limits
(``HOST_LIMITS``), a sample of each corpus in ``shared/corpora``, URLs
generated from each scheme's grammar file (:func:`rfc1738.strategies.urls`),
near-misses of them (:func:`rfc1738.strategies.invalid_urls`: a character no
URL holds, a port, octet, label or host name out of the host checks' range)
and mutations of them, the scheme written in other cases, and the
adversarial inputs of ``tests/benchmarks/bench.py`` at a small size.

For each string the library gives the verdict of the bare grammar
(``is_valid(text, host_checks=False)``), the verdict with host checks, the
span of every production the fast parser captures, and the raw value of
each field the URL class reads with a hook (gopher's selector, search and
gopher+ string, nntp's article number, prospero's fieldspecs), which the
exported patterns give through groups of their own.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings

import rfc1738
from rfc1738.runtime.hosts import CHECKED_PRODUCTIONS, MAX_HOST, MAX_LABEL
from rfc1738.strategies import InvalidURL, invalid_urls, urls
from tests.benchmarks.bench import ADVERSARIAL
from tests.cases import ACCEPT, GRAMMAR_ONLY, REJECT, RFC_EXAMPLES
from tests.security.confusion import CASES as CONFUSIONS

__all__ = ["CORPORA", "Sample", "corpus_lines", "samples"]

CORPORA = Path(os.environ.get("RFC1738_CORPORA", Path(__file__).parents[3] / "shared" / "corpora"))
#: Lines taken from each corpus file (a fixed random sample).
PER_CORPUS = 400
#: URLs generated per scheme, each with a near-miss; each URL is also mutated once.
PER_SCHEME = 40
#: Where the fields a hook reads are cut (section 3.4's %09, 3.11's ; and =),
#: next to escapes that only look like the separators.
HOOKED = (
    "gopher://h/%09sel%09q%09+%09x",
    "gopher://h/1%2509%09%2509",
    "gopher://h/1%09",
    "gopher://h/1%0",
    "prospero://h/a;%3B=%3D;x=",
    "prospero://h/%3Ba=b;c=d",
    "nntp://h:1/g.h/0",
)


def _host_of(length: int) -> str:
    """A host name of ``length`` characters, each label at most ``MAX_LABEL`` long."""
    labels = []
    while length > MAX_LABEL:
        take = min(MAX_LABEL, length - 2)  # room for a "." and a label after it
        labels.append("a" * take)
        length -= take + 1
    labels.append("b" * length)
    return ".".join(labels)


#: Hosts on each side of the label and name limits, in every scheme's place for
#: a host; and long URLs whose host is short (a long path, query, segment).
HOST_LIMITS = (
    *(
        template.format(host=host)
        for template in (
            "http://{host}/",
            "ftp://u:p@{host}:21/x",
            "gopher://{host}/1x",
            "telnet://{host}/",
            "wais://{host}/db",
            "prospero://{host}/p",
            "nntp://{host}/g",
            "file://{host}/p",
            "news:x@{host}",
            "foo://u@{host}:8/p",
        )
        for host in (
            "a" * MAX_LABEL + ".com",
            "a" * (MAX_LABEL + 1) + ".com",
            "c.d" + "e" * (MAX_LABEL + 1),
            _host_of(MAX_HOST),
            _host_of(MAX_HOST + 1),
        )
    ),
    "http://h.com/" + "0123456789abcdef" * 5,
    "http://h.com/p?" + "q" * (MAX_HOST + 40),
    "http://h:99999/" + "x" * (MAX_HOST + 1),
    "ftp://h.com/" + "x" * (MAX_HOST + 1),
    "file:///" + "x" * (MAX_HOST + 1),
    "foo://h/" + "x" * (MAX_HOST + 1),
    "foo:" + "x" * (MAX_HOST + 1),
)
#: Characters mutations insert: the grammar's own, and those it forbids.
MUTATION_CHARS = '%09aZ.-+:/@;?=&*!#~ \t\n\\[]<>"é\u212a\u017f'


@dataclass(frozen=True, slots=True)
class Sample:
    """One string and the library's answer for it."""

    text: str
    #: The grammar file the library parses it with (``generic`` for other schemes).
    scheme: str
    #: ``is_valid(text, host_checks=False)``: the bare grammar's verdict.
    valid: bool
    #: ``is_valid(text)``: with the host checks.
    checked: bool
    #: Production → span, for each captured production that took part (valid only).
    spans: tuple[tuple[str, tuple[int, int]], ...]
    #: Field the class reads with a hook → its raw value (``raw_<field>``; valid only).
    values: tuple[tuple[str, object], ...] = ()

    def span_dict(self) -> dict[str, tuple[int, int]]:
        """:attr:`spans` as a dictionary."""
        return dict(self.spans)

    def value_dict(self) -> dict[str, object]:
        """:attr:`values` as a dictionary."""
        return dict(self.values)


def corpus_lines() -> list[str]:
    """A fixed sample of each corpus file's lines; empty if the corpora are not there."""
    found: list[str] = []
    if not CORPORA.is_dir():
        return found
    for path in sorted(CORPORA.glob("*.txt")):
        lines = path.read_text(encoding="utf-8").splitlines()
        found.extend(random.Random(1738).sample(lines, min(PER_CORPUS, len(lines))))
    return found


def _generated(scheme: str) -> tuple[list[str], list[str]]:
    """URLs of the scheme and near-misses of them, drawn with :mod:`rfc1738.strategies`."""
    valid: list[str] = []
    missed: list[str] = []

    @settings(
        max_examples=PER_SCHEME,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        deadline=None,
    )
    @given(urls(scheme), invalid_urls(scheme))
    def collect(text: str, miss: InvalidURL) -> None:
        valid.append(text)
        missed.append(miss.text)

    collect()
    return valid, missed


def _mutated(text: str, rng: random.Random) -> str:
    where = rng.randrange(len(text) + 1)
    char = rng.choice(MUTATION_CHARS)
    how = rng.choice(("insert", "delete", "replace"))
    if how == "insert":
        return text[:where] + char + text[where:]
    if how == "delete":
        return text[:where] + text[where + 1 :]
    return text[:where] + char + text[where + 1 :]


def _other_case(text: str, rng: random.Random) -> str:
    colon = text.find(":")
    if colon <= 0:
        return text
    scheme = "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in text[:colon])
    return scheme + text[colon:]


def texts() -> list[str]:
    """Every string of every source, each once, in a fixed order."""
    rng = random.Random(1738)
    found: list[str] = []
    for table in (ACCEPT, REJECT, GRAMMAR_ONLY):
        for cases in table.values():
            found.extend(case.url for case in cases)
    found.extend(RFC_EXAMPLES)
    found.extend(case.url for case in CONFUSIONS)
    found.extend(HOOKED)
    found.extend(HOST_LIMITS)
    found.extend(corpus_lines())
    for scheme in sorted(rfc1738.load().files):
        drawn, missed = _generated(scheme)
        found.extend(drawn)
        found.extend(missed)
        found.extend(_mutated(text, rng) for text in drawn)
    found.extend(_other_case(text, rng) for text in list(found))
    found.extend(build(200) for build in ADVERSARIAL.values())
    found.extend(["", ":", "http:", "HTTP:x", "https://a", "http://a.b/\n", "\n"])
    return list(dict.fromkeys(found))


def _sample(grammar: rfc1738.Grammar, text: str) -> Sample:
    scheme = grammar.scheme_file(text).scheme
    valid = grammar.is_valid(text, host_checks=False)
    spans: dict[str, tuple[int, int]] = {}
    values: dict[str, object] = {}
    if valid:
        parser = grammar.engine(scheme)
        spans = {**(parser.checked_spans(text) or {}), **(parser.spans(text) or {})}
        cls = grammar.url_class(scheme)
        wanted = cls.PRODUCTIONS | CHECKED_PRODUCTIONS
        spans = {name: span for name, span in spans.items() if name in wanted}
        url = grammar.parse(text, host_checks=False)
        values = {name: getattr(url, f"raw_{name}") for name in sorted(cls.READ_BY_HOOK)}
    return Sample(
        text,
        scheme,
        valid,
        grammar.is_valid(text),
        tuple(sorted(spans.items())),
        tuple(values.items()),
    )


@cache
def samples() -> tuple[Sample, ...]:
    """The samples, computed once per test run."""
    grammar = rfc1738.load()
    return tuple(_sample(grammar, text) for text in texts())
