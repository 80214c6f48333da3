"""The property every fuzzer of the project checks, for one string.

For every ``str``: :func:`rfc1738.parse` returns a URL or raises
:class:`rfc1738.URLSyntaxError`, never another exception; the error's details
(computed lazily) can all be read; :func:`rfc1738.is_valid` agrees with
``parse``; and, within the reference parser's bound, the fast and the
reference parser give the same object or the same error.

Shared by the Hypothesis suite (``test_hypothesis_fuzz.py``) and the atheris
harness (``fuzz_parse.py``).
"""

from __future__ import annotations

import pickle

import rfc1738
from rfc1738 import URL, URLSyntaxError
from rfc1738.grammar_set import ParserName

__all__ = ["Outcome", "check_text", "outcome"]

#: A parsed URL, or the details of the error: position, expected, rule, reason.
Outcome = URL | tuple[int, frozenset[str], str | None, str]


def outcome(text: str, parser: ParserName = "fast") -> Outcome:
    """What ``parser`` makes of ``text``, with every detail of an error read."""
    try:
        url = rfc1738.parse(text, parser=parser)
    except URLSyntaxError as error:
        return error_details(text, error)
    assert isinstance(url, URL)
    assert str(url) == text
    url.to_dict()
    url.uses_default_port()
    return url


def error_details(text: str, error: URLSyntaxError) -> tuple[int, frozenset[str], str | None, str]:
    """Every detail of ``error``, each checked for sense."""
    assert error.text == text
    position, expected, rule, reason = error.position, error.expected, error.rule, error.reason
    assert 0 <= position <= len(text), (position, len(text))
    assert isinstance(expected, frozenset)
    assert rule is None or isinstance(rule, str)
    assert isinstance(reason, str) and reason
    shown = str(error)
    assert reason in shown
    assert "^" in error.picture()
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.position, copy.expected, copy.rule, copy.reason) == (
        position,
        expected,
        rule,
        reason,
    )
    return position, expected, rule, reason


def check_text(text: str, *, reference: bool = True) -> Outcome:
    """The property, for one string; returns the fast parser's outcome.

    ``reference=False`` skips the comparison with the reference parser (it
    takes milliseconds per URL); it is skipped anyway beyond the parser's
    bound, :data:`rfc1738.MAX_REFERENCE_LENGTH`.
    """
    fast = outcome(text)
    assert rfc1738.is_valid(text) == isinstance(fast, URL)
    if reference and len(text) <= rfc1738.MAX_REFERENCE_LENGTH:
        assert outcome(text, "reference") == fast
    return fast
