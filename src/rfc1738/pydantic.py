"""Pydantic v2 field types: URLs validated strictly by the grammar (``rfc1738[pydantic]``).

Each type is an ``Annotated`` URL class of :mod:`rfc1738`: a model field
``url: rfc1738.pydantic.HttpURL`` holds an :class:`rfc1738.HttpURL`.

- **Validation** is :func:`rfc1738.parse`'s, with its host checks: a string
  (or a URL object, whose text is read again) that is a URL of the field's
  class, nothing else. Nothing is repaired, stripped or normalized, whatever
  the model's configuration (``str_strip_whitespace``, lax mode): the field
  holds the text as given.
- **Errors** are Pydantic errors of type ``rfc1738_url_syntax``, with the
  library's ``reason`` as the message and its ``position``, ``rule`` and
  ``expected`` in ``ctx``; a value that is not a string is a
  ``string_type`` error, as for a ``str`` field.
- **Serialization** gives the text exactly as it was validated (``str(url)``),
  in Python and JSON mode.
- **JSON Schema**: ``{"type": "string", "pattern": ...}`` with the pattern
  :func:`rfc1738.export` writes in the ECMAScript dialect, written by the
  compiler with two changes that make it mean the same where a validator
  runs Python's ``re`` (the ``jsonschema`` package): plain groups, numbered
  as the named ones, and ``(?![\\s\\S])`` for the final ``$``. It is the
  bare grammar: the host checks (``Export.omits``) are the validator's.

>>> from pydantic import BaseModel
>>> import rfc1738.pydantic
>>> class Link(BaseModel):
...     url: rfc1738.pydantic.HttpURL
>>> Link(url="http://example.com/a%20b").url.path
'a b'
>>> Link(url="http://user@example.com/")  # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
pydantic_core._pydantic_core.ValidationError: 1 validation error for Link
url
  httpurl (RFC 1738 section 3.3) allows no user name or password ...

For a grammar of your own (:func:`rfc1738.load`), annotate the class with
:class:`ParsedBy`: ``Annotated[rfc1738.URL, ParsedBy(grammar=mine)]``.

A top layer, as ``rfc1738.spark`` is: ``import rfc1738`` does not import it,
nor Pydantic.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, TypeAlias

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, PydanticKnownError, core_schema

from . import urls
from .errors import URLSyntaxError
from .urls import Grammar, shipped

__all__ = [
    "ERROR_TYPE",
    "URL",
    "FileURL",
    "FtpURL",
    "GenericURL",
    "GopherURL",
    "HttpURL",
    "MailtoURL",
    "NewsURL",
    "NntpURL",
    "ParsedBy",
    "ProsperoURL",
    "TelnetURL",
    "WaisURL",
]

#: The ``type`` of the Pydantic error a string that is not a URL of the field's class gives.
ERROR_TYPE = "rfc1738_url_syntax"


class ParsedBy:
    """A Pydantic annotation: the field is a URL of class ``expect``, read by ``grammar``.

    ``grammar`` is the shipped grammar when ``None``, or one :func:`rfc1738.load`
    returned; ``host_checks=False`` validates by the bare grammar. Every type of
    this module is its URL class annotated with one of these::

        url: Annotated[rfc1738.URL, ParsedBy(grammar=rfc1738.load("my-grammar"))]
    """

    __slots__ = ("expect", "grammar", "host_checks")

    def __init__(
        self,
        expect: type[urls.URL] = urls.URL,
        *,
        grammar: Grammar | None = None,
        host_checks: bool = True,
    ) -> None:
        self.expect = expect
        self.grammar = grammar
        self.host_checks = host_checks

    def __repr__(self) -> str:
        return (
            f"ParsedBy({self.expect.__name__}, grammar={self.grammar!r}, "
            f"host_checks={self.host_checks})"
        )

    def validate(self, value: object) -> urls.URL:
        """The URL object for ``value`` (a ``str``, or a URL whose text is read again).

        Raises the Pydantic errors the field reports: ``string_type`` for a
        value that is neither, :data:`ERROR_TYPE` for a string that is not a
        URL of the class.
        """
        if isinstance(value, urls.URL):
            value = str(value)
        if not isinstance(value, str):
            raise PydanticKnownError("string_type")
        try:
            return self._parse(value)
        except URLSyntaxError as error:
            where = "{position}, in {rule}" if error.rule else "{position}"
            raise PydanticCustomError(
                ERROR_TYPE,
                "{reason} (at position " + where + ")",
                {
                    "reason": error.reason,
                    "position": error.position,
                    "rule": error.rule,
                    "expected": sorted(error.expected),
                },
            ) from None

    def _parse(self, text: str) -> urls.URL:
        if self.grammar is None:
            # Class.parse: the shipped grammar, and the library's own error for
            # a URL of another class.
            return self.expect.parse(text, host_checks=self.host_checks)
        url = self.grammar.parse(text, host_checks=self.host_checks)
        if not isinstance(url, self.expect):
            raise URLSyntaxError(
                text,
                0,
                rule=url.facts.start,
                reason=(
                    f"a URL of scheme {url.scheme!r} ({type(url).__name__}): "
                    f"the field takes {self.expect.__name__} only"
                ),
            )
        return url

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        # A plain validator: no str schema before it, so that no setting of
        # the model (str_strip_whitespace, str_to_lower, lax bytes) touches
        # the text before the grammar reads it.
        return core_schema.no_info_plain_validator_function(
            self.validate,
            serialization=core_schema.plain_serializer_function_ser_schema(
                str, return_schema=core_schema.str_schema()
            ),
        )

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        grammar = self.grammar or shipped()
        patterns = _patterns(grammar, self.expect)
        found: JsonSchemaValue = {"type": "string"}
        if len(patterns) == 1:
            found["pattern"] = patterns[0]
        else:
            found["anyOf"] = [{"pattern": pattern} for pattern in patterns]
        return found


@cache
def _patterns(grammar: Grammar, expect: type[urls.URL]) -> tuple[str, ...]:
    """The JSON Schema patterns of the URLs of class ``expect``: one, or one per scheme."""
    # Lark: the patterns are written from the compiler's IR, read with Lark.
    from .compile.export import json_schema_export

    export = json_schema_export(grammar)
    schemes = [s for s in sorted(grammar.files) if issubclass(grammar.url_class(s), expect)]
    if set(schemes) == set(grammar.files):
        return (export.any,)
    return tuple(export.schemes[s].pattern for s in schemes)


HttpURL: TypeAlias = Annotated[urls.HttpURL, ParsedBy(urls.HttpURL)]
"""An ``http`` URL: :class:`rfc1738.HttpURL`."""
FtpURL: TypeAlias = Annotated[urls.FtpURL, ParsedBy(urls.FtpURL)]
"""An ``ftp`` URL: :class:`rfc1738.FtpURL`."""
FileURL: TypeAlias = Annotated[urls.FileURL, ParsedBy(urls.FileURL)]
"""A ``file`` URL: :class:`rfc1738.FileURL`."""
GopherURL: TypeAlias = Annotated[urls.GopherURL, ParsedBy(urls.GopherURL)]
"""A ``gopher`` URL: :class:`rfc1738.GopherURL`."""
MailtoURL: TypeAlias = Annotated[urls.MailtoURL, ParsedBy(urls.MailtoURL)]
"""A ``mailto`` URL: :class:`rfc1738.MailtoURL`."""
NewsURL: TypeAlias = Annotated[urls.NewsURL, ParsedBy(urls.NewsURL)]
"""A ``news`` URL: :class:`rfc1738.NewsURL`."""
NntpURL: TypeAlias = Annotated[urls.NntpURL, ParsedBy(urls.NntpURL)]
"""An ``nntp`` URL: :class:`rfc1738.NntpURL`."""
TelnetURL: TypeAlias = Annotated[urls.TelnetURL, ParsedBy(urls.TelnetURL)]
"""A ``telnet`` URL: :class:`rfc1738.TelnetURL`."""
WaisURL: TypeAlias = Annotated[urls.WaisURL, ParsedBy(urls.WaisURL)]
"""A ``wais`` URL: :class:`rfc1738.WaisURL`."""
ProsperoURL: TypeAlias = Annotated[urls.ProsperoURL, ParsedBy(urls.ProsperoURL)]
"""A ``prospero`` URL: :class:`rfc1738.ProsperoURL`."""
GenericURL: TypeAlias = Annotated[urls.GenericURL, ParsedBy(urls.GenericURL)]
"""A URL of a scheme RFC 1738 does not define (``genericurl``): :class:`rfc1738.GenericURL`."""
URL: TypeAlias = Annotated[urls.URL, ParsedBy(urls.URL)]
"""A URL of any scheme: the class :func:`rfc1738.parse` gives."""
