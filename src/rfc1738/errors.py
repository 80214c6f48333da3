"""The exceptions of rfc1738: one root, a parse error that is a ``ValueError``.

No exception of Lark crosses the public API: the parsers translate them into
these. The compiler's errors are here too (:class:`NotRegularError`,
:class:`GrammarLimitError`), so that what runs with compiled tables can name
them without importing the compiler.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = [
    "END",
    "MAX_REFERENCE_LENGTH",
    "AmbiguousFieldError",
    "FrozenURLError",
    "GrammarError",
    "GrammarLimitError",
    "InputTooLongError",
    "NotRegularError",
    "RFC1738Error",
    "URLSyntaxError",
]


#: The longest input the reference parser accepts, in characters. Earley on
#: this character-level grammar takes about a millisecond per 20 characters at
#: this length and grows faster than linearly beyond it.
MAX_REFERENCE_LENGTH = 2048


#: How :attr:`URLSyntaxError.expected` names the end of the URL (as Lark's Earley does).
END = "$END"

#: An error's ``(position, expected, rule, reason)``; a ``reason`` of ``None`` is
#: the default wording, worded when first read. A plain tuple: the parsers
#: make one per error, and a class of its own costs a call to make.
_Details = tuple[int, frozenset[str], str | None, str | None]


class RFC1738Error(Exception):
    """Root of every exception this library raises on purpose."""


class URLSyntaxError(RFC1738Error, ValueError):
    """A string that is not a URL of the RFC 1738 grammar.

    Attributes:
        text: the string that was parsed.
        position: 0-based index of the first character that does not fit.
        expected: what the grammar allowed at ``position``, in the grammar's
            own names (``UCHAR``, ``"/"``, ``"ftp://"i`` for a literal in any
            case; ``$END`` where the URL could end). Inside a literal the
            URL began, the literal.
        rule: the production being matched (``httpurl``, ``hostport``, ...).
        reason: one sentence saying what is wrong, without the picture.

    ``str(error)`` gives the reason, the rule, and a picture with a caret::

        >>> import rfc1738
        >>> try:
        ...     rfc1738.parse("news:a b")
        ... except rfc1738.URLSyntaxError as e:
        ...     print(e.position, e.rule)
        ...     print(e.picture())
        6 grouppart
          news:a b
                ^
    """

    def __init__(
        self,
        text: str,
        position: int,
        expected: frozenset[str] = frozenset(),
        rule: str | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(text)
        self.text = text
        self._details: _Details | None = (position, expected, rule, reason or None)
        self._explain: Callable[[], URLSyntaxError] | None = None

    @classmethod
    def _of(cls, text: str, details: _Details) -> URLSyntaxError:
        """``URLSyntaxError(text, *details)``, made in fewer steps (the parsers make many).

        ``details``' reason is ``None`` for the default wording, never ``""``.
        """
        error = cls.__new__(cls, text)  # BaseException.__new__: args == (text,)
        error.text = text
        error._details = details
        error._explain = None
        return error

    @classmethod
    def deferred(cls, text: str, explain: Callable[[], URLSyntaxError]) -> URLSyntaxError:
        """An error whose details are worked out by ``explain`` when first read.

        The fast parser knows at once that a string is not a URL, but finding
        the exact position, what was expected and why takes the reference
        parser, a thousand times slower. Code that only catches the error
        (``is_valid``, a filter over a large file) should not pay for that;
        code that reads ``position`` or prints the error gets the same
        details as if they had been computed eagerly.
        """
        error = cls.__new__(cls)
        ValueError.__init__(error, text)
        error.text = text
        error._details = None
        error._explain = explain
        return error

    def _resolved(self) -> _Details:
        if self._details is None:
            assert self._explain is not None
            found = self._explain()
            self._details = found._resolved()
            self._explain = None
        return self._details

    @property
    def position(self) -> int:
        """0-based index of the first character that does not fit."""
        return self._resolved()[0]

    @property
    def expected(self) -> frozenset[str]:
        """What the grammar allowed at :attr:`position`, in its own names."""
        return self._resolved()[1]

    @property
    def rule(self) -> str | None:
        """The production being matched at :attr:`position`."""
        return self._resolved()[2]

    @property
    def reason(self) -> str:
        """One sentence saying what is wrong."""
        position, expected, rule, reason = self._resolved()
        if reason is None:
            # Worded on first read: the parsers build several errors on the
            # way to the one they raise, most with a reason of their own.
            reason = _default_reason(self.text, position, expected)
            self._details = (position, expected, rule, reason)
        return reason

    def __str__(self) -> str:
        return self._message()

    def picture(self) -> str:
        """The URL (around ``position`` if it is long) and a caret under ``position``."""
        start = max(0, self.position - _CONTEXT)
        end = min(len(self.text), self.position + _CONTEXT)
        before = _visible(self.text[start : self.position])
        shown = before + _visible(self.text[self.position : end])
        if start > 0:
            shown, before = "..." + shown, "..." + before
        if end < len(self.text):
            shown += "..."
        return f"  {shown}\n  {' ' * len(before)}^"

    def _message(self) -> str:
        where = f" (in {self.rule})" if self.rule else ""
        return f"{self.reason}{where}\n{self.picture()}"

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.text, self.position, self.expected, self.rule, self.reason))


class InputTooLongError(URLSyntaxError):
    """Input beyond the reference parser's bounds: its length or the work it takes.

    The Earley parser's cost grows faster than linearly with the length of its
    input, so it refuses strings longer than ``MAX_REFERENCE_LENGTH`` and stops
    a parse that takes more than ``MAX_REFERENCE_WORK`` steps of work
    (:mod:`rfc1738.runtime.reference`), instead of hanging on them.
    """


class GrammarError(RFC1738Error):
    """A grammar directory that cannot be loaded or compiled.

    ``file`` and ``line`` say where, when the cause is known.
    """

    def __init__(self, message: str, file: str | None = None, line: int | None = None) -> None:
        self.file = file
        self.line = line
        where = ":".join(str(p) for p in (file, line) if p is not None)
        super().__init__(f"{where}: {message}" if where else message)


class NotRegularError(GrammarError):
    """A rule that refers back to itself: no regular expression can match it."""


class GrammarLimitError(GrammarError):
    """A grammar past one of the compiler's limits; the message names the rule and the limit.

    The limits are :mod:`rfc1738.compile.limits`'.
    """

    def __init__(self, rule: str, what: str, limit: str, file: str | None = None) -> None:
        super().__init__(f"rule {rule}: {what}; the limit is {limit}", file=file)
        #: The rule at fault.
        self.rule = rule


class FrozenURLError(RFC1738Error, AttributeError):
    """An attempt to assign to (or delete) an attribute of a URL object: they are immutable.

    An ``AttributeError``, as assigning to a frozen dataclass's field is;
    :meth:`~rfc1738.URL.replace` gives a new object with other fields.
    """


class AmbiguousFieldError(RFC1738Error, ValueError):
    """A decoded field that would lose what its text says: read its raw twin instead.

    Raised on reading a decoded field (``path``, ``search``, ...) whose text
    holds an escape of a character that the decoded value could not tell
    from the same character written as itself, where the two mean different
    things: ``ftp://h/%2Fetc/motd`` and ``ftp://h//etc/motd`` would both have
    ``path`` ``/etc/motd``, though section 3.2.2 makes the ``%2F`` a ``/``
    inside one segment name and the ``/`` a separator. A ``ValueError``.

    Attributes:
        text: the URL.
        field: the attribute asked for (``path``).
        escape: the escape as written (``%2F``).
        instead: the attributes that give the value without loss
            (``("segments", "raw_path")``).
        reason: why the decoded value cannot say it (the section that says so).
    """

    def __init__(
        self, text: str, field: str, escape: str, instead: tuple[str, ...], reason: str
    ) -> None:
        self.text = text
        self.field = field
        self.escape = escape
        self.instead = instead
        self.reason = reason
        shown = " or ".join(instead)
        super().__init__(f"{field} of {text!r} cannot be given decoded: {reason}; read {shown}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.text, self.field, self.escape, self.instead, self.reason))


#: How many characters of a long URL the picture shows on each side of the caret.
_CONTEXT = 40


def _visible(text: str) -> str:
    """``text`` with controls and non-ASCII characters as Python escapes."""
    return text.encode("unicode_escape").decode("ascii")


def _found(text: str, position: int) -> str:
    if position >= len(text):
        return "end of the URL"
    return f"character {text[position]!r} (U+{ord(text[position]):04X})"


def _default_reason(text: str, position: int, expected: frozenset[str]) -> str:
    found = _found(text, position)
    if expected:
        return f"unexpected {found}: expected {_expected_words(expected)}"
    return f"unexpected {found}"


def _expected_words(expected: frozenset[str]) -> str:
    """The expected items as a message lists them; the same sets come back, so kept."""
    words = _EXPECTED_WORDS.get(expected)
    if words is None:
        words = ", ".join(sorted(_shown(name) for name in expected))
        if len(_EXPECTED_WORDS) < _EXPECTED_WORDS_KEPT:
            _EXPECTED_WORDS[expected] = words
    return words


#: The lists of expected items worded so far: a grammar has a few hundred sets at most.
_EXPECTED_WORDS: dict[frozenset[str], str] = {}
_EXPECTED_WORDS_KEPT = 4096


def unfinished_literal_reason(
    text: str, begun: int, position: int, expected: frozenset[str]
) -> str:
    """The reason for an error inside a literal the URL began at ``begun``.

    ``position`` is where the URL leaves it, ``expected`` the literals begun
    there (``";type="``). Both parsers word such an error with this, which
    says what was read of the literal::

        >>> print(unfinished_literal_reason("ftp://h/a;b", 9, 10, frozenset({'";type="'})))
        unexpected character 'b' (U+0062): expected the rest of ";type=" after ';'
    """
    names = ", ".join(sorted(_shown(name) for name in expected))
    return (
        f"unexpected {_found(text, position)}: expected the rest of {names} "
        f"after {text[begun:position]!r}"
    )


def _shown(name: str) -> str:
    """An expected item as a message says it: no parser notation.

    ``expected`` keeps the grammar file's spelling (``"file://"i``); a
    sentence says ``"file://" (any case)`` and ``the end of the URL``.
    """
    if name == END:
        return "the end of the URL"
    if name.startswith('"') and name.endswith('"i'):
        return f"{name[:-1]} (any case)"
    return name
