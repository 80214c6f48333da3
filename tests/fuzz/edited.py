"""An edited copy of the shipped grammar for the fuzzers: the shapes edited grammars take.

The copy has what users and the issue reports did to grammars: http URLs with
a login (the command line's page), ``~`` in http's ``hsegment`` (the
extras' tests), a new scheme with a class of none (``afs``, the how-to's),
and a new scheme whose expression may backtrack, with loops nested and
side by side, so that the linear matcher serves it (``loops``). The
fuzzers hold each to the same property as the shipped grammar.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from rfc1738.bnf.files import shipped_grammar_dir

__all__ = ["write_edited_grammar"]

AFS = """\
// afs: the how-to's new scheme (docs/how-to/edit-the-grammar.md)
// Start rule: afsurl. Imports common and ftp.
%import .common (hostname, domainlabel, toplabel, alphadigit, ALPHA, DIGIT, UCHAR)
%import .ftp (fpath, fsegment)

// BNF: afsurl         = "afs://" cellname "/" fpath
afsurl: "afs://"i cellname "/" fpath
// BNF: cellname       = hostname
cellname: hostname
"""

LOOPS = """\
// loops: loops nested and side by side, which a backtracking expression
// would try many ways (the linear matcher serves it). Start rule: loopsurl.
%import .common (ALPHA, DIGIT)

loopsurl: "loops:"i nested "/" adjacent
nested: ("a"+)+ "b"
adjacent: ALPHA* ALPHA* ALPHA* DIGIT* "!"
"""


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def write_edited_grammar(directory: Path) -> Path:
    """Write the edited copy into ``directory/grammar`` and return that path."""
    copy = directory / "grammar"
    shutil.copytree(shipped_grammar_dir(), copy)
    http = copy / "http.lark"
    _edit(http, "%import .common (hostport,", "%import .common (login, user, password, hostport,")
    _edit(http, 'httpurl: "http://"i hostport', 'httpurl: "http://"i login')
    old = 'hsegment: ( UCHAR | ";" | ":" | "@" | "&" | "=" )*'
    _edit(http, old, old[:-2] + ' | "~" )*')
    (copy / "afs.lark").write_text(AFS, encoding="utf-8")
    (copy / "loops.lark").write_text(LOOPS, encoding="utf-8")
    return copy
