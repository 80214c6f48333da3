"""What rfc1738.bnf.adapter relies on in Lark, private names included.

Each test pins one name or one behaviour the adapter uses. A Lark release
that renames or changes one of them fails here, by name, rather than deep in
the compiler or as a wrong error position. ``make test`` runs this file
against the oldest Lark ``pyproject.toml`` allows and against the newest.
"""

from __future__ import annotations

import re
from pathlib import Path

import lark
import pytest
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken
from lark.grammar import NonTerminal, Terminal
from lark.lexer import PatternStr
from lark.load_grammar import (
    TERMINALS,
    GrammarBuilder,
    _literal_to_pattern,
    _parse_grammar,
    load_grammar,
)

ROOT = Path(__file__).resolve().parents[2]

GRAMMAR = """\
top: "ab"i word ( "/" word )* [ ":" DIGITS ] | alt
alt.2: "x" ~ 2..3 -> named
word: LETTER+
LETTER: "a".."z"
DIGITS: DIGIT+
DIGIT: "0".."9"
"""


@pytest.fixture
def grammar_file(tmp_path: Path) -> Path:
    (tmp_path / "lib.lark").write_text('word: "w"\nother: "o"\n')
    path = tmp_path / "top.lark"
    path.write_text(GRAMMAR)
    return path


def loaded(path: Path) -> object:
    grammar, _used = load_grammar(path.read_text(), str(path), [str(path.parent)], False)
    return grammar


def test_version_is_in_the_range_pyproject_allows() -> None:
    bound = re.search(r'"lark>=([\d.]+),<(\d+)"', (ROOT / "pyproject.toml").read_text())
    assert bound is not None
    low, major = bound.group(1), int(bound.group(2))
    version = tuple(int(p) for p in lark.__version__.split(".")[:2])
    assert tuple(int(p) for p in low.split(".")) <= version < (major,)


# ---- load_grammar and the shape of its definitions ----


def test_load_grammar_gives_rule_and_term_defs(grammar_file: Path) -> None:
    grammar = loaded(grammar_file)
    rules = {
        str(name): (params, tree, options) for name, params, tree, options in grammar.rule_defs
    }  # type: ignore[attr-defined]
    assert {"top", "alt", "word"} <= set(rules)
    params, tree, options = rules["alt"]
    assert params == [] or params == ()
    assert options.priority == 2
    assert isinstance(tree, Tree)
    terms = dict(grammar.term_defs)  # type: ignore[attr-defined]
    tree_and_priority = terms["DIGITS"]
    assert isinstance(tree_and_priority[0], Tree) and isinstance(tree_and_priority[1], int)


def test_definition_trees_use_these_node_names(grammar_file: Path) -> None:
    grammar = loaded(grammar_file)
    kinds: set[str] = set()
    for _name, _params, tree, _options in grammar.rule_defs:  # type: ignore[attr-defined]
        kinds |= {str(t.data) for t in tree.iter_subtrees()}
    for _name, (tree, _priority) in grammar.term_defs:  # type: ignore[attr-defined]
        kinds |= {str(t.data) for t in tree.iter_subtrees()}
    assert kinds == {
        "expansions",
        "expansion",
        "alias",
        "maybe",
        "expr",
        "value",
        "literal",
        "range",
    }


def test_references_are_symbols_in_value_nodes(grammar_file: Path) -> None:
    grammar = loaded(grammar_file)
    rules = {str(n): t for n, _p, t, _o in grammar.rule_defs}  # type: ignore[attr-defined]
    leaves = [t.children[0] for t in rules["top"].iter_subtrees() if t.data == "value"]
    assert any(isinstance(leaf, NonTerminal) and leaf.name == "word" for leaf in leaves)
    assert any(isinstance(leaf, Terminal) and leaf.name == "DIGITS" for leaf in leaves)


def test_expr_holds_its_operator_or_bounds(grammar_file: Path) -> None:
    grammar = loaded(grammar_file)
    exprs = [
        [str(c) for c in t.children[1:]]
        for _n, _p, tree, _o in grammar.rule_defs  # type: ignore[attr-defined]
        for t in tree.iter_subtrees()
        if t.data == "expr"
    ]
    assert ["*"] in exprs
    assert ["~", "2", "3"] in exprs


def test_a_terminal_named_in_a_terminal_is_the_same_tree_object(grammar_file: Path) -> None:
    """The adapter reads a terminal's name back from its tree's identity."""
    terms = {str(n): t for n, (t, _p) in loaded(grammar_file).term_defs}  # type: ignore[attr-defined]
    inner = [t for t in terms["DIGITS"].iter_subtrees() if t is terms["DIGIT"]]
    assert inner


def test_imported_names_keep_their_name_and_the_rest_is_namespaced(tmp_path: Path) -> None:
    (tmp_path / "lib.lark").write_text('word: part\npart: "p"\n')
    path = tmp_path / "top.lark"
    path.write_text("%import .lib (word)\ntop: word\n")
    names = {str(n) for n, _p, _t, _o in loaded(path).rule_defs}  # type: ignore[attr-defined]
    assert names == {"top", "word", "lib__part"}


def test_literal_to_pattern_reads_escapes_and_flags() -> None:
    pattern = _literal_to_pattern(Token("STRING", '"a\\"b"i'))
    assert isinstance(pattern, PatternStr)
    assert (pattern.value, "i" in pattern.flags) == ('a"b', True)
    regexp = _literal_to_pattern(Token("REGEXP", "/[a-z]+/i"))
    assert not isinstance(regexp, PatternStr)
    assert (regexp.value, "i" in regexp.flags) == ("[a-z]+", True)


# ---- a file's statements ----


def test_parse_grammar_gives_the_statements_as_written(grammar_file: Path) -> None:
    statements = _parse_grammar(grammar_file.read_text(), str(grammar_file))
    kinds = [str(s.data) for s in statements.children if isinstance(s, Tree)]
    assert kinds[:3] == ["rule", "rule", "rule"]
    assert "term" in kinds
    text = "%declare D\n%import common.WS\n%ignore WS\n"
    kinds = [str(s.data) for s in _parse_grammar(text, "x.lark").children]
    assert kinds == ["declare", "import", "ignore"]


def test_unpack_import_gives_module_base_and_aliases(grammar_file: Path) -> None:
    text = "%import .lib (word)\n" + grammar_file.read_text()
    statements = _parse_grammar(text, str(grammar_file))
    statement = next(s for s in statements.children if s.data == "import")
    dotted, base, aliases = GrammarBuilder()._unpack_import(statement, str(grammar_file))
    assert list(dotted) == ["lib"]
    assert Path(base) == grammar_file.parent
    assert {str(k): str(v) for k, v in aliases.items()} == {"word": "word"}


def test_terminals_of_lark_grammar_of_grammars() -> None:
    """Syntax errors name these tokens; the adapter spells ``_RBRA`` as ``"]"``."""
    assert isinstance(TERMINALS["_RBRA"], str)
    assert TERMINALS["_RBRA"].startswith("\\]")


# ---- the English of Lark's loading errors ----


def error_of(tmp_path: Path, text: str, start: str = "top") -> BaseException:
    path = tmp_path / "g.lark"
    path.write_text(text)
    with pytest.raises((lark.exceptions.LarkError, OSError)) as caught:
        Lark.open(str(path), start=start, parser="earley", lexer="dynamic")
    return caught.value


def test_undefined_message(tmp_path: Path) -> None:
    message = str(error_of(tmp_path, 'top: "x" b\n'))
    assert "Rule 'b' used but not defined (in rule top)" in message


def test_duplicate_message(tmp_path: Path) -> None:
    message = str(error_of(tmp_path, 'top: "x"\ntop: "y"\n'))
    assert "defined more than once" in message and "'top'" in message


def test_import_collision_message(tmp_path: Path) -> None:
    (tmp_path / "lib.lark").write_text('x: "l"\n')
    message = str(error_of(tmp_path, '%import .lib (x)\nx: "y"\ntop: x\n'))
    assert message.startswith("Cannot import 'x' from ") or "defined more than once" in message


def test_syntax_error_is_unexpected_token_with_a_line(tmp_path: Path) -> None:
    error = error_of(tmp_path, 'top: "x" [ "y"\n// c\n\nb: "z"\n')
    assert isinstance(error, UnexpectedToken)
    assert error.token.type in ("_NL", "_NL_OR", "$END")
    assert isinstance(error.line, int) and error.line > 0
    assert error.expected


def test_missing_import_file_is_file_not_found(tmp_path: Path) -> None:
    error = error_of(tmp_path, "%import .nothere (x)\ntop: x\n")
    assert isinstance(error, FileNotFoundError) and error.filename


# ---- the Earley parser and its errors ----


def earley(path: Path) -> Lark:
    return Lark.open(
        str(path),
        start="top",
        parser="earley",
        lexer="dynamic",
        ambiguity="resolve",
        propagate_positions=True,
        keep_all_tokens=True,
        maybe_placeholders=False,
    )


def test_unexpected_characters_carry_position_allowed_and_considered_rules(
    grammar_file: Path,
) -> None:
    with pytest.raises(UnexpectedCharacters) as caught:
        earley(grammar_file).parse("abw/9")
    error = caught.value
    assert error.pos_in_stream == 4
    assert error.allowed
    names = {str(item.rule.origin.name) for item in error.considered_rules}
    assert all(isinstance(item.start, int) for item in error.considered_rules)
    # Each considered item names the terminal it expects: the adapter keeps
    # those that expect a literal the text began (an error inside it).
    assert {str(item.expect.name) for item in error.considered_rules} == set(error.allowed)
    # Helper rules for x*, x+ and [x] are named after their owner.
    helpers = [n for n in names if n.startswith("__")]
    assert helpers and all(re.match(r"^__\w+?_(star|plus|opt)_\d+$", n) for n in helpers)


def test_unexpected_eof_carries_expected_and_state(grammar_file: Path) -> None:
    with pytest.raises(UnexpectedEOF) as caught:
        earley(grammar_file).parse("ab")
    error = caught.value
    assert error.expected
    assert all(isinstance(ptr, int) for _rule, ptr in error.state)
    assert all(str(rule.origin.name) for rule, _ptr in error.state)


def test_anonymous_literal_terminals_have_a_string_pattern(grammar_file: Path) -> None:
    patterns = [t.pattern for t in earley(grammar_file).terminals]
    assert any(isinstance(p, PatternStr) and p.value == "ab" and "i" in p.flags for p in patterns)


def test_parse_trees_carry_positions_and_tokens(grammar_file: Path) -> None:
    tree = earley(grammar_file).parse("abw/w")
    word = next(tree.find_data("word"))
    assert (word.meta.start_pos, word.meta.end_pos, word.meta.empty) == (2, 3, False)
    tokens = [t for t in tree.scan_values(lambda v: isinstance(v, Token))]
    assert tokens[-1].end_pos == 5


def test_the_oracle_gives_each_owner_its_own_repetition_helper() -> None:
    """The test oracle (tests/grammar/oracle.py) rewrites ``EBNF_to_BNF._add_recurse_rule``.

    Lark shares one helper rule among identical repetitions; the oracle keys
    its cache by owner too, through ``_name_rule``, ``_add_rule``,
    ``rules_cache``, ``prefix``, ``ST`` and ``NonTerminal`` of
    ``lark.load_grammar``. Those are Lark internals: this pins them, on the
    oldest and the newest Lark allowed.
    """
    from tests.grammar.oracle import _one_helper_per_owner

    grammar = 'start: a b\na: X*\nb: X*\nX: "x"\n'

    def helpers(parser: Lark) -> set[str]:
        return {str(r.origin.name) for r in parser.rules if str(r.origin.name).startswith("__")}

    assert len(helpers(Lark(grammar, parser="earley"))) == 1
    with _one_helper_per_owner():
        owned = helpers(Lark(grammar, parser="earley"))
    assert len(owned) == 2
    assert {name.split("_star")[0].strip("_") for name in owned} == {"a", "b"}


def test_the_earley_parser_makes_its_sets_and_matches_through_two_attributes(
    grammar_file: Path,
) -> None:
    """The adapter counts Earley's work by replacing, on ``Lark.parser.parser``,
    ``Set`` (the class of its item sets: made, added to, looped over) and
    ``term_matcher`` (called with the position of each terminal tried)."""
    parser = earley(grammar_file)
    inner = parser.parser.parser
    made: list[object] = []
    positions: list[int] = []
    real_set, real_match = inner.Set, inner.term_matcher

    class Counted(real_set):  # type: ignore[misc, valid-type]
        def __init__(self, items: object = ()) -> None:
            super().__init__(items)
            made.append(self)

    def matcher(term: object, text: str, index: int = 0) -> object:
        positions.append(index)
        return real_match(term, text, index)

    inner.Set, inner.term_matcher = Counted, matcher
    tree = parser.parse("abw/w")
    assert made and set(positions) <= set(range(5)) and max(positions) == 4
    assert tree == earley(grammar_file).parse("abw/w")
    # What the adapter's own set class must answer: Lark's uses of its sets.
    used = {"add", "__iter__", "__contains__", "__bool__"}
    assert used <= set(dir(real_set))
