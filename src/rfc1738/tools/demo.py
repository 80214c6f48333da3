"""``make demo``: one RFC 1738 example per production, parsed both ways.

Run as ``python -m rfc1738.tools.demo``.
"""

from __future__ import annotations

from ..errors import URLSyntaxError
from ..urls import URL, shipped
from .treeview import format_tree

#: One example per production of RFC 1738 section 5 (most from the RFC itself).
EXAMPLES = (
    "http://ds.internic.net/instructions/overview.html?lang=en",
    "ftp://myname@host.dom/%2Fetc/motd;type=a",
    "file://vms.host.edu/disk$user/my/notes/note12345.txt",
    "gopher://gopher.example.org:70/1selector%09search%09+",
    "mailto:joe@example.com",
    "news:comp.infosystems.www",
    "nntp://news.example.org/comp.infosystems.www/1234",
    "telnet://guest:secret@host.dom:23/",
    "wais://quake.think.com/directory-of-servers?rfc",
    "prospero://host.dom//pros/name;version=1",
    "afs://transarc.com/usr/lib",
)

#: Character-level productions left out of the printed trees, to keep them short.
HIDDEN = frozenset({"alphadigit", "digits", "domainlabel", "toplabel"})


def _fields(url: URL) -> str:
    """The decoded fields that are present, as ``name=value`` pairs."""
    shown = []
    for name, value in url.to_dict().items():
        if name in ("class", "text", "raw_scheme") or name.startswith("raw_") or value is None:
            continue
        shown.append(f"{name}={value!r}")
    return " ".join(shown)


def main() -> None:
    """Print, for each example, its object and its parse tree."""
    for text in EXAMPLES:
        url = shipped().parse(text)
        print(text)
        print(f"  -> {type(url).__name__}: {_fields(url)}")
        tree = shipped().parse_tree(text)
        for line in format_tree(tree, text, hide=HIDDEN).splitlines():
            print(f"     {line}")
        print()
    bad = "http://user@host/"
    try:
        shipped().parse(bad)
    except URLSyntaxError as error:
        print(bad)
        print(f"  -> URLSyntaxError: {error}")


if __name__ == "__main__":
    main()
