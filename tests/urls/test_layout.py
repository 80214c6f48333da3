"""What the URL classes ask of their start rule's layout (``rfc1738.runtime.layout``).

The literals between the fields, and which optional parts hold no field,
come from the compiled start rule: the queries are held to the shipped
layouts, and an edited ``fileurl`` with other literals shows that nothing of
file's is written in Python (the width of the ``/`` before the path, the
``localhost`` that means this machine).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir
from rfc1738.output.jsonl import members_writer
from rfc1738.runtime.layout import (
    Layout,
    LayoutVisitor,
    fieldless_options,
    fields_in,
    literal_before,
    literal_options,
    nodes,
)
from tests.cases import ACCEPT


def layout_of(text: str, grammar: rfc1738.Grammar | None = None) -> Layout:
    url = (grammar or rfc1738.shipped()).parse(text)
    return url._layout()


@pytest.mark.parametrize(
    ("text", "before", "fieldless", "beside_host"),
    [
        ("http://h/", {"host": "http://", "port": ":", "hpath": "/", "search": "?"}, set(), ()),
        ("telnet://h/", {"password": ":", "port": ":"}, {4}, ()),
        ("gopher://h", {"search": "%09", "gopher_plus_string": "%09"}, {2}, ()),
        ("file:///a", {"host": "file://", "fpath": "/"}, {1}, ("localhost",)),
        ("nntp://h/g/1", {"group": "/", "digits": "/"}, set(), ()),
        ("prospero://h/p", {"fieldname": ";", "fieldvalue": "="}, set(), ()),
        ("ftp://h/a;type=a", {"ftptype": ";type="}, set(), ()),
    ],
)
def test_the_queries_on_the_shipped_start_rules(
    text: str, before: dict[str, str], fieldless: set[int], beside_host: tuple[str, ...]
) -> None:
    layout = layout_of(text)
    assert {name: literal_before(layout, name) for name in before} == before
    assert fieldless_options(layout) == fieldless
    assert literal_options(layout, "host") == beside_host


def test_no_literal_before_a_field_is_an_error() -> None:
    layout = layout_of("x-y://h/p")
    with pytest.raises(ValueError, match="no literal before scheme"):
        literal_before(layout, "scheme")  # genericurl starts with it


@pytest.mark.parametrize("text", [case.url for cases in ACCEPT.values() for case in cases])
def test_nodes_give_the_fields_in_the_order_they_are_written(text: str) -> None:
    # Each node before those inside it, in the order of the text: the fields a
    # URL has start where the one before them started, or later (a field in
    # several alternatives, wais's host, counts where it first comes).
    url = rfc1738.parse(text)
    layout = url._layout()
    order = list(dict.fromkeys(node[1] for node in nodes(layout) if node[0] == "group"))
    assert set(order) == fields_in(layout)
    starts = [url._spans[name][0] for name in order if name in url._spans]
    assert starts == sorted(starts)


class _Literals(LayoutVisitor[str]):
    """A pass with methods for some kinds only."""

    def visit_lit(self, node: Layout) -> str:
        return str(node[1])

    def visit_seq(self, node: Layout) -> str:
        return "".join(map(self.visit, node[1]))


def test_a_pass_is_one_method_per_kind() -> None:
    assert _Literals().visit(("seq", (("lit", "a:", True), ("lit", "//", False)))) == "a://"
    with pytest.raises(TypeError, match="_Literals has no visit_opt"):
        _Literals().visit(("seq", (("lit", "a:", True), ("opt", 1, ("lit", "/", False)))))


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> rfc1738.Grammar:
    """A copy of the shipped grammar whose fileurl says this machine another way, with ``//``."""
    directory = tmp_path_factory.mktemp("file") / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    file = directory / "file.lark"
    old = 'fileurl: "file://"i [ host | "localhost" ] "/" fpath'
    source = file.read_text(encoding="utf-8")
    assert old in source
    new = 'fileurl: "file://"i [ host | "this~machine" ] "//" fpath'
    file.write_text(source.replace(old, new), encoding="utf-8")
    return rfc1738.load(Path(directory))


@pytest.mark.parametrize(
    ("text", "host", "normal"),
    [
        ("file://this~machine//a/b", "this~machine", "file:////a/b"),
        ("FILE://this~machine//a", "this~machine", "file:////a"),
        ("file:////a", None, "file:////a"),
        ("file://h.example//a", "h.example", "file://h.example//a"),
    ],
)
@pytest.mark.parametrize("parser", ["fast", "reference"])
def test_file_reads_its_literals_from_the_start_rule(
    elsewhere: rfc1738.Grammar, text: str, host: str | None, normal: str, parser: str
) -> None:
    # The literal alternative leaves no host span: the hook reads the host between
    # the literals before host and before fpath, and the literal means this machine.
    url = elsewhere.parse(text, parser=parser)  # type: ignore[arg-type]
    assert url.host == host
    assert str(url.normalize()) == normal
    fast = elsewhere.engine("file")
    match = fast.pattern.fullmatch(text)
    assert match is not None
    write = members_writer(url.__class__, fast.fields, grammar=elsewhere, host_checks=True)
    data = url.to_dict()
    del data["text"]
    assert write(text, match) == json.dumps(data)[1:-1]
