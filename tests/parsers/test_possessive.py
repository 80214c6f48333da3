"""Possessive repetitions on every Python the package admits (issue 19, reproducer 1).

CPython 3.11.0 to 3.11.4 misread a possessive repetition of a group whose pass
fails part-way (gh-106052): on Debian 12's ``python3`` (3.11.2) ``http://h/``
was no URL. The expressions are compiled in the form the running Python reads
right (:mod:`rfc1738.runtime.possessive`); ``make test`` runs this file on
3.11.2, 3.12 and 3.13 as well as on .venv's Python.
"""

from __future__ import annotations

import platform
import re
import sys

import pytest

import rfc1738
from rfc1738.compile.dialects import PORTABLE_PYTHON
from rfc1738.compile.emit import PYTHON, PYTHON_FORMS
from rfc1738.compile.export import export_grammar
from rfc1738.runtime.possessive import (
    FIXED_IN,
    FORMS,
    PROBE_TEXT,
    compile_expression,
    form,
    probe,
    probed,
    repetition,
)
from rfc1738.runtime.store import shipped_tables
from tests.cases import ACCEPT, GRAMMAR_ONLY, REJECT

#: One token of an expression as the writer writes it: an escape, a class, an
#: opening parenthesis, a closing one with a possessive quantifier after it if
#: any, or a run of anything else. The tests' oracle: the rewriting the run
#: time did before the writer spelled every form itself.
_TOKEN = r"\\.|\[(?:\\.|[^\]\\])*\]|\(|\)(?:(?:[*+?]|\{[0-9]*,?[0-9]*\})\+)?|[^\\\[()]+|."


def spelled(source: str, spelling: str) -> str:
    """``source`` with each possessive repetition of a group rewritten in ``spelling``."""
    if spelling == "possessive":
        return source
    out: list[str] = []
    opened: list[int] = []
    for token in re.findall(_TOKEN, source, re.DOTALL):
        if token == "(":
            opened.append(len(out))
        elif token.startswith(")") and len(token) > 1 and opened:
            begin = opened.pop()
            atom = "".join(out[begin:]) + ")"
            del out[begin:]
            token = repetition(atom, token[1:-1], spelling)
        elif token == ")" and opened:
            opened.pop()
        out.append(token)
    return "".join(out)


#: Constructs gh-106052 breaks: each possessive repetition of a group has a pass
#: that fails part-way, after an inner repetition, option or lookahead matched.
BROKEN_BY_GH_106052 = (
    (r"(?:[a][a]*+\.)*+a", "a"),  # the shipped host's domain labels, in small
    (r"(?:ab?c)*+a", "aca"),
    (r"(?:ab?c)++a", "acaca"),
    (r"(?:ab?c)?+a", "a"),
    (r"(?:ab?c){0,2}+a", "aca"),
    (r"(?:a(?:x|y)c)*+a", "axca"),
    (r"(?:a(?=b)bc)*+a", "abca"),
    (r"(?:(?P<g>a)a*b)*+a", "aba"),
)

#: What a possessive repetition of one character or class is matched by: right everywhere.
RUNS = ((r"[a]*+a", "aa", False), (r"\-++x", "--x", True), (r"(?:[ab]++|%[0-9])*+x", "a%1bx", True))


#: A possessive repetition of a group, as the writer spells it.
GROUP_POSSESSIVE = re.compile(r"\)(?:[*+?]|\{[0-9,]*\})\+")


def shipped_expressions() -> list[tuple[str, str]]:
    tables = shipped_tables()
    assert tables is not None
    found = []
    for scheme, table in sorted(tables.schemes.items()):
        found += [(scheme, source) for source in (table.expression, table.prefixes) if source]
    return found


def all_cases() -> list[str]:
    return [c.url for table in (ACCEPT, REJECT, GRAMMAR_ONLY) for cs in table.values() for c in cs]


def test_reproducer_1_http_urls_on_every_python() -> None:
    assert rfc1738.is_valid("http://h/")
    assert rfc1738.is_valid("http://www.example.com/a/b?c")
    url = rfc1738.parse("http://example.com/")
    assert (url.host, url.path) == ("example.com", "")
    with pytest.raises(rfc1738.URLSyntaxError) as caught:
        rfc1738.parse("http://example.com/a b")
    # The explanation agrees with the fast parser's verdict: str() raises nothing.
    assert caught.value.position == 20 and "(in hsegment)" in str(caught.value)


@pytest.mark.skipif(platform.python_implementation() != "CPython", reason="CPython's history")
def test_the_probe_finds_the_defect_where_cpython_has_it() -> None:
    # Run on 3.11.2, 3.11.7, 3.12 and 3.13 by make test: the probe and the version agree.
    assert probed() == ("possessive" if sys.version_info >= FIXED_IN else "atomic")
    assert form() == probed()


@pytest.mark.parametrize(
    ("pattern", "text"), [(probe("possessive"), PROBE_TEXT), *BROKEN_BY_GH_106052]
)
def test_the_chosen_form_matches_what_the_defect_breaks(pattern: str, text: str) -> None:
    # The probe stands for all of them: where it passes as written, so do they.
    forms = {spelling: spelled(pattern, spelling) for spelling in FORMS[1:]}
    assert compile_expression(pattern, forms).fullmatch(text)
    for later in FORMS[FORMS.index(form()) :]:
        assert re.fullmatch(spelled(pattern, later), text), later


def test_the_probe_in_each_form_is_the_possessive_probe_rewritten() -> None:
    for spelling in FORMS:
        assert probe(spelling) == spelled(probe("possessive"), spelling)


def test_the_tables_hold_each_expression_in_every_form_the_rewriting_gave() -> None:
    """The writer's forms (PYTHON_FORMS) match as the possessive text rewritten does.

    Not always the same text: the writer's atomic repetition is a group of
    its own, so an option around it adds none (``(?>x*)?``, not ``(?:(?>x*))?``).
    The same groups; on the forms this Python reads right, the same matches.
    """
    tables = shipped_tables()
    assert tables is not None
    assert set(PYTHON_FORMS) == set(FORMS)
    cases = all_cases()
    kept = 0
    for scheme, table in sorted(tables.schemes.items()):
        for source, forms in (
            (table.expression, table.expression_forms),
            (table.prefixes, table.prefixes_forms),
        ):
            assert source is not None, scheme
            assert set(forms) <= set(FORMS[1:])
            kept += len(forms)
            for spelling in FORMS[1:]:
                written = re.compile(forms.get(spelling, source))
                rewritten = re.compile(spelled(source, spelling))
                assert written.groupindex == rewritten.groupindex, (scheme, spelling)
                assert not GROUP_POSSESSIVE.search(written.pattern), (scheme, spelling)
                if FORMS.index(spelling) < FORMS.index(form()):
                    continue  # (a form this Python misreads)
                for text in cases:
                    left, right = written.fullmatch(text), rewritten.fullmatch(text)
                    assert (left and left.regs) == (right and right.regs), (scheme, text)
    assert kept  # the shipped host's labels, at least


@pytest.mark.parametrize(("pattern", "text", "matches"), RUNS)
def test_possessive_runs_of_one_class_are_right_as_written(
    pattern: str, text: str, matches: bool
) -> None:
    assert bool(re.fullmatch(pattern, text)) == matches
    assert spelled(pattern, "atomic").count("(?>") == pattern.count(")*+")


def test_spelled_rewrites_group_repetitions_only() -> None:
    source = r"\A(?P<x>\((?:[)(\]]|\\)++(?:ab){2,3}+)*+x\)*+(?:y)?+\Z"
    assert spelled(source, "atomic") == (
        r"\A(?>(?P<x>\((?>(?:[)(\]]|\\)+)(?>(?:ab){2,3}))*)x\)*+(?>(?:y)?)\Z"
    )
    assert spelled(source, "greedy") == r"\A(?P<x>\((?:[)(\]]|\\)+(?:ab){2,3})*x\)*+(?:y)?\Z"
    assert spelled(source, "possessive") == source
    for spelling in FORMS:
        assert re.compile(spelled(source, spelling)).groupindex == {"x": 1}


@pytest.mark.parametrize("spelling", FORMS)
def test_every_form_keeps_the_groups_of_the_shipped_expressions(spelling: str) -> None:
    for scheme, source in shipped_expressions():
        written, rewritten = re.compile(source), re.compile(spelled(source, spelling))
        assert rewritten.groupindex == written.groupindex, scheme
        assert rewritten.groups == written.groups, scheme
        if spelling != "possessive":
            assert not re.search(r"\)(?:[*+?]|\{[0-9,]*\})\+", spelled(source, spelling))


def test_the_forms_this_python_reads_right_agree_on_every_case() -> None:
    """Every form from the chosen one on: the same verdict and the same groups."""
    tables = shipped_tables()
    assert tables is not None
    cases = all_cases()
    for scheme, table in tables.schemes.items():
        assert table.expression is not None
        patterns = [re.compile(spelled(table.expression, s)) for s in FORMS[FORMS.index(form()) :]]
        for text in cases:
            found = [p.fullmatch(text) for p in patterns]
            regs = {None if m is None else m.regs for m in found}
            assert len(regs) == 1, (scheme, text)


def test_the_python_export_is_the_fast_parsers_expressions_in_atomic_form() -> None:
    # Two spellings of one rule (the writer's dialect, the text rewriter): the
    # same groups, the same matches, on the Python that runs this and on 3.11.2.
    grammar = rfc1738.load()
    portable, as_run = export_grammar(grammar, PORTABLE_PYTHON), export_grammar(grammar, PYTHON)
    assert portable.dialect == "python" and rfc1738.export("python") == portable
    cases = all_cases()
    for scheme, found in portable.schemes.items():
        assert not re.search(r"\)(?:[*+?]|\{[0-9,]*\})\+", found.pattern), scheme
        assert found.numbers == as_run.schemes[scheme].numbers
        exported = re.compile(found.pattern)
        rewritten = re.compile(spelled(as_run.schemes[scheme].pattern, "atomic"))
        assert exported.groupindex == rewritten.groupindex
        for text in cases:
            left, right = exported.search(text), rewritten.search(text)
            assert (left and left.regs) == (right and right.regs), (scheme, text)
    assert re.search(portable.schemes["http"].pattern, "http://h/")


def test_repetition_spells_one_repetition() -> None:
    assert repetition("(?:ab)", "{1,2}", "possessive") == "(?:ab){1,2}+"
    assert repetition("(?:ab)", "?", "greedy") == "(?:ab)?"
    assert repetition("\\-", "*", "atomic") == "\\-*+"
