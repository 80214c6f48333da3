"""A grammar directory and the parsers generated from it.

:class:`ParserSet` dispatches a URL to its scheme's file, compiles or loads
that file's parsers on first use (one per scheme, never all at once), and
reports errors. Which object a match becomes is not its business: the URL
layer hands it the classes (:class:`ObjectBuilder`), and
:class:`rfc1738.Grammar` is the :class:`ParserSet` with RFC 1738's classes.
"""

from __future__ import annotations

import os
import re

# _thread's RLock is what threading.RLock gives; importing threading would
# add half a millisecond to `import rfc1738` (docs/architecture.md, "Start-up").
from _thread import RLock
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ..bnf.files import GENERIC, SchemeFile, scheme_files, shipped_grammar_dir
from ..bnf.names import base_name
from ..errors import MAX_REFERENCE_LENGTH, GrammarError, InputTooLongError, URLSyntaxError
from .automaton import ErrorAutomaton
from .charsets import GrammarFacts
from .engines import Runner, expression_runner, spans_runner
from .explain import (
    GENERIC_READS,
    Details,
    details_of,
    escape_start,
    explained_characters,
    explained_scheme,
)
from .facts import SCHEME_FACTS
from .fast import FastParser, longest_viable_prefix
from .hosts import CHECKED_PRODUCTIONS
from .linear import LinearMatcher
from .possessive import compile_expression
from .spans import Spans, spans_from_regs, spans_from_tree
from .store import TableStore
from .tables import SchemeTable, TableFile

if TYPE_CHECKING:
    # Lark is imported when a grammar is first compiled or parsed with Earley,
    # not by `import rfc1738`.
    from ..bnf.adapter import ParseTree
    from ..bnf.inspection import RuleInfo
    from ..bnf.lint import LintProblem
    from ..compile.pipeline import CompiledFile
    from .reference import ReferenceParser

__all__ = [
    "ObjectBuilder",
    "ParserName",
    "ParserSet",
    "default_parsers",
    "set_default_parsers",
]

#: Which parser builds the object: the compiled expressions or Lark Earley.
ParserName = Literal["fast", "reference"]


class ObjectBuilder(Protocol):
    """What a match becomes: a URL class, as the parsers see it.

    ``PRODUCTIONS`` names the productions whose spans it reads;
    ``from_spans`` builds the object from the text and those spans, and
    ``builder`` gives the fast parser's builder from a match.
    The :class:`ParserSet` that parsed the text is passed along as
    ``grammar``, so that the object can escape and re-parse by the same
    grammar.
    """

    @property
    def PRODUCTIONS(self) -> frozenset[str]:
        """The productions whose spans :meth:`from_spans` reads."""
        ...

    def from_spans(
        self, text: str, spans: Spans, *, host_checks: bool = True, grammar: Any = None
    ) -> Any:
        """The object for ``text``."""
        ...

    def builder(
        self, groups: tuple[tuple[str, tuple[int, ...]], ...], grammar: Any
    ) -> Callable[[str, re.Match[str], bool], Any]:
        """``build(text, match, host_checks)`` for matches with these groups."""
        ...


class ParserSet:
    """The grammar files of one directory, and the parsers made from them.

    ``known`` maps a scheme (a grammar file's name) to the builder its URLs
    become when the file defines every production the builder reads;
    ``classes`` maps schemes to builders that are used whatever the file
    defines; ``generic`` serves the rest. ``max_reference_length`` bounds
    the input of the Earley parser (a heavily ambiguous grammar may want a
    lower bound than RFC 1738's).

    Any number of threads may share one. What it builds on first use (a
    scheme's compiled table, fast parser, runner, error automaton) is built
    once, under a lock of its own taken only on a miss. Under it, of this
    package's locks, only its :class:`~rfc1738.runtime.store.TableStore`'s is
    taken, which takes none: no two locks are ever waited for in opposite
    orders. The hot path reads what was built without a lock.
    """

    def __init__(
        self,
        directory: str | os.PathLike[str] | None,
        classes: Mapping[str, ObjectBuilder] | None,
        *,
        known: Mapping[str, ObjectBuilder],
        generic: ObjectBuilder,
        max_reference_length: int = MAX_REFERENCE_LENGTH,
    ) -> None:
        self.directory = Path(directory) if directory is not None else shipped_grammar_dir()
        if not self.directory.is_dir():
            raise GrammarError(f"no grammar directory at {self.directory}")
        self.files: dict[str, SchemeFile] = scheme_files(self.directory)
        if GENERIC not in self.files:
            raise GrammarError(f"{GENERIC}.lark is missing", file=str(self.directory))
        self._classes = dict(classes or {})
        self._known = known
        self._generic = generic
        self.max_reference_length = max_reference_length
        self._reference: dict[str, ReferenceParser] = {}
        self._compiled_files: dict[str, CompiledFile] = {}
        self._fast: dict[str, FastParser] = {}
        # Per scheme (lower case), what the hot path needs, built on first use.
        self._hot: dict[str, Runner] = {}
        self._prefixes: dict[str, re.Pattern[str]] = {}
        self._characters: tuple[frozenset[str], frozenset[str]] | None = None
        # Per scheme, the error automaton, or None where the grammar has none.
        self._automata: dict[str, ErrorAutomaton | None] = {}
        # Per scheme the linear matcher serves, its matcher (see linear_matcher).
        self._matchers: dict[str, LinearMatcher] = {}
        # What explain_scheme reads of a text read as a generic URL (see _generic_reads).
        self._generic_reading: Callable[[str], Spans | None] | None = None
        # The characters a generic URL may hold (see _generic_alphabet).
        self._generic_characters: frozenset[str] | None = None
        #: The compiled tables: built into the wheel, cached on disk, or compiled here.
        self.store = TableStore(self.directory, self.compiled_file)
        if not self.store.tables.schemes:
            # Files no process has compiled (an edited grammar): read now, so that
            # one past the compiler's limits is refused here (rfc1738.compile.limits).
            from ..compile.pipeline import checked_files  # Lark: reads the grammar files

            self._compiled_files.update(checked_files(self.files))
        #: Character sets and start-rule layouts of this directory, read on first use.
        self.grammar_facts = GrammarFacts(self.directory, self.store)
        # Held while something is built on first use (see the class docstring):
        # re-entrant, as building one thing asks for others.
        self._building = RLock()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.directory)!r})"

    @property
    def schemes(self) -> frozenset[str]:
        """The schemes that have a file of their own (``generic`` excluded)."""
        return frozenset(name for name in self.files if name != GENERIC)

    # ---- which file, which class ----

    def scheme_file(self, text: str) -> SchemeFile:
        """The file a URL is parsed with: its scheme's, or ``generic.lark``.

        The scheme is what comes before the first ``:``, compared without case
        (ASCII letters only, section 2.1). ``TypeError`` if ``text`` is not a ``str``.
        """
        colon = _checked(text).find(":")
        if colon > 0:
            written = text[:colon]
            if written.isascii():
                entry = self.files.get(written.lower())
                if entry is not None:
                    return entry
        return self.files[GENERIC]

    def url_class(self, scheme: str) -> Any:
        """The class URLs of ``scheme`` (a grammar file's name) become."""
        registered = self._classes.get(scheme)
        if registered is not None:
            return registered
        shipped = self._known.get(scheme)
        # A shipped class reads the productions of the shipped grammar; a
        # grammar without them (the 1994 W3 grammar's http has no hpath) gets
        # the generic class instead of an object with its fields missing.
        if shipped is not None and self._defines(scheme, shipped.PRODUCTIONS):
            return shipped
        return self._generic

    def _defines(self, scheme: str, productions: frozenset[str]) -> bool:
        """Whether ``scheme``'s file (with its imports) defines every one of ``productions``."""
        rules = self.store.rules(scheme)
        if rules is None:
            rules = tuple(self.compiled_file(scheme).rules)
        return productions <= {base_name(name) for name in rules}

    # ---- what the objects escape and write with (rfc1738.runtime.charsets) ----

    def rule_chars(self, file: str, rule: str) -> frozenset[str]:
        """The characters that stand for themselves in ``rule`` of ``<file>.lark``.

        >>> from rfc1738 import shipped
        >>> "/" in shipped().rule_chars("http", "hsegment")
        False
        """
        return self.grammar_facts.rule_chars(file, rule)

    def terminal_chars(self, file: str, terminal: str) -> frozenset[str]:
        """The single characters terminal ``terminal`` of ``<file>.lark`` matches."""
        return self.grammar_facts.terminal_chars(file, terminal)

    # ---- the parsers, built on first use ----

    def compiled_file(self, scheme: str) -> CompiledFile:
        """One scheme's file as the compiler holds it (loaded once)."""
        loaded = self._compiled_files.get(scheme)
        if loaded is None:
            from ..compile.pipeline import CompiledFile  # Lark: only to compile

            with self._building:
                loaded = self._compiled_files.get(scheme)
                if loaded is None:
                    loaded = CompiledFile(self.files[scheme].path)
                    self._compiled_files[scheme] = loaded
        return loaded

    def reference_parser(self, scheme: str) -> ReferenceParser:
        """The Earley parser of one scheme's file."""
        parser = self._reference.get(scheme)
        if parser is None:
            from .reference import ReferenceParser  # Lark: Earley

            # Made at once (its Earley parsers are built on first use): one
            # per scheme whichever thread asks first.
            parser = self._reference.setdefault(
                scheme, ReferenceParser(self.files[scheme].path, self.max_reference_length)
            )
        return parser

    def compiled(self, scheme: str) -> SchemeTable:
        """One scheme's compiled table, with the groups its class and the host checks read."""
        with self._building:
            cls = self.url_class(scheme)
            productions = cls.PRODUCTIONS | CHECKED_PRODUCTIONS
            layout_fields = cls.layout_fields() if hasattr(cls, "layout_fields") else ()
            return self.store.scheme(scheme, self.files[scheme].start, productions, layout_fields)

    def fast_parser(self, scheme: str) -> FastParser:
        """The compiled expression of one scheme's start rule.

        Raises :class:`~rfc1738.compile.pipeline.NotRegularError` if the
        scheme's grammar refers back to itself.
        """
        parser = self._fast.get(scheme)
        if parser is not None:
            return parser
        with self._building:
            parser = self._fast.get(scheme)
            if parser is not None:
                return parser
            table = self.compiled(scheme)
            if table.expression is None:
                # Lark: a grammar that is not regular
                from ..compile.pipeline import NotRegularError

                raise NotRegularError(table.problem or "", file=str(self.files[scheme].path))
            productions = self.url_class(scheme).PRODUCTIONS
            parser = FastParser(
                TableFile(table),  # type: ignore[arg-type]  # a CompiledFile's compile()
                table.start,
                productions,
                CHECKED_PRODUCTIONS,
            )
            self._fast[scheme] = parser
        return parser

    def linear_matcher(self, scheme: str) -> LinearMatcher | None:
        """The linear matcher of one scheme, where it serves the scheme (else ``None``).

        The compiler gives a scheme one where its expression may backtrack
        (:mod:`rfc1738.runtime.linear`); the shipped grammar's schemes have none.
        """
        found = self._matchers.get(scheme)
        if found is None:
            data = self.compiled(scheme).matcher
            if data is None:
                return None
            found = self._matchers[scheme] = LinearMatcher.from_data(data)
        return found

    # ---- parsing ----

    def parse_tree(self, text: str) -> ParseTree:
        """The full Earley parse tree of ``text`` under its scheme's production.

        Raises :class:`~rfc1738.URLSyntaxError` if ``text`` does not match it,
        and :class:`TypeError` if ``text`` is not a ``str``.
        """
        entry = self.scheme_file(_checked(text))
        try:
            return self.reference_parser(entry.scheme).parse(text, entry.start)
        except InputTooLongError:
            raise
        except URLSyntaxError as error:
            # The details come from the automaton where there is one, so that
            # both parsers report an error alike (docs/parsers.md, "Errors").
            raise self._explained(self._automaton_error(text, entry) or error, entry) from None

    def parse(self, text: str, *, parser: ParserName = "fast", host_checks: bool = True) -> Any:
        """The typed object for a URL, or :class:`~rfc1738.URLSyntaxError`.

        ``parser="reference"`` builds it from the Earley parse tree instead
        of the compiled expression (the same object, slower); ``host_checks``
        turns off the checks beyond the grammar (label and name lengths,
        hostnumber parts, port range).
        """
        if parser == "fast":
            # The hot path: one dictionary look-up by the scheme as written,
            # then the scheme's runner: one match, the host checks on the
            # match's groups, and an object that reads its fields from the
            # match when asked.
            hot = None
            if text.__class__ is str:
                colon = text.find(":")
                if colon > 0:
                    hot = self._hot.get(text[:colon])
            if hot is None:
                hot = self._hot_path(_checked(text))
            url = hot.parse(text, host_checks)
            if url is not None:
                return url
            raise self._rejected(text, hot.entry)
        entry = self.scheme_file(_checked(text))
        if parser == "reference":
            cls = self.url_class(entry.scheme)
            spans = spans_from_tree(self.parse_tree(text), cls.PRODUCTIONS)
            if self._is_foreign(entry, cls):
                spans = _as_generic(text, spans)
        else:
            raise ValueError(f"parser must be 'fast' or 'reference', not {parser!r}")
        return cls.from_spans(text, spans, host_checks=host_checks, grammar=self)

    def is_valid(self, text: str, *, parser: ParserName = "fast", host_checks: bool = True) -> bool:
        """Whether :meth:`parse` would return an object for ``text``.

        The fast parser's answer builds no object: the expression and the
        host checks decide.
        """
        if parser != "fast":
            try:
                self.parse(text, parser=parser, host_checks=host_checks)
            except URLSyntaxError:
                return False
            return True
        hot = None
        if text.__class__ is str:
            colon = text.find(":")
            if colon > 0:
                hot = self._hot.get(text[:colon])
        if hot is None:
            hot = self._hot_path(_checked(text))
        return hot.valid(text) if host_checks else hot.matches(text)

    def _rejected(self, text: str, entry: SchemeFile) -> URLSyntaxError:
        """The error for a string the fast parser rejected, explained when first read.

        A method of its own, so that :meth:`parse` holds no closure: its
        variables stay plain locals on the hot path.
        """
        return URLSyntaxError.deferred(text, lambda: self._fast_error(text, entry))

    def _hot_path(self, text: str) -> Runner:
        """What :meth:`parse` and :meth:`is_valid` need for ``text``'s scheme.

        :meth:`scheme_file` made fast: once a scheme has been seen as
        written (``HTTP``, ``http``), one dictionary look-up finds it.
        """
        colon = text.find(":")
        written = text[:colon]
        known = colon > 0 and written.isascii()
        key = written.lower() if known else GENERIC
        hot = self._hot.get(key)
        if hot is None:
            hot = self._scheme_hot_path(key if key in self.files else GENERIC)
        if known and len(self._hot) < _MAX_WRITTEN_SCHEMES:
            self._hot[written] = hot
        return hot

    # ---- inspection (rfc1738.bnf.inspection, .lint, .diagrams) ----

    def rules(self) -> list[RuleInfo]:
        """Every rule and terminal: file, line, BNF line, Lark source, uses, used by."""
        from ..bnf.inspection import rules  # Lark: reads the grammar files

        return rules(self)

    def rule(self, name: str) -> RuleInfo:
        """One rule or terminal, by its Lark name or its BNF name (``ip-schemepart``)."""
        from ..bnf.inspection import rule  # Lark: reads the grammar files

        return rule(self, name)

    def lint(self) -> list[LintProblem]:
        """Problems of this grammar directory (see :func:`rfc1738.bnf.lint.lint`)."""
        from ..bnf.lint import lint  # Lark: reads the grammar files

        return lint(self)

    def diagram(self, name: str, *, href: str = "#{anchor}") -> str:
        """The railroad diagram of one rule, as SVG (needs ``rfc1738[diagrams]``)."""
        from ..bnf.diagrams import rule_svg  # Lark, and the diagrams extra

        return rule_svg(self, name, href=href)

    def diagrams_html(self, *, title: str | None = None) -> str:
        """One self-contained HTML page with the diagram of every rule."""
        from ..bnf.diagrams import grammar_html  # Lark, and the diagrams extra

        return grammar_html(self, title=title)

    def write_diagrams(
        self, out_dir: str | os.PathLike[str], rules: Collection[str] | None = None
    ) -> list[Path]:
        """Write ``<rule>.svg`` for each rule (all by default) and ``index.html``."""
        from ..bnf.diagrams import write_diagrams  # Lark, and the diagrams extra

        return write_diagrams(self, out_dir, rules)

    # ---- errors ----

    def _scheme_hot_path(self, scheme: str) -> Runner:
        hot = self._hot.get(scheme)
        if hot is None:
            with self._building:
                hot = self._hot.get(scheme)
                if hot is None:
                    hot = self._hot[scheme] = self._new_hot_path(self.files[scheme])
        return hot

    def _new_hot_path(self, entry: SchemeFile) -> Runner:
        cls = self.url_class(entry.scheme)
        if self.compiled(entry.scheme).expression is None:
            # A grammar that refers back to itself has no regular expression;
            # the reference parser serves that scheme, within its bound.
            match = self._reference_match(entry, cls.PRODUCTIONS | CHECKED_PRODUCTIONS)
            if self._is_foreign(entry, cls):
                match = _completed_for_generic(match)
            return spans_runner(entry, cls, match, match, self)
        matcher = self.linear_matcher(entry.scheme)
        if matcher is not None:
            # An expression that may backtrack: the linear matcher serves the scheme.
            read: Callable[[str], Spans | None] = matcher.spans
            if self._is_foreign(entry, cls):
                read = _completed_for_generic(read)
            return spans_runner(entry, cls, read, read, self, matcher.matches)
        fast = self.fast_parser(entry.scheme)
        if self._is_foreign(entry, cls):
            # A new scheme's file without a class of its own: its spans are
            # completed for the generic class, off the hot path.
            spans = _completed_for_generic(fast.spans)
            return spans_runner(entry, cls, spans, fast.checked_spans, self)
        build = cls.builder(fast.fields, self)
        return expression_runner(
            entry,
            cls,
            fast.pattern.fullmatch,
            build,
            fast.checked,
            fast.spans,
            fast.checked_spans,
        )

    def _reference_match(
        self, entry: SchemeFile, productions: frozenset[str]
    ) -> Callable[[str], Spans | None]:
        def match(text: str) -> Spans | None:
            try:
                tree = self.reference_parser(entry.scheme).parse(text, entry.start)
            except URLSyntaxError:
                return None
            return spans_from_tree(tree, productions)

        return match

    def _is_foreign(self, entry: SchemeFile, cls: ObjectBuilder) -> bool:
        """Whether the generic class is fed by a production other than ``genericurl``.

        So it is for a new scheme file with no class of its own, and for a
        grammar whose generic production is not RFC 1738's.
        """
        generic = self._generic
        return cls is generic and not self._defines(entry.scheme, generic.PRODUCTIONS)

    def _fast_error(self, text: str, entry: SchemeFile) -> URLSyntaxError:
        """The error for a string the fast parser rejected, as exact as the reference's.

        From the error automaton where the grammar has one; otherwise from
        Earley, or beyond its bound from the prefix search.
        """
        found = self._automaton_rejection(text, entry)
        if found is not None:
            return found
        try:
            self.reference_parser(entry.scheme).parse(text, entry.start)
        except InputTooLongError as too_long:
            error = self._prefix_error(text, entry)
            return too_long if error is None else self._explained(error, entry)
        except URLSyntaxError as error:
            return self._explained(error, entry)
        raise AssertionError(  # pragma: no cover - the equivalence tests guard this
            f"the fast parser rejected {text!r}, which the reference parser accepts"
        )

    def error_automaton(self, scheme: str) -> ErrorAutomaton | None:
        """The error automaton of one scheme's start rule (``None`` if the grammar has none).

        Built from the compiled IR on first use, unless :meth:`load_error_data`
        gave it. A grammar that is not regular, or has a token the automaton
        cannot mirror Earley on, has none: Earley explains its errors.
        """
        if scheme in self._automata:
            return self._automata[scheme]
        with self._building:
            if scheme in self._automata:
                return self._automata[scheme]
            data = self.compiled(scheme).automaton
            if data is not None:
                automaton: ErrorAutomaton | None = ErrorAutomaton.from_data(data)
            else:
                try:
                    # Not regular or a token the automaton cannot mirror: None.
                    file = self.compiled_file(scheme)
                    automaton = file.error_automaton(self.files[scheme].start)
                except GrammarError:
                    # No compiler (a standalone module): Earley or the prefixes explain.
                    automaton = None
            self._automata[scheme] = automaton
            return automaton

    def error_data(self) -> dict[str, Any]:
        """Everything errors need, for every scheme, as plain Python literals.

        :meth:`load_error_data` takes it back; written into a module (with
        the wheel, for the shipped grammar), it lets errors be explained
        without Lark.
        """
        raw, hexes = self._raw_characters()
        automata = {scheme: self.error_automaton(scheme) for scheme in sorted(self.files)}
        return {
            "characters": ("".join(sorted(raw)), "".join(sorted(hexes))),
            "automata": {s: a.to_data() for s, a in automata.items() if a is not None},
        }

    def load_error_data(self, data: Mapping[str, Any]) -> None:
        """Use what :meth:`error_data` wrote (for this grammar directory) instead of building it."""
        raw, hexes = data["characters"]
        self._characters = (frozenset(raw), frozenset(hexes))
        for scheme, table in data["automata"].items():
            self._automata[scheme] = ErrorAutomaton.from_data(table)

    def _automaton_rejection(self, text: str, entry: SchemeFile) -> URLSyntaxError | None:
        """The explained error for ``text`` where the scheme's automaton rejects it, else ``None``.

        ``None`` also where the grammar has no automaton. The automaton
        rejects what the compiled expression rejects (the tests hold them to
        each other), so a rejection here is the error :meth:`parse` raises.
        """
        automaton = self._automata.get(entry.scheme)
        if automaton is None:  # not loaded yet, or none
            automaton = self.error_automaton(entry.scheme)
            if automaton is None:
                return None
        found = automaton.error(text)
        if found is None:
            return None
        # Explained on its details: one error made, not one per step.
        return URLSyntaxError._of(text, self._explained_details(text, found, entry))

    def _automaton_error(self, text: str, entry: SchemeFile) -> URLSyntaxError | None:
        found = self._automaton_details(text, entry)
        return URLSyntaxError(text, *found) if found is not None else None

    def _automaton_details(self, text: str, entry: SchemeFile) -> Details | None:
        automaton = self.error_automaton(entry.scheme)
        # Its reason is None (the default wording) or a sentence, as URLSyntaxError keeps it.
        return automaton.error(text) if automaton is not None else None

    def _prefix_error(self, text: str, entry: SchemeFile) -> URLSyntaxError | None:
        """The error for a string too long for Earley: where its longest viable prefix ends.

        A prefix is viable if some URL of the production begins with it. The
        scheme's linear matcher, where it has one, reads the text once to
        where it stops fitting; otherwise, as the prefixes of a viable prefix
        are viable too, a binary search over lengths finds the position in a
        logarithmic number of matches of the prefix expression. What was
        expected there is not computed (``expected`` is empty); the
        production named is the start rule. ``None`` for a grammar that is
        not regular: it has no prefix expression.
        """
        matcher = self.linear_matcher(entry.scheme)
        if matcher is not None:  # in linear time, whatever the grammar
            return URLSyntaxError(text, matcher.viable_prefix(text), frozenset(), entry.start)
        pattern = self._prefixes.get(entry.scheme)
        if pattern is None:
            source = self.compiled(entry.scheme).prefixes
            if source is None:
                return None
            # A pure value: a thread that compiles it at the same time keeps its own.
            pattern = self._prefixes.setdefault(entry.scheme, compile_expression(source))
        return URLSyntaxError(text, longest_viable_prefix(pattern, text), frozenset(), entry.start)

    def _explained(self, error: URLSyntaxError, entry: SchemeFile) -> URLSyntaxError:
        before = details_of(error)
        after = self._explained_details(error.text, before, entry)
        return error if after is before else URLSyntaxError._of(error.text, after)

    def _explained_details(self, text: str, details: Details, entry: SchemeFile) -> Details:
        """An error's details in RFC terms (:mod:`.diagnosis`): the same object if unchanged."""
        raw, hexes = self._characters or self._raw_characters()
        details = explained_characters(text, escape_start(text, details, hexes), raw, hexes)
        if entry.scheme == GENERIC:
            return details
        position = details[0]
        alphabet = self._generic_characters
        if alphabet is None:
            alphabet = self._generic_alphabet()
        if alphabet and position < len(text) and text[position] not in alphabet:
            # No generic URL holds that character: explained_scheme has nothing
            # to say, and the generic expression need not be matched to know it.
            return details
        facts = SCHEME_FACTS.get(entry.scheme)
        return explained_scheme(
            text,
            details,
            entry.start,
            facts.section if facts else None,
            facts.login if facts else True,
            (self._generic_reading or self._generic_reader())(text),
        )

    def _generic_alphabet(self) -> frozenset[str]:
        """The characters a generic URL may hold (its automaton's); empty: unknown, no automaton."""
        data = None if GENERIC in self._automata else self.compiled(GENERIC).automaton
        if data is not None:  # its tables, not loaded yet: read them without loading
            alphabet = ErrorAutomaton.data_alphabet(data)
        else:
            automaton = self.error_automaton(GENERIC)
            alphabet = frozenset() if automaton is None else automaton.alphabet()
        self._generic_characters = alphabet
        return alphabet

    def _generic_reads(self, text: str) -> Spans | None:
        """The spans of the productions :func:`~.diagnosis.explained_scheme` reads
        (:data:`~.diagnosis.GENERIC_READS`) where ``text`` is a generic URL, else ``None``."""
        return (self._generic_reading or self._generic_reader())(text)

    def _generic_reader(self) -> Callable[[str], Spans | None]:
        """What :meth:`_generic_reads` calls, made on first use.

        Those of the generic file's compiled expression where the generic class
        reads its spans from it (only those: fewer, so faster); otherwise all
        the spans the generic scheme's runner gives.
        """
        runner = self._scheme_hot_path(GENERIC)
        reading = runner.spans
        if runner.fullmatch is not None:
            fast = self.fast_parser(GENERIC)
            if runner.spans == fast.spans:
                fullmatch = runner.fullmatch
                fields = tuple(field for field in fast.fields if field[0] in GENERIC_READS)

                def read(text: str) -> Spans | None:
                    match = fullmatch(text)
                    return None if match is None else spans_from_regs(match.regs, fields)

                reading = read
        self._generic_reading = reading
        return reading

    def _raw_characters(self) -> tuple[frozenset[str], frozenset[str]]:
        """The characters any URL may hold as themselves, and the hex digits."""
        if self._characters is None:
            with self._building:
                if self._characters is None:
                    xchar = self.store.char_set("common", "terminal", "XCHAR")
                    hexes = self.store.char_set("common", "terminal", "HEX")
                    # A grammar without RFC 1738's XCHAR and HEX (the W3 grammar):
                    # its errors are left as the parser reported them.
                    self._characters = (xchar or frozenset(), hexes or frozenset())
        return self._characters


def _as_generic(text: str, spans: Spans) -> Spans:
    """Spans of a new scheme's production, completed for :class:`GenericURL`.

    A scheme with a file but no class of its own becomes a ``GenericURL``:
    its ``scheme`` and ``schemepart`` are what lies before and after the
    first ``:``; the login fields are filled where its production uses
    ``ip_schemepart``.
    """
    colon = text.index(":")
    spans.setdefault("scheme", (0, colon))
    spans.setdefault("schemepart", (colon + 1, len(text)))
    return spans


def _completed_for_generic(
    match: Callable[[str], Spans | None],
) -> Callable[[str], Spans | None]:
    def completed(text: str) -> Spans | None:
        spans = match(text)
        return None if spans is None else _as_generic(text, spans)

    return completed


#: How many spellings of schemes the hot path remembers (``HTTP``, ``Http``,
#: ``https``, ...): a bound, as the schemes come from the input.
_MAX_WRITTEN_SCHEMES = 256


def _checked(text: object) -> str:
    if not isinstance(text, str):
        raise TypeError(f"a URL must be a str, not {type(text).__name__}")
    return text


# ---- the default grammar ----

_default_factory: Callable[[], ParserSet] | None = None


def set_default_parsers(factory: Callable[[], ParserSet]) -> None:
    """Say how to get the grammar that objects with no grammar of their own re-read by.

    The URL layer registers the shipped grammar here when it is imported: a
    URL object built by hand (not by a parser) reaches it through this layer
    instead of importing the layers above.
    """
    global _default_factory
    _default_factory = factory


def default_parsers() -> ParserSet:
    """The grammar registered with :func:`set_default_parsers` (the shipped one)."""
    if _default_factory is None:  # pragma: no cover - rfc1738.urls registers it on import
        raise GrammarError("no default grammar is registered (import rfc1738.urls)")
    return _default_factory()
