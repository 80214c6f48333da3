"""docs/how-to/edit-the-grammar.md, run step by step; broken grammars name file and line.

The how-to's blocks run in document order, in an empty directory: each
```pycon block as a doctest, each ```python block as code, and the ```lark
block is written to ``my-grammar/afs.lark`` (the step that says to write it).
All share one namespace, as a reader's session would.
"""

from __future__ import annotations

import doctest
import shutil
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import rfc1738
from rfc1738.bnf.files import shipped_grammar_dir

HOWTO = Path(__file__).resolve().parents[1] / "docs" / "how-to" / "edit-the-grammar.md"
FLAGS = doctest.NORMALIZE_WHITESPACE


def blocks(text: str) -> Iterator[tuple[str, str]]:
    """The fenced blocks of a markdown text: (language, body), in order."""
    language: str | None = None
    body: list[str] = []
    for line in text.splitlines():
        if line.startswith("```"):
            if language is None:
                language = line[3:].strip()
                body = []
            else:
                yield language, "\n".join(body) + "\n"
                language = None
        elif language is not None:
            body.append(line)


def test_the_howto_has_each_kind_of_step() -> None:
    kinds = [language for language, _ in blocks(HOWTO.read_text(encoding="utf-8"))]
    assert kinds.count("lark") == 1
    assert kinds.count("python") == 1
    assert kinds.count("pycon") >= 8


def test_the_howto_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))  # step 7 imports the generated module
    monkeypatch.delitem(sys.modules, "my_urls", raising=False)
    # The reader's session: a module of its own (dataclasses look their class's module up).
    session = types.ModuleType("edit_the_grammar")
    monkeypatch.setitem(sys.modules, session.__name__, session)
    namespace = session.__dict__
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for number, (language, body) in enumerate(blocks(HOWTO.read_text(encoding="utf-8"))):
        if language == "lark":
            (tmp_path / "my-grammar" / "afs.lark").write_text(body, encoding="utf-8")
        elif language == "python":
            code = compile(body, f"{HOWTO.name} block {number}", "exec", dont_inherit=True)
            exec(code, namespace)
        elif language == "pycon":
            test = parser.get_doctest(body, namespace, f"block {number}", HOWTO.name, 0)
            runner.run(test, clear_globs=False)
            namespace.update(test.globs)  # a DocTest runs in a copy of the namespace
            assert runner.failures == 0, f"{HOWTO.name}: block {number} does not give its output"
    sys.modules.pop("my_urls", None)
    # What the steps left behind: the scheme's file, and the module generated from it.
    assert (tmp_path / "my-grammar" / "afs.lark").read_text(encoding="utf-8").startswith("// AFS")
    assert (tmp_path / "my_urls.py").is_file()


# ---- A broken grammar directory names the file and line at fault ----


def copy_grammar(tmp_path: Path) -> Path:
    directory = tmp_path / "grammar"
    shutil.copytree(shipped_grammar_dir(), directory)
    return directory


def break_file(directory: Path, file: str, old: str, new: str) -> int:
    """Replace ``old`` by ``new`` in one file; the 1-based line where ``new`` begins."""
    path = directory / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1 + new[: new.find(new.strip())].count("\n")


BROKEN = {
    # name: (file at fault, text to replace, replacement)
    "syntax error": ("common.lark", 'hostport: host [ ":" port ]', 'hostport: host [ ":" port'),
    "undefined rule": ("http.lark", 'hpath: hsegment ( "/" hsegment )*', "hpath: hsegmnt"),
    "collision": ("http.lark", "// BNF: search", 'hostport: "x"\n// BNF: search'),
    "missing import file": (
        "http.lark",
        "%import .common (ALPHA",
        "%import .nosuch (x)\n%import .common (ALPHA",
    ),
}


@pytest.mark.parametrize("how", ["parse_tree", "parse", "is_valid"])
@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_grammar_names_file_and_line(tmp_path: Path, case: str, how: str) -> None:
    file, old, new = BROKEN[case]
    directory = copy_grammar(tmp_path)
    line = break_file(directory, file, old, new)
    grammar = rfc1738.load(directory)
    with pytest.raises(rfc1738.GrammarError) as caught:
        getattr(grammar, how)("http://host.example/a/b")
    error = caught.value
    assert error.file is not None and Path(error.file) == directory / file
    assert error.line == line
    assert str(error).startswith(f"{directory / file}:{line}: ")
    assert "lark" not in type(error).__module__


def test_an_error_in_an_imported_file_names_that_file(tmp_path: Path) -> None:
    """ftp.lark imports common.lark: the error is common.lark's, at its line."""
    directory = copy_grammar(tmp_path)
    line = break_file(directory, "common.lark", "port: digits", "port digits")
    with pytest.raises(rfc1738.GrammarError) as caught:
        rfc1738.load(directory).parse_tree("ftp://host.example/")
    assert (caught.value.file, caught.value.line) == (str(directory / "common.lark"), line)
