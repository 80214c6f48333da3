"""The grammar with its URL classes: what :func:`rfc1738.load` returns.

:class:`Grammar` is a :class:`~rfc1738.runtime.dispatch.ParserSet` whose matches
become the classes of this package: :data:`CLASSES` by grammar file name,
:class:`GenericURL` for the rest. Every object remembers the grammar that
parsed it, and re-reads by it in ``normalize()`` and ``replace()``.
"""

from __future__ import annotations

import os

# _thread's RLock is threading's, without importing threading at start-up.
from _thread import RLock
from collections.abc import Callable, Hashable, Mapping
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..bnf.files import GENERIC
from ..errors import MAX_REFERENCE_LENGTH
from ..runtime.dispatch import ParserName, ParserSet, set_default_parsers
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


class Grammar(ParserSet):
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
        super().__init__(
            directory,
            classes,
            known=CLASSES,
            generic=GenericURL,
            max_reference_length=max_reference_length,
        )
        # The schemes whose class has been checked (see url_class).
        self._checked: set[str] = set()
        check_given(self, classes or {})
        self._arguments = (
            None if directory is None else os.fspath(directory),
            tuple(sorted((classes or {}).items())),
            max_reference_length,
        )

    if TYPE_CHECKING:
        # ParserSet.parse, typed: at run time the call goes straight to it.
        def parse(
            self, text: str, *, parser: ParserName = "fast", host_checks: bool = True
        ) -> URL: ...

    def url_class(self, scheme: str) -> type[URL]:
        """The class URLs of ``scheme`` (a grammar file's name) become.

        Checked the first time (:func:`~rfc1738.urls.checks.check_chosen`),
        before any object of the scheme is built: a :class:`~rfc1738.GrammarError`
        if it does not fit the grammar.
        """
        cls: type[URL] = super().url_class(scheme)
        if scheme not in self._checked:
            # Checked before it is marked: a thread that finds it unmarked checks it too.
            if scheme == GENERIC:
                check_generic(self)
            check_chosen(self, scheme, cls, given=scheme in self._classes)
            self._checked.add(scheme)
        return cls

    def __reduce__(self) -> tuple[Any, ...]:
        # An object pickles with its grammar: the arguments it was loaded with,
        # so that unpickling loads (once per process) the same grammar again.
        return (_loaded, self._arguments)


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


set_default_parsers(shipped)
