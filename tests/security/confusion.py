"""Parser-differential cases: what rfc1738 and ``urllib.parse.urlsplit`` make of each.

The inputs come from the CPython URL advisories (bpo-43882 tab/CR/LF,
CVE-2023-24329 leading C0 controls and spaces, CVE-2024-11168 brackets in
hosts, bpo-42967 ``;`` in queries) and from URL-confusion research (Orange
Tsai, "A New Era of SSRF", 2017; Claroty/Snyk, "Exploiting URL Parsing
Confusion", 2022): backslash before ``@``, ``#`` inside the authority,
percent-encoded delimiters, Unicode digits and look-alike letters.

``python -m tests.security.confusion`` prints the table of
``docs/security.md``; ``test_confusion.py`` checks each case and the table's
rfc1738 column.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from urllib.parse import urlsplit

import rfc1738

__all__ = ["CASES", "Confusion", "rfc1738_cell", "table", "urllib_cells", "visible"]


@dataclass(frozen=True, slots=True)
class Confusion:
    """One input, what it attacks, and the one reading of RFC 1738.

    ``bad`` is the character the error must name and stand at (its first
    occurrence in ``url``, or the one at ``at``), or ``None`` for a URL the
    grammar accepts, whose decoded fields must then be ``fields``.
    """

    name: str
    url: str
    bad: str | None
    fields: tuple[tuple[str, object], ...] = ()
    at: int | None = None

    @property
    def position(self) -> int:
        """Where the error must be: ``at``, or the first ``bad`` character."""
        assert self.bad is not None
        return self.url.index(self.bad) if self.at is None else self.at


CASES = (
    Confusion("leading NUL", "\x00http://h/", "\x00"),
    Confusion("leading C0 control", "\x1fhttp://evil.com/", "\x1f"),
    Confusion("leading space", " http://h/", " "),
    Confusion("tab inside the scheme", "ht\ttp://h/", "\t"),
    Confusion("tab inside the path", "http://h/a\tb", "\t"),
    Confusion("LF inside the host", "http://ex\nample.com/", "\n"),
    Confusion("CR LF, header injection", "http://h/\r\nHost: evil", "\r"),
    Confusion("trailing newline", "http://h/\n", "\n"),
    Confusion("NUL inside the host", "http://h\x00.evil.com/", "\x00"),
    Confusion("backslash before @", "http://evil.com\\@good.com/", "\\"),
    Confusion("user name in http", "http://good.com@evil.com/", "@"),
    Confusion("# inside the authority", "http://good.com#@evil.com/", "#"),
    Confusion("[ ] around an IPv6 host", "http://[::1]/", "["),
    Confusion("[ ] after a host name", "http://prefix[::1]/", "["),
    Confusion("[ ] around a host name", "http://[evil.com]/", "["),
    Confusion(
        "; in a query",
        "http://h/p?a=1;b=2",
        None,
        (("host", "h"), ("path", "p"), ("search", "a=1;b=2")),
    ),
    Confusion(
        "encoded / in a path segment",
        "http://h/a%2Fb",
        None,
        (("segments", ("a/b",)), ("raw_path", "a%2Fb")),
    ),
    Confusion("encoded ? in the path", "http://h/%3F?q", None, (("path", "?"), ("search", "q"))),
    Confusion("encoded / in the host", "http://evil.com%2F.good.com/", "%"),
    Confusion(
        "encoded @ in the user name",
        "ftp://u%40evil.com@good.com/",
        None,
        (("user", "u@evil.com"), ("host", "good.com")),
    ),
    Confusion("fullwidth digits in the port", "http://h:\uff18\uff10/", "\uff18"),
    Confusion("Arabic-Indic digits in the port", "http://h:\u0668\u0660/", "\u0668"),
    Confusion("sign before the port", "http://h:+80/", "+"),
    Confusion("two ports", "http://h:80:81/", ":", at=11),
    Confusion("leading zeros in the port", "http://h:0080/", None, (("port", 80),)),
    Confusion("long s in the scheme (upper: HTTPS)", "http\u017f://h/", "\u017f"),
    Confusion("long s in the scheme (upper: PROSPERO)", "pro\u017fpero://h/x", "\u017f"),
    Confusion("dotless i in the scheme (upper: FILE)", "f\u0131le:///etc/passwd", "\u0131"),
    Confusion("Kelvin sign in the host (lower: k)", "http://\u212aelvin.example/", "\u212a"),
)


def visible(text: object) -> str:
    """``text`` as Python writes it (``repr``), for a Markdown code span."""
    return repr(text)


def rfc1738_cell(url: str) -> str:
    """What :func:`rfc1738.parse` makes of ``url``, in one line."""
    try:
        parsed = rfc1738.parse(url)
    except rfc1738.URLSyntaxError as error:
        found = url[error.position : error.position + 1]
        return f"error at {error.position} ({visible(found)}): {error.reason}"
    shown = ("user", "host", "port", "path", "search")
    parts = []
    for name in shown:
        try:
            value = getattr(parsed, name, None)
        except rfc1738.AmbiguousFieldError as error:
            # A decoded value that would hide the escape: what says it instead.
            name = error.instead[0]
            value = getattr(parsed, name)
        if value not in (None, ""):
            parts.append(f"{name}={visible(value)}")
    return f"{type(parsed).__name__}: {', '.join(parts)}"


def urllib_cells(url: str) -> tuple[str, str, str]:
    """``urlsplit(url)`` as a tuple, its ``.hostname`` and its ``.port``."""
    try:
        split = urlsplit(url)
    except ValueError as error:
        return f"ValueError: {error}", "", ""
    cells = [visible(tuple(split))]
    for name in ("hostname", "port"):
        try:
            cells.append(visible(getattr(split, name)))
        except ValueError as error:
            cells.append(f"ValueError: {error}")
    return cells[0], cells[1], cells[2]


def _code(text: str) -> str:
    return "`" + text.replace("|", "\\|") + "`"


def table() -> str:
    """The Markdown table of docs/security.md, one row per case."""
    lines = [
        "| case | input | rfc1738.parse | urlsplit | .hostname | .port |",
        "|---|---|---|---|---|---|",
    ]
    for case in CASES:
        split, hostname, port = urllib_cells(case.url)
        cells = [
            case.name,
            _code(visible(case.url)),
            _code(rfc1738_cell(case.url)),
            _code(split),
            _code(hostname) if hostname and not hostname.startswith("ValueError") else hostname,
            _code(port) if port and not port.startswith("ValueError") else port,
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(f"Python {sys.version.split()[0]}\n")
    print(table())
