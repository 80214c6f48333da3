"""Checks on hosts and ports beyond the grammar, on the spans of a match.

The BNF lets a label, a host name, a ``hostnumber`` part and a port be any
length. RFC 1034 section 3.5 limits a label to 63 characters; RFC 1034
section 3.1 and RFC 1123 section 2.1 limit a host name to 255; a
``hostnumber`` part is one octet (0 to 255) and a port a 16-bit number (0 to
65535). Each limit has its own error, a :class:`~rfc1738.URLSyntaxError`
whose ``position`` is where the offending part starts; ``host_checks=False``
skips them all.
"""

from __future__ import annotations

from ..errors import URLSyntaxError
from .numbers import exceeds
from .spans import Spans

__all__ = [
    "CHECKED_PRODUCTIONS",
    "MAX_HOST",
    "MAX_LABEL",
    "MAX_OCTET",
    "MAX_PORT",
    "check_host",
    "check_port",
    "check_spans",
    "octets_pass",
]

#: The productions the checks read, in every scheme that has them.
CHECKED_PRODUCTIONS = frozenset({"host", "hostnumber", "port"})

MAX_LABEL = 63
MAX_HOST = 255
MAX_OCTET = 255
MAX_PORT = 65535


def check_spans(text: str, spans: Spans) -> None:
    """Check the ``host`` and ``port`` of a match, wherever in the URL they are.

    Every scheme names its host ``host`` and its port ``port``, so this is
    the whole of the host checks of any URL, object or not.
    """
    if "host" in spans:
        check_host(text, spans["host"], "hostnumber" in spans)
    if "port" in spans:
        check_port(text, spans["port"])


def check_host(text: str, span: tuple[int, int], is_number: bool) -> None:
    """Raise :class:`URLSyntaxError` if the host at ``span`` breaks a limit."""
    start, end = span
    if not is_number and end - start <= MAX_LABEL:
        return  # no label of it, nor the name, can be too long
    host = text[start:end]
    position = start
    for part in host.split("."):
        if is_number and exceeds(part, MAX_OCTET):
            raise URLSyntaxError(
                text,
                position,
                rule="host",
                reason=(
                    f"hostnumber part {part} is greater than {MAX_OCTET}: an IP address "
                    f"(RFC 1738 section 3.1) is four octets, each 0 to {MAX_OCTET}"
                ),
            )
        if not is_number and len(part) > MAX_LABEL:
            raise URLSyntaxError(
                text,
                position,
                rule="host",
                reason=(
                    f"label of {len(part)} characters in the host name: a label has at most "
                    f"{MAX_LABEL} characters (RFC 1034 section 3.5, RFC 1123 section 2.1)"
                ),
            )
        position += len(part) + 1
    if len(host) > MAX_HOST:
        raise URLSyntaxError(
            text,
            start,
            rule="host",
            reason=(
                f"host name of {len(host)} characters: a host name has at most "
                f"{MAX_HOST} characters (RFC 1034 section 3.1, RFC 1123 section 2.1)"
            ),
        )


#: A ``hostnumber`` part of fewer digits than :data:`MAX_OCTET` has cannot exceed it;
#: one of as many exceeds it when it sorts after it (digits of one length sort as numbers).
_OCTET = str(MAX_OCTET)


def octets_pass(number: str) -> bool:
    """Whether every part of the ``hostnumber`` ``number`` is an octet, screened cheaply.

    True means :func:`check_host` passes it; false only that it must look
    (a part with more digits than :data:`MAX_OCTET` has, leading zeros
    included, is left to it). Four parts of at most three digits are far
    below :data:`MAX_HOST` characters.

    >>> octets_pass("192.0.2.255"), octets_pass("192.0.2.256"), octets_pass("0192.0.2.1")
    (True, False, False)
    """
    width = len(_OCTET)
    for part in number.split("."):
        if len(part) >= width and (len(part) > width or part > _OCTET):
            return False
    return True


def check_port(text: str, span: tuple[int, int]) -> None:
    """Raise :class:`URLSyntaxError` if the port at ``span`` is above 65535."""
    start, end = span
    if exceeds(text[start:end], MAX_PORT):
        raise URLSyntaxError(
            text,
            start,
            rule="port",
            reason=f"port {text[start:end]} is greater than {MAX_PORT}: a port is a 16-bit number",
        )
