"""What the objects assume of a grammar and its classes, checked (``rfc1738.urls.checks``).

Issue 19 item 7 and reproducers 7 and 10: an edited ``genericurl`` that
accepts a text without ``:`` crashed ``parse``, ``to_dict()`` and ``check
--jsonl`` (``text.index(":")``); a production used twice in one rule
(``"http://" hostport "/" hpath "/" hpath``) parsed, but ``normalize()``
wrote the first value twice and ``replace(path=...)`` set both. Both are
refused with a :class:`~rfc1738.GrammarError` that says why, before an
object of the scheme is built. Issue 22 item 5: :func:`rfc1738.load` checks
the classes it is given, at once.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import rfc1738
from rfc1738 import GrammarError, urls
from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.urls import CLASSES
from rfc1738.urls.checks import check_chosen, check_given, repeated
from tests.cli.helpers import edit, run

# ---- a generic rule that accepts a text without ":" ----

NO_COLON = "a text without ':'"


def copy(tmp_path: Path, name: str = "grammar") -> Path:
    directory = tmp_path / name
    shutil.copytree(shipped_grammar_dir(), directory)
    return directory


@pytest.fixture(scope="module")
def optional_colon(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reproducer: ``genericurl: scheme [":"] schemepart``."""
    directory = copy(tmp_path_factory.mktemp("colon"))
    edit(
        directory / "generic.lark",
        'genericurl: scheme ":" schemepart',
        'genericurl: scheme [":"] schemepart',
    )
    return directory


def test_a_generic_rule_without_colon_is_refused_before_an_object(optional_colon: Path) -> None:
    grammar = rfc1738.load(optional_colon)
    calls = [
        lambda: grammar.parse("abc"),
        lambda: grammar.parse("abc").to_dict(),
        lambda: grammar.parse("x-y:z"),  # any generic URL: the rule is refused, not the text
        lambda: grammar.parse("abc", parser="reference"),
        lambda: grammar.is_valid("abc"),
        lambda: list(rfc1738.check_lines(["abc"], grammar=grammar)),
    ]
    for call in calls:
        with pytest.raises(GrammarError) as caught:
            call()
        assert caught.value.file == str(optional_colon / "generic.lark")
        assert str(caught.value) == (
            f"{optional_colon / 'generic.lark'}: genericurl accepts '+', {NO_COLON}; a URL is "
            "<scheme>:<scheme-specific-part> (RFC 1738 section 2.1), its scheme is what comes "
            "before the first ':', and that picks the grammar file that reads it"
        )
    # A scheme with a file of its own is read as before.
    assert grammar.parse("http://h/a").path == "a"


def test_the_command_line_says_so_with_exit_status_2(optional_colon: Path) -> None:
    for args in (["check", "--jsonl"], ["check"], ["parse", "abc"]):
        result = run(*args, "--grammar", optional_colon, input="abc\nx:y\n")
        assert (result.status, result.out) == (2, ""), args
        assert result.err.startswith(f"rfc1738: {optional_colon / 'generic.lark'}: genericurl")
        assert NO_COLON in result.err and "Traceback" not in result.err


@pytest.mark.parametrize(
    ("old", "new", "example"),
    [
        ('genericurl: scheme ":" schemepart', "genericurl: scheme schemepart", "+"),
        ('genericurl: scheme ":" schemepart', 'genericurl: scheme ":" schemepart | schemepart', ""),
        ("schemepart: XCHAR* | ip_schemepart", "schemepart: XCHAR* | ip_schemepart", None),
    ],
    ids=["no-colon", "or-a-schemepart", "unchanged"],
)
def test_the_example_is_a_shortest_text_the_rule_accepts(
    tmp_path: Path, old: str, new: str, example: str | None
) -> None:
    directory = copy(tmp_path)
    edit(directory / "generic.lark", old, new)
    grammar = rfc1738.load(directory)
    automaton = grammar.tables.compiled_file("generic").error_automaton("genericurl")
    assert automaton is not None
    assert automaton.shortest_accepted(excluding=":") == example
    if example is None:
        assert grammar.parse("x-y:z").scheme == "x-y"
    else:
        with pytest.raises(GrammarError, match=re.escape(f"accepts {example!r}, {NO_COLON}")):
            grammar.parse("x-y:z")


def test_a_generic_rule_edited_otherwise_still_loads(tmp_path: Path) -> None:
    """The correct behaviour where ':' stays: an edit of the scheme's characters."""
    directory = copy(tmp_path)
    edit(directory / "generic.lark", '| "+" | "-" | "." )+', '| "+" | "-" | "." | "_" )+')
    grammar = rfc1738.load(directory)
    url = grammar.parse("X_Y:z")
    assert (url.scheme, url.schemepart, str(url.normalize())) == ("x_y", "z", "x_y:z")
    assert url.to_dict()["raw_scheme"] == "X_Y"
    with pytest.raises(rfc1738.URLSyntaxError):
        grammar.parse("abc")


def test_the_shipped_generic_rule_accepts_no_text_without_colon() -> None:
    automaton = rfc1738.shipped().dispatch.explainer.automaton("generic")
    assert automaton is not None
    assert automaton.shortest_accepted(excluding=":") is None


# ---- a production a field reads, twice in one URL ----


@pytest.fixture(scope="module")
def hpath_twice(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reproducer: ``"http://"i hostport "/" hpath "/" hpath``."""
    directory = copy(tmp_path_factory.mktemp("twice"))
    edit(
        directory / "http.lark",
        'httpurl: "http://"i hostport [ "/" hpath [ "?" search ] ]',
        'httpurl: "http://"i hostport "/" hpath "/" hpath',
    )
    return directory


TWICE = (
    "httpurl has hpath more than once in one URL, but HttpURL.path reads and writes one "
    "hpath: a field's production may occur once in a URL of its start rule (inside a "
    "repetition, the field takes one item a repetition)"
)


def test_a_production_read_twice_is_refused(hpath_twice: Path) -> None:
    grammar = rfc1738.load(hpath_twice)
    # normalize() and replace() wrote "http://h/a/a" and "http://h/x/x": no object is made.
    for parser in ("fast", "reference"):
        with pytest.raises(GrammarError) as caught:
            grammar.parse("http://h/a/b", parser=parser)  # type: ignore[arg-type]
        assert str(caught.value) == f"{hpath_twice / 'http.lark'}: {TWICE}"
    with pytest.raises(GrammarError, match=r"HttpURL\.path"):
        grammar.is_valid("http://h/a/b")
    # Each scheme is checked on its own: ftp is read as before.
    assert str(grammar.parse("FTP://H/a").normalize()) == "ftp://h/a"
    result = run("parse", "--grammar", hpath_twice, "http://h/a/b")
    assert (result.status, result.out) == (2, "")
    assert result.err == f"rfc1738: {hpath_twice / 'http.lark'}: {TWICE}\n"


def test_a_class_given_is_checked_at_load(tmp_path: Path) -> None:
    class Segment(rfc1738.URL):
        """A class reading hsegment, which hpath repeats."""

        segment = urls.Text("hsegment", escape="hsegment")

    with pytest.raises(
        GrammarError, match=r"httpurl has hsegment more than once in one URL, but Segment\.segment"
    ):
        rfc1738.load(copy(tmp_path), classes={"http": Segment})


def test_repeated_counts_alternatives_once_and_repetitions_once() -> None:
    grammar = rfc1738.shipped()
    for scheme in sorted(grammar.files):
        # wais has host in each alternative, prospero its field names in a repetition.
        layout = grammar.dispatch.table(scheme).layout
        assert repeated(layout) == frozenset(), scheme
        check_chosen(grammar, scheme, grammar.url_class(scheme), given=True)
    seq = ("seq", (("group", "a", None), ("opt", 1, ("group", "a", None))))
    assert repeated(seq) == {"a"}
    assert repeated(("rep", ("group", "a", None), 0, -1)) == frozenset()
    assert repeated(("group", "s", ("seq", (("group", "a", None), ("group", "a", None))))) == {"a"}


# ---- the classes load() is given (issue 22 item 5) ----


@pytest.fixture(scope="module")
def afs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The how-to's grammar: a copy with afs.lark (docs/how-to/edit-the-grammar.md)."""
    directory = copy(tmp_path_factory.mktemp("afs"))
    (directory / "afs.lark").write_text(
        "%import .common (hostname, domainlabel, toplabel, alphadigit, ALPHA, DIGIT, UCHAR)\n"
        "%import .ftp (fpath, fsegment)\n"
        'afsurl: "afs://"i cellname "/" fpath\n'
        "cellname: hostname\n",
        encoding="utf-8",
    )
    return directory


class AfsURL(rfc1738.URL):
    """afs://cellname/fpath: an AFS cell and a path in it."""

    cell = urls.Verbatim("cellname", optional=False)
    path = urls.Path("fpath", escape="fsegment", optional=False)


class Pasted(rfc1738.URL):
    """The how-to's class as pasted into a REPL without its field lines."""


def test_the_howto_class_loads(afs: Path) -> None:
    url = rfc1738.load(afs, classes={"afs": AfsURL}).parse("afs://transarc.com/usr")
    assert (url.cell, url.path) == ("transarc.com", "usr")


def test_a_class_without_fields_is_refused_at_load(afs: Path) -> None:
    # It used to fail later: replace(cell=...) with "has no field 'cell' (fields: )",
    # normalize() with "afsurl has a part here that no field writes".
    with pytest.raises(GrammarError) as caught:
        rfc1738.load(afs, classes={"afs": Pasted})
    assert str(caught.value) == (
        f"{afs / 'afs.lark'}: Pasted declares no fields: its objects would hold none of "
        "afsurl's parts, and replace() and normalize() could not write one. Declare each "
        'field as a class attribute (docs/objects.md, "Declaring the fields of a class")'
    )


def test_a_class_without_fields_where_there_is_nothing_to_hold(tmp_path: Path) -> None:
    directory = copy(tmp_path)
    (directory / "about.lark").write_text('abouturl: "about:blank"i\n', encoding="utf-8")
    grammar = rfc1738.load(directory, classes={"about": Pasted})
    assert str(grammar.parse("ABOUT:blank").normalize()) == "about:blank"


def test_a_field_naming_no_production_is_refused_at_load(afs: Path) -> None:
    class Typo(rfc1738.URL):
        cell = urls.Verbatim("cellnme", optional=False)

    with pytest.raises(GrammarError) as caught:
        rfc1738.load(afs, classes={"afs": Typo})
    assert str(caught.value) == (
        f"{afs / 'afs.lark'}: Typo.cell reads cellnme, which afs.lark neither defines nor "
        "imports (did you mean cellname?)"
    )

    class Escape(rfc1738.URL):
        cell = urls.Verbatim("cellname", optional=False)
        path = urls.Path("fpath", escape="hsegment", optional=False)

    with pytest.raises(GrammarError) as caught:
        rfc1738.load(afs, classes={"afs": Escape})
    assert str(caught.value).endswith(
        "Escape.path is escaped with the characters of hsegment, which afs.lark neither "
        "defines nor imports (did you mean fsegment?)"
    )


def test_a_class_for_no_file_or_not_a_class_is_refused_at_load(afs: Path) -> None:
    with pytest.raises(
        GrammarError, match=r"classes gives AfsURL for 'afz', but there is no afz\.lark"
    ):
        rfc1738.load(afs, classes={"afz": AfsURL})
    with pytest.raises(TypeError, match=r"classes\['afs'\] must be a URL class, not 'AfsURL'"):
        rfc1738.load(afs, classes={"afs": "AfsURL"})  # type: ignore[dict-item]


def test_the_shipped_classes_given_again_load() -> None:
    """Each shipped class fits its own file: given explicitly, the checks pass."""
    grammar = rfc1738.shipped()
    check_given(grammar, dict(CLASSES))
    loaded = rfc1738.load(None, classes={"http": rfc1738.HttpURL})
    assert loaded.parse("http://h/a").path == "a"
