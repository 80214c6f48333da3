"""check_lines: many URLs at once, with exactly the verdict of is_valid."""

from __future__ import annotations

import io
import itertools
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rfc1738
from rfc1738 import URLSyntaxError
from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.runtime import bulk
from tests.cases import ACCEPT, GRAMMAR_ONLY, REJECT
from tests.doc_examples import DOCS, run_examples

#: Every URL of the test data but those that end in a line ending, which is
#: not part of a line.
CASES = [
    case.url
    for table in (ACCEPT, REJECT, GRAMMAR_ONLY)
    for cases in table.values()
    for case in cases
    if not case.url.endswith("\n")
]

#: Hosts and ports on either side of what the quick path lets through unchecked.
EDGES = [
    f"{scheme}://{host}{port}/"
    for scheme in ("http", "ftp", "telnet", "x-gen", "gopher")
    for host in (
        "a" * 63,
        "a" * 64,
        ".".join(["a" * 63] * 4),
        ".".join(["a" * 63] * 5),
        "1.2.3.4",
        "1.2.3.256",
        "255.255.255.255",
        "0001.2.3.4",
    )
    for port in ("", ":0", ":9999", ":65535", ":65536", ":99999", ":" + "0" * 30 + "80")
]


@pytest.mark.parametrize("host_checks", [True, False])
def test_the_verdict_is_is_valids(host_checks: bool) -> None:
    texts = CASES + EDGES
    results = list(rfc1738.check_lines(texts, host_checks=host_checks))
    grammar = rfc1738.shipped()
    assert [r.number for r in results] == list(range(1, len(texts) + 1))
    assert [r.text for r in results] == texts
    assert [r.scheme for r in results] == [grammar.scheme_file(t).scheme for t in texts]
    expected = [rfc1738.is_valid(t, host_checks=host_checks) for t in texts]
    assert [r.valid for r in results] == expected


def test_an_edited_grammar_new_and_irregular_schemes(tmp_path: Path) -> None:
    directory = tmp_path / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    (directory / "afs.lark").write_text(
        "%import .common (ip_schemepart, login, hostport, host, hostname, domainlabel,"
        " toplabel, alphadigit, hostnumber, port, user, password, urlpath, digits)\n"
        'afsurl: "afs:"i ip_schemepart\n',
        encoding="utf-8",
    )
    (directory / "nest.lark").write_text(
        'nesturl: "nest:" item\nitem: "(" item ")" | "x"\n', encoding="utf-8"
    )
    grammar = rfc1738.load(directory)
    texts = [
        "afs://cell.example/usr",
        "afs://cell.example:99999/usr",
        "afs:opaque",
        "nest:((x))",
        "nest:((x)",
        *CASES,
    ]
    results = list(rfc1738.check_lines(texts, grammar=grammar))
    assert [r.valid for r in results] == [grammar.is_valid(t) for t in texts]
    assert [r.scheme for r in results[:5]] == ["afs", "afs", "afs", "nest", "nest"]


def details(error: URLSyntaxError) -> tuple[object, ...]:
    return (error.text, error.position, error.expected, error.rule, error.reason)


def parse_error(grammar: rfc1738.Grammar, text: str, host_checks: bool) -> URLSyntaxError:
    try:
        grammar.parse(text, host_checks=host_checks)
    except URLSyntaxError as error:
        return error
    raise AssertionError(f"{text!r} is valid")


def check_matches(grammar: rfc1738.Grammar, texts: list[str], host_checks: bool) -> None:
    """match_lines: check_lines' verdicts; a valid line's match builds parse's object;
    line_error gives parse's error."""
    found = list(bulk.match_lines(grammar, texts, host_checks=host_checks))
    verdicts = list(bulk.check_lines(grammar, texts, host_checks=host_checks))
    assert [(m.number, m.text, m.scheme, m.valid) for m in found] == [tuple(r) for r in verdicts]
    for match in found:
        if not match.valid:
            assert match.match is None
            error = bulk.line_error(grammar, match.text, host_checks=host_checks)
            assert details(error) == details(parse_error(grammar, match.text, host_checks))
            # Told the line's grammar file, as check --jsonl tells it: the same error.
            told = bulk.line_error(
                grammar, match.text, host_checks=host_checks, scheme=match.scheme
            )
            assert details(told) == details(error)
            continue
        url = grammar.parse(match.text, host_checks=host_checks)
        if match.match is None:
            # Served without an expression (irregular) or read as a generic URL.
            hot = grammar.engine(match.scheme)
            assert hot.fullmatch is None
            continue
        fields = grammar.engine(match.scheme).fields
        built = type(url).builder(fields, grammar)(match.text, match.match, host_checks)
        assert built == url
        assert built.to_dict() == url.to_dict()
        with pytest.raises(ValueError, match="is a valid URL"):
            bulk.line_error(grammar, match.text, host_checks=host_checks)


@pytest.mark.parametrize("host_checks", [True, False])
def test_match_lines_gives_the_match_and_line_error_the_error(host_checks: bool) -> None:
    check_matches(rfc1738.shipped(), CASES + EDGES, host_checks)


def test_match_lines_of_new_and_irregular_schemes(tmp_path: Path) -> None:
    directory = tmp_path / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    (directory / "afs.lark").write_text(
        "%import .common (ip_schemepart, login, hostport, host, hostname, domainlabel,"
        " toplabel, alphadigit, hostnumber, port, user, password, urlpath, digits)\n"
        'afsurl: "afs:"i ip_schemepart\n',
        encoding="utf-8",
    )
    (directory / "nest.lark").write_text(
        'nesturl: "nest:" item\nitem: "(" item ")" | "x"\n', encoding="utf-8"
    )
    grammar = rfc1738.load(directory)
    texts = ["afs://cell.example/usr", "afs://cell.example:99999/usr", "afs:opaque"]
    texts += ["nest:((x))", "nest:((x)", "http://h/", "http://h/ x"]
    check_matches(grammar, texts, True)
    found = list(bulk.match_lines(grammar, texts))
    assert [(m.valid, m.match is not None) for m in found] == [
        (True, False),
        (False, False),
        (False, False),
        (True, False),
        (False, False),
        (True, True),
        (False, False),
    ]


def test_lines_strip_only_the_line_ending(monkeypatch: pytest.MonkeyPatch) -> None:
    data = "http://h/\r\na b \n\nx\r\n\r\ncaf\u00e9\n\ud800end".encode("utf-8", "surrogatepass")
    expected = ["http://h/", "a b ", "", "x", "", "caf\u00e9", "\udced\udca0\udc80end"]
    for block in (1, 2, 3, 7, 1 << 20):
        monkeypatch.setattr(bulk, "BLOCK", block)
        assert list(bulk.lines(io.BytesIO(data))) == expected, block
    monkeypatch.setattr(bulk, "BLOCK", 5)
    text = "a\r\nb\n\u00e9\nc"
    assert list(bulk.lines(io.StringIO(text))) == ["a", "b", "\u00e9", "c"]
    assert list(bulk.lines(text.splitlines(keepends=True))) == ["a", "b", "\u00e9", "c"]
    assert list(bulk.lines([b"x\n", b"y"])) == ["x", "y"]


def test_a_line_of_bytes_that_are_not_utf8_is_invalid() -> None:
    (result,) = rfc1738.check_lines(io.BytesIO(b"http://h/\xff\n"))
    assert (result.text, result.valid) == ("http://h/\udcff", False)


def test_lines_are_checked_as_they_come() -> None:
    """Nothing is read ahead beyond what is asked: an endless source works."""
    endless = (f"http://h{n}/" for n in itertools.count())
    first = list(itertools.islice(rfc1738.check_lines(endless), 3))
    assert [(r.number, r.text, r.valid) for r in first] == [
        (1, "http://h0/", True),
        (2, "http://h1/", True),
        (3, "http://h2/", True),
    ]


def test_the_docs_example_runs() -> None:
    """docs/parsers.md's examples (check_lines among them) print what the page shows."""
    results = run_examples(DOCS / "parsers.md")
    assert results.attempted and not results.failed


def flattened(blocks: list[list[bulk.LineMatch]]) -> list[tuple[object, ...]]:
    """The lines of match_blocks' blocks in the order of their numbers, with their groups."""
    lines = sorted((line for block in blocks for line in block), key=lambda line: line.number)
    return [(*line[:4], None if line.match is None else line.match.regs) for line in lines]


def check_blocks(
    grammar: rfc1738.Grammar, source: Any, texts: list[str], size: int, host_checks: bool
) -> list[list[bulk.LineMatch]]:
    """match_blocks against match_lines: the same lines, verdicts and matches; each
    block consecutive lines, grouped by the scheme as written, valid lines first."""
    blocks = list(bulk.match_blocks(grammar, source, host_checks=host_checks, size=size))
    expected = list(bulk.match_lines(grammar, texts, host_checks=host_checks))
    assert flattened(blocks) == [
        (*line[:4], None if line.match is None else line.match.regs) for line in expected
    ]
    first = 1
    for block in blocks:
        assert 0 < len(block) <= size
        assert sorted(line.number for line in block) == list(range(first, first + len(block)))
        first += len(block)
        # Runs of one scheme as written, each met once, in the order first met.
        written = [line.text.partition(":")[0] if ":" in line.text[1:] else "" for line in block]
        runs = [key for at, key in enumerate(written) if at == 0 or key != written[at - 1]]
        assert len(runs) == len(set(runs))
        numbers = [line.number for line in block]
        firsts = {
            key: min(n for n, w in zip(numbers, written, strict=True) if w == key) for key in runs
        }
        assert runs == sorted(runs, key=firsts.__getitem__)
        for key in runs:
            run = [line for line, w in zip(block, written, strict=True) if w == key]
            # Valid lines, then invalid ones, each in the order of the lines.
            valid = [line.number for line in run if line.valid]
            invalid = [line.number for line in run if not line.valid]
            assert [line.number for line in run] == sorted(valid) + sorted(invalid)
    return blocks


@pytest.mark.parametrize("host_checks", [True, False])
@pytest.mark.parametrize("size", [1, 3, 64, bulk.BLOCK_LINES])
def test_match_blocks_gives_match_lines_lines_a_block_at_a_time(
    host_checks: bool, size: int
) -> None:
    texts = CASES + EDGES
    check_blocks(rfc1738.shipped(), texts, texts, size, host_checks)


def test_match_blocks_of_new_and_irregular_schemes(tmp_path: Path) -> None:
    directory = tmp_path / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    (directory / "nest.lark").write_text(
        'nesturl: "nest:" item\nitem: "(" item ")" | "x"\n', encoding="utf-8"
    )
    grammar = rfc1738.load(directory)
    texts = ["nest:((x))", "http://h/", "nest:((x)", "NEST:x", "http://h/ x", "", ":", "x"]
    blocks = check_blocks(grammar, texts, texts, 100, True)
    assert [(line.number, line.valid) for line in blocks[0]] == [
        (1, True),
        (3, False),
        (2, True),
        (5, False),
        (4, False),  # "nest:" is written in lower case in the grammar
        (6, False),
        (7, False),
        (8, False),
    ]


def test_match_blocks_reads_a_file_a_block_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [f"http://h{i}/{' ' if i % 5 == 0 else ''}" for i in range(40)] + ["ftp://h/"] * 3
    data = "".join(f"{text}\r\n" for text in texts).encode()
    for block in (7, 64, 1 << 20):
        monkeypatch.setattr(bulk, "BLOCK", block)
        # The lines of each read, at most size at a time (check_blocks).
        blocks = check_blocks(rfc1738.shipped(), io.BytesIO(data), texts, 5, True)
    assert [len(block) for block in blocks] == [5] * 8 + [3]
    assert list(bulk.match_blocks(rfc1738.shipped(), io.BytesIO(b""))) == []


@given(
    st.lists(st.sampled_from(CASES[:200] + EDGES[:40] + ["", "a:b", "HTTP://h/"]), max_size=40),
    st.integers(1, 12),
)
def test_match_blocks_holds_for_any_lines(texts: list[str], size: int) -> None:
    check_blocks(rfc1738.shipped(), texts, texts, size, True)
