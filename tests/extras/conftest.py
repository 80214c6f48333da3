"""An edited grammar for the extras' tests: a copy of the shipped one, changed in two places."""

from __future__ import annotations

import shutil

import pytest

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir

#: A new scheme's file: the how-to's AFS URLs (docs/how-to/edit-the-grammar.md).
AFS = """\
// AFS URLs, as in docs/how-to/edit-the-grammar.md. Start rule: afsurl.
%import .common (hostname, domainlabel, toplabel, alphadigit, ALPHA, DIGIT, UCHAR)
%import .ftp (fpath, fsegment)

// BNF: afsurl         = "afs://" cellname "/" fpath
afsurl: "afs://"i cellname "/" fpath
// BNF: cellname       = hostname
cellname: hostname
"""


@pytest.fixture(scope="session")
def edited(tmp_path_factory: pytest.TempPathFactory) -> rfc1738.Grammar:
    """The shipped grammar with ``~`` in http's hsegment, and an ``afs`` scheme."""
    directory = tmp_path_factory.mktemp("edited") / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    http = directory / "http.lark"
    old = 'hsegment: ( UCHAR | ";" | ":" | "@" | "&" | "=" )*'
    text = http.read_text(encoding="utf-8")
    assert old in text
    http.write_text(text.replace(old, old[:-2] + ' | "~" )*'), encoding="utf-8")
    (directory / "afs.lark").write_text(AFS, encoding="utf-8")
    return rfc1738.load(directory)
