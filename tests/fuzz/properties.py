"""The property every fuzzer of the project checks, for one string.

For every ``str``: :func:`rfc1738.parse` returns a URL or raises
:class:`rfc1738.URLSyntaxError`, never another exception; the error's details
(computed lazily) can all be read; :func:`rfc1738.is_valid` agrees with
``parse``; and, within the reference parser's bound, the fast and the
reference parser give the same object or the same error.
:func:`rfc1738.parse_reference` is ``parse`` of what comes before the first
``#``, and :func:`rfc1738.find_urls` yields well-formed, ordered,
non-overlapping finds (:func:`check_all` runs all three). Each takes a
``grammar``: the shipped one by default, or an edited one
(``tests/fuzz/edited.py``), held to the same property.

Shared by the Hypothesis suite (``test_hypothesis_fuzz.py``) and the atheris
harness (``fuzz_parse.py``).
"""

from __future__ import annotations

import pickle

import rfc1738
from rfc1738 import URL, Grammar, URLSyntaxError
from rfc1738.runtime.dispatch import ParserName

__all__ = ["Outcome", "check_all", "check_find", "check_reference", "check_text", "outcome"]

#: A parsed URL, or the details of the error: position, expected, rule, reason.
Outcome = URL | tuple[int, frozenset[str], str | None, str]


def outcome(
    text: str,
    parser: ParserName = "fast",
    *,
    refuse_too_long: bool = False,
    grammar: Grammar | None = None,
) -> Outcome:
    """What ``parser`` of ``grammar`` makes of ``text``, with every detail of an error read.

    ``refuse_too_long``: an :class:`rfc1738.InputTooLongError` is raised, not
    returned as the outcome (the reference parser's bounds).
    """
    try:
        url = (grammar or rfc1738.shipped()).parse(text, parser=parser)
    except rfc1738.InputTooLongError as error:
        if refuse_too_long:
            raise
        return error_details(text, error)
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


def check_text(text: str, *, reference: bool = True, grammar: Grammar | None = None) -> Outcome:
    """The property, for one string; returns the fast parser's outcome.

    ``reference=False`` skips the comparison with the reference parser (it
    takes milliseconds per URL); it is skipped anyway beyond the parser's
    bounds: :data:`rfc1738.MAX_REFERENCE_LENGTH`, and the work a parse may do
    (a URL the grammar reads in very many ways, such as a gopher URL of a few
    hundred ``%09``, is refused with :class:`rfc1738.InputTooLongError`).
    """
    used = grammar or rfc1738.shipped()
    fast = outcome(text, grammar=used)
    assert used.is_valid(text) == isinstance(fast, URL)
    if reference and len(text) <= used.max_reference_length:
        try:
            found = outcome(text, "reference", refuse_too_long=True, grammar=used)
        except rfc1738.InputTooLongError:
            return fast
        assert found == fast
    return fast


def check_reference(text: str, grammar: Grammar | None = None) -> None:
    """``parse_reference``: ``parse`` of the URL before the first ``#``, then the fragment."""
    hash_at = text.find("#")
    url_part = text if hash_at < 0 else text[:hash_at]
    alone = outcome(url_part, grammar=grammar)
    try:
        url, fragment = rfc1738.parse_reference(text, grammar=grammar)
    except URLSyntaxError as error:
        position, expected, rule, reason = error_details(text, error)
        if not isinstance(alone, URL):
            assert (position, expected, rule, reason) == alone
        else:  # the URL parsed: the fragment is at fault
            assert hash_at >= 0 and position > hash_at
        return
    assert url == alone
    assert fragment == (None if hash_at < 0 else text[hash_at + 1 :])


def check_find(text: str, grammar: Grammar | None = None) -> None:
    """``find_urls``: finds in order, inside ``text``, not overlapping, each consistent."""
    end = 0
    for found in rfc1738.find_urls(text, grammar=grammar):
        assert end <= found.start < found.end <= len(text), (end, found.start, found.end)
        end = found.end
        assert found.valid == (found.error is None)
        if found.error is None:
            assert found.url is not None
            assert str(found.url) == found.url_text
        else:
            assert found.url is None
            assert found.delimited, "a bare URL is reported only if it parses"
            error_details(found.reference, found.error)
        if found.delimited:
            assert text[found.start] == "<" and text[found.end - 1] == ">"
        else:
            assert text[found.start : found.end] == found.reference
            assert found.url is not None


def check_all(text: str, *, reference: bool = True, grammar: Grammar | None = None) -> Outcome:
    """:func:`check_text`, :func:`check_reference` and :func:`check_find` for one string."""
    fast = check_text(text, reference=reference, grammar=grammar)
    check_reference(text, grammar)
    check_find(text, grammar)
    return fast
