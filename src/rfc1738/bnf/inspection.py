"""The rules of a grammar directory, one at a time or all, and what is wrong with them.

:func:`rules` lists every rule and terminal with the file and line that
define it, the source BNF line above it, its Lark source, what it uses and
what uses it; :mod:`rfc1738.bnf.lint` reports what is wrong with them.

Each function takes a :class:`~rfc1738.Grammar` (or anything with its
``directory``), or the path of a grammar directory.

>>> from rfc1738.bnf.inspection import rule
>>> info = rule(None, "hostport")
>>> info.file.name, info.line, info.bnf
('common.lark', 15, ('hostport       = host [ ":" port ]',))
>>> info.uses, info.used_by[:3]
(('host', 'port'), ('login', 'gopherurl', 'httpurl'))
"""

from __future__ import annotations

import difflib
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..errors import GrammarError
from .blocks import BNF_PREFIX, bnf_name
from .files import GrammarDirectory, shipped_grammar_dir
from .index import Definition, GrammarIndex, Kind

__all__ = [
    "RuleInfo",
    "bnf_mentions",
    "grammar_directory",
    "rule",
    "rule_infos",
    "rules",
]


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """One rule or terminal of a grammar directory, as written and as used."""

    name: str
    kind: Kind
    #: The file that defines it (not the files that import it).
    file: Path
    #: 1-based line of its definition.
    line: int
    #: The ``// BNF:`` lines above it, without the prefix; empty if none.
    bnf: tuple[str, ...]
    #: The other comment lines directly above it (``// DEVIATION: ...``).
    comments: tuple[str, ...]
    #: Its Lark definition as written, continuation lines included.
    source: str
    #: The names it refers to, in order, each once.
    uses: tuple[str, ...]
    #: The names of the rules and terminals that refer to it.
    used_by: tuple[str, ...]
    #: The name its BNF line gives it (``ip-schemepart``, ``gopher+_string``).
    rfc_name: str | None

    def __str__(self) -> str:
        where = f"{self.file.name}:{self.line}"
        lines = [f"{self.name} ({self.kind}, {where})"]
        lines += [f"  {BNF_PREFIX} {line}" for line in self.bnf]
        lines += [f"  {comment}" for comment in self.comments]
        lines += ["  " + line for line in self.source.splitlines()]
        lines.append(f"  uses: {', '.join(self.uses) or '-'}")
        lines.append(f"  used by: {', '.join(self.used_by) or '-'}")
        return "\n".join(lines)


def grammar_directory(grammar: GrammarDirectory | str | os.PathLike[str] | None) -> Path:
    """The directory of a :class:`Grammar`, a path, or the shipped grammar for ``None``."""
    if grammar is None:
        return shipped_grammar_dir()
    directory = getattr(grammar, "directory", None)
    if isinstance(directory, Path):
        return directory
    return Path(os.fspath(grammar))  # type: ignore[arg-type]


def rules(grammar: GrammarDirectory | str | os.PathLike[str] | None = None) -> list[RuleInfo]:
    """Every rule and terminal of the directory, by file name, then line.

    A name that one file defines and others import is one entry, in the file
    that defines it.

    >>> names = [r.name for r in rules()]
    >>> len(names), names[:4]
    (67, ['ip_schemepart', 'login', 'hostport', 'host'])
    """
    index = GrammarIndex(grammar_directory(grammar))
    return rule_infos(index)


def rule(grammar: GrammarDirectory | str | os.PathLike[str] | None, name: str) -> RuleInfo:
    """One rule or terminal, by its Lark name or the name its BNF line gives it.

    ``rule(g, "uchar")`` finds the terminal ``UCHAR``, ``rule(g,
    "ip-schemepart")`` the rule ``ip_schemepart``. An unknown name raises
    :class:`~rfc1738.GrammarError` with the close matches.

    >>> rule(None, "gopher+_string").name
    'gopher_plus_string'
    >>> rule(None, "hostprot")
    Traceback (most recent call last):
    ...
    rfc1738.errors.GrammarError: no rule or terminal named 'hostprot' (did you mean hostport, host?)
    """
    found = rules(grammar)
    # The first definition of a name wins (reversed: later ones are overwritten).
    exact = {r.name: r for r in reversed(found)}
    by_rfc_name = {r.rfc_name: r for r in reversed(found) if r.rfc_name}
    folded = {r.name.lower(): r for r in reversed(found)}
    hit = exact.get(name) or by_rfc_name.get(name) or folded.get(name.lower())
    if hit is not None:
        return hit
    names = sorted({r.name for r in found} | {r.rfc_name for r in found if r.rfc_name})
    close = difflib.get_close_matches(name, names, n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise GrammarError(f"no rule or terminal named {name!r}{hint}")


def rule_infos(index: GrammarIndex) -> list[RuleInfo]:
    """A :class:`RuleInfo` for each definition of an index, in its order."""
    definitions = list(index.definitions())
    used_by: dict[int, list[str]] = {}
    uses: dict[int, tuple[str, ...]] = {}
    for definition in definitions:
        names: list[str] = []
        for symbol, target in index.references(definition):
            written = target.name if isinstance(target, Definition) else symbol
            if written not in names:
                names.append(written)
            if isinstance(target, Definition):
                users = used_by.setdefault(id(target), [])
                if definition.name not in users:
                    users.append(definition.name)
        uses[id(definition)] = tuple(names)
    return [
        RuleInfo(
            name=d.name,
            kind=d.kind,
            file=d.file,
            line=d.line,
            bnf=d.block.bnf if d.block else (),
            comments=d.block.comments if d.block else (),
            source=d.block.source if d.block else "",
            uses=uses[id(d)],
            used_by=tuple(used_by.get(id(d), ())),
            rfc_name=bnf_name(d.block.bnf) if d.block else None,
        )
        for d in definitions
    ]


def bnf_mentions(infos: list[RuleInfo]) -> Counter[str]:
    """How many productions' BNF lines name each word (a production's own name aside)."""
    counts: Counter[str] = Counter()
    for info in infos:
        words: set[str] = set()
        for index, line in enumerate(info.bnf):
            body = line
            if index == 0 and info.rfc_name is not None:
                _name, equals, rest = line.partition("=")
                body = rest if equals else line.strip()[len(info.rfc_name) :]
            for token in body.split():
                if token.startswith(('"', "<")):
                    continue
                word = _bnf_word(token)
                if word and word != info.rfc_name:
                    words.add(word)
        counts.update(words)
    return counts


def _bnf_word(token: str) -> str:
    """A BNF token without brackets and repetition counts: ``1*[digit`` → ``digit``."""
    word = token.strip("[]()|")
    while word[:1].isdigit() or word[:1] == "*" or word[:1] == "[":
        word = word[1:]
    return word.strip("[]()|")
