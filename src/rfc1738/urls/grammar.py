"""The grammar with its URL classes: what :func:`rfc1738.load` returns.

:class:`Grammar` holds a :class:`~rfc1738.runtime.dispatch.Dispatch` whose
matches become the classes of this package: :data:`CLASSES` by grammar file
name, :class:`GenericURL` for the rest. Every object remembers the grammar
that parsed it, and re-reads by it in ``normalize()`` and ``replace()``.
What a grammar directory says of itself (its rules, lint, diagrams) is
reached through it too, from :mod:`rfc1738.bnf`.
"""

from __future__ import annotations

import os

# _thread's RLock is threading's, without importing threading at start-up.
from _thread import RLock
from collections.abc import Callable, Collection, Hashable, Mapping
from functools import cache, partial
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..bnf.files import GENERIC, SchemeFile
from ..errors import MAX_REFERENCE_LENGTH, URLSyntaxError
from ..runtime.dispatch import Dispatch, ParserName, set_default_grammar
from ..runtime.engines import Engine
from .base import URL
from .checks import check_chosen, check_generic, check_given
from .file import FileURL
from .ftp import FtpURL
from .generic import GenericURL
from .gopher import GopherURL
from .http import HttpURL
from .mailto import MailtoURL
from .news import NewsURL
from .nntp import NntpURL
from .prospero import ProsperoURL
from .telnet import TelnetURL
from .wais import WaisURL

if TYPE_CHECKING:
    # Lark is imported when a grammar is first parsed with Earley or inspected.
    from ..bnf.adapter import ParseTree
    from ..bnf.inspection import RuleInfo
    from ..bnf.lint import LintProblem

__all__ = ["CLASSES", "Grammar", "load", "shipped"]

#: The class of each grammar file's URLs, by file name (``"generic"`` for the rest).
CLASSES: Mapping[str, type[URL]] = MappingProxyType(
    {
        cls.SCHEME: cls
        for cls in (
            HttpURL,
            FtpURL,
            FileURL,
            GopherURL,
            MailtoURL,
            NewsURL,
            NntpURL,
            TelnetURL,
            WaisURL,
            ProsperoURL,
            GenericURL,
        )
    }
)


class Grammar:
    """The grammar files of one directory, the parsers made from them, and the URL classes.

    ``classes`` maps a scheme (a grammar file's name) to the :class:`URL`
    subclass its URLs become; schemes it does not name become the shipped
    class of that name (where the file defines the productions it reads), or
    :class:`GenericURL`. ``max_reference_length`` bounds the input of the
    Earley parser (a heavily ambiguous grammar may want a lower bound than
    RFC 1738's). The classes given are checked against the grammar at once,
    and the class each scheme's URLs become when it is first chosen
    (:mod:`rfc1738.urls.checks`): :class:`~rfc1738.GrammarError` says what
    does not fit.

    Any number of threads may share one (see
    :class:`~rfc1738.runtime.dispatch.Dispatch`).

    >>> g = Grammar()
    >>> g.parse("news:comp.lang.python").group
    'comp.lang.python'
    >>> g.parse_tree("news:comp.lang.python").data
    Token('RULE', 'newsurl')
    """

    def __init__(
        self,
        directory: str | os.PathLike[str] | None = None,
        classes: Mapping[str, type[URL]] | None = None,
        *,
        max_reference_length: int = MAX_REFERENCE_LENGTH,
    ) -> None:
        #: Which file reads a URL, and each scheme's engine.
        self.dispatch = Dispatch(
            directory,
            classes,
            known=CLASSES,
            generic=GenericURL,
            grammar=self,
            check=partial(_check_class, self),
            max_reference_length=max_reference_length,
        )
        #: The directory of the grammar files.
        self.directory: Path = self.dispatch.directory
        #: The grammar file of each scheme, by scheme (``generic`` for the rest).
        self.files: dict[str, SchemeFile] = self.dispatch.files
        #: The longest input the Earley parser takes.
        self.max_reference_length = max_reference_length
        #: The compiled tables, and what the objects read of the grammar files.
        self.tables = self.dispatch.tables
        # The dispatch's engines by scheme as written: what the hot path reads.
        self._engines = self.dispatch.engines
        self._explainer = self.dispatch.explainer
        check_given(self, classes or {})
        self._arguments = (
            None if directory is None else os.fspath(directory),
            tuple(sorted((classes or {}).items())),
            max_reference_length,
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.directory)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # An object pickles with its grammar: the arguments it was loaded with,
        # so that unpickling loads (once per process) the same grammar again.
        return (_loaded, self._arguments)

    @property
    def schemes(self) -> frozenset[str]:
        """The schemes that have a file of their own (``generic`` excluded)."""
        return self.dispatch.schemes

    # ---- parsing ----

    def parse(self, text: str, *, parser: ParserName = "fast", host_checks: bool = True) -> URL:
        """The typed object for a URL, or :class:`~rfc1738.URLSyntaxError`.

        ``parser="reference"`` builds it from the Earley parse tree instead
        of the compiled expression (the same object, slower); ``host_checks``
        turns off the checks beyond the grammar (label and name lengths,
        hostnumber parts, port range).
        """
        if parser == "fast":
            # The hot path: one dictionary look-up by the scheme as written,
            # then the scheme's engine: one match, the host checks on the
            # match's groups, and an object that reads its fields from the
            # match when asked.
            engine = None
            if text.__class__ is str:
                colon = text.find(":")
                if colon > 0:
                    engine = self._engines.get(text[:colon])
            if engine is None:
                engine = self.dispatch.engine_for(text)
            url: URL | None = engine.parse(text, host_checks)
            if url is not None:
                return url
            raise self._explainer.deferred(text, engine.entry)
        by_earley: URL = self.dispatch.parse_by(text, parser, host_checks)
        return by_earley

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
        engine = None
        if text.__class__ is str:
            colon = text.find(":")
            if colon > 0:
                engine = self._engines.get(text[:colon])
        if engine is None:
            engine = self.dispatch.engine_for(text)
        return engine.valid(text) if host_checks else engine.matches(text)

    def parse_tree(self, text: str) -> ParseTree:
        """The full Earley parse tree of ``text`` under its scheme's production.

        Raises :class:`~rfc1738.URLSyntaxError` if ``text`` does not match it,
        and :class:`TypeError` if ``text`` is not a ``str``.
        """
        return self.dispatch.parse_tree(text)

    def scheme_file(self, text: str) -> SchemeFile:
        """The file a URL is parsed with: its scheme's, or ``generic.lark``.

        The scheme is what comes before the first ``:``, compared without case
        (ASCII letters only, section 2.1). ``TypeError`` if ``text`` is not a ``str``.
        """
        return self.dispatch.scheme_file(text)

    def url_class(self, scheme: str) -> type[URL]:
        """The class URLs of ``scheme`` (a grammar file's name) become.

        Checked the first time (:func:`~rfc1738.urls.checks.check_chosen`),
        before any object of the scheme is built: a :class:`~rfc1738.GrammarError`
        if it does not fit the grammar.
        """
        cls: type[URL] = self.dispatch.url_class(scheme)
        return cls

    def engine(self, scheme: str) -> Engine:
        """The engine of one scheme (a grammar file's name): its expression, fields, matcher."""
        return self.dispatch.engine(scheme)

    # ---- what the grammar files say (rfc1738.bnf.inspection, .lint, .diagrams) ----

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

    # ---- what the objects escape and write with ----

    def rule_chars(self, file: str, rule: str) -> frozenset[str]:
        """The characters that stand for themselves in ``rule`` of ``<file>.lark``.

        >>> from rfc1738 import shipped
        >>> "/" in shipped().rule_chars("http", "hsegment")
        False
        """
        return self.tables.rule_chars(file, rule)

    def terminal_chars(self, file: str, terminal: str) -> frozenset[str]:
        """The single characters terminal ``terminal`` of ``<file>.lark`` matches."""
        return self.tables.terminal_chars(file, terminal)


def _check_class(grammar: Grammar, scheme: str, cls: type[URL], given: bool) -> None:
    """Check the class ``scheme``'s URLs become, when it is first chosen (:mod:`.checks`)."""
    if scheme == GENERIC:
        check_generic(grammar)
    check_chosen(grammar, scheme, cls, given=given)


def load(
    grammar_dir: str | os.PathLike[str] | None = None,
    classes: Mapping[str, type[URL]] | None = None,
    *,
    max_reference_length: int = MAX_REFERENCE_LENGTH,
) -> Grammar:
    """The grammar set of a directory (the shipped grammar when ``None``).

    A ``<scheme>.lark`` file in the directory makes ``<scheme>:`` URLs parse
    under its start rule ``<scheme>url``; ``classes`` says which
    :class:`URL` subclass they become (:class:`GenericURL` otherwise);
    ``max_reference_length`` bounds what the Earley parser accepts.
    """
    if grammar_dir is None and not classes and max_reference_length == MAX_REFERENCE_LENGTH:
        return shipped()
    return Grammar(grammar_dir, classes, max_reference_length=max_reference_length)


@cache
def shipped() -> Grammar:
    """The grammar shipped with the package, built once per process."""
    return _once(None, Grammar)


@cache
def _loaded(
    directory: str | None,
    classes: tuple[tuple[str, type[URL]], ...],
    max_reference_length: int,
) -> Grammar:
    """The grammar an unpickled object was parsed with, loaded once per process."""
    return _once(
        (directory, classes, max_reference_length),
        lambda: load(directory, dict(classes), max_reference_length=max_reference_length),
    )


# functools.cache runs a function again for a thread that calls it while
# another is still in it: the grammars both threads are given are made here,
# one per key, under a lock that nothing else is waited for under (making a
# Grammar takes none).
_made: dict[Hashable, Grammar] = {}
_making = RLock()


def _once(key: Hashable, make: Callable[[], Grammar]) -> Grammar:
    """The grammar made for ``key``: by ``make``, the first time it is asked for."""
    with _making:
        found = _made.get(key)
        if found is None:
            found = _made[key] = make()
        return found


set_default_grammar(shipped)
