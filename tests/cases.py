"""URLs each scheme's production accepts or rejects, each with the reason why.

One set of data for every parser of the project: the reference parser
(``rfc1738.parse_tree``), the typed-object parser and the fast regex parser
are all checked against these lists.

- ``ACCEPT[scheme]``: URLs the grammar accepts under ``START[scheme]``.
- ``REJECT[scheme]``: strings that are not URLs of that production. The scheme
  is the one the string names (or is meant to name); a string whose scheme
  part is not a predefined scheme is parsed with ``genericurl``.
- ``GRAMMAR_ONLY[scheme]``: URLs the bare grammar accepts but the host checks
  on top of it (RFC 1034 section 3.5, RFC 1123 section 2.1; SCHEMES.md
  "Decision: checks on top of the BNF") will reject: labels over 63
  characters, names over 255, hostnumber parts over 255, ports over 65535.
- ``RFC_EXAMPLES``: every example URL RFC 1738 itself gives; each is in an
  ``ACCEPT`` list.

"SCHEMES.md" is the project's record of what RFC 1738 sections 2, 3 and the
appendix say beyond the grammar, and of the decisions taken where it leaves
room.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "ACCEPT",
    "GRAMMAR_ONLY",
    "REJECT",
    "RFC_EXAMPLES",
    "SCHEMES",
    "START",
    "Case",
    "case_id",
]


@dataclass(frozen=True, slots=True)
class Case:
    """One input and why a parser must accept or reject it.

    A reject case states where its error is: ``at``, the 0-based position of
    the first character that cannot belong to a URL of the production (the
    end of the URL if it stops too early). Where a string goes wrong only in
    the light of what follows (``host.3com/``: ``3com`` could still be a
    domain label until the ``/``), that is where the grammar knows it, the end
    of the longest prefix some URL begins with. An escape cut short is wrong
    at its ``%`` (SCHEMES.md). A sample also states the production being
    matched (``rule``) and what the grammar allowed there (``expected``).
    ``wrong`` says why the parsers do not give that ``rule``/``expected`` yet
    (the test of them is an expected failure until they do).
    """

    url: str
    reason: str
    at: int | None = None
    rule: str | None = None
    expected: frozenset[str] | None = None
    wrong: str | None = None


def case_id(case: Case) -> str:
    """A readable pytest id: the URL with controls and non-ASCII escaped."""
    shown = case.url.encode("unicode_escape").decode("ascii") or "(empty)"
    return shown if len(shown) <= 80 else shown[:77] + "..."


#: The eleven forms of RFC 1738: ten predefined schemes and the generic one.
SCHEMES = (
    "http",
    "ftp",
    "file",
    "gopher",
    "mailto",
    "news",
    "nntp",
    "telnet",
    "wais",
    "prospero",
    "generic",
)

#: The start rule (root of the parse tree) of each form.
START = {scheme: f"{scheme}url" for scheme in SCHEMES} | {"generic": "genericurl"}

_LONG_LABEL = "a" * 64
_LONG_NAME = ".".join(["a" * 63] * 4) + ".com"  # 4 * 64 + 3 = 259 characters

ACCEPT: dict[str, list[Case]] = {
    "http": [
        Case(
            "http://ds.internic.net/instructions/overview.html",
            "RFC 1738 appendix example (its #WARNING is a fragment, not part of the URL)",
        ),
        Case("http://h", "path and search are optional, and so is the / before them (3.3)"),
        Case("http://host.com/", "an empty hpath is one empty hsegment (section 5 hpath)"),
        Case("HTTP://h/", "scheme names are compared without case (2.1, SCHEMES.md)"),
        Case("hTtP://H.COM/", "scheme and host name are both case-insensitive (2.1, RFC 1034)"),
        Case("http://192.0.2.1:8080/a/b", "a hostnumber and a port (3.1)"),
        Case("http://h:80", "a port without a path (3.3)"),
        Case("http://h/?q", "a search after an empty path (section 5 httpurl)"),
        Case("http://h/a/b?x=1&y=2", "a search is uchar and ; : @ & = (section 5 search)"),
        Case("http://h/a;b=c:d@e&f", "hsegment allows ; : @ & = (section 5 hsegment)"),
        Case("http://h//a//", "hsegments may be empty (section 5 hsegment is *[...])"),
        Case("http://h/a%2Fb%2fc", "an escape, with upper or lower case hex (2.2, section 5)"),
        Case("http://h/$-_.+!*'(),", "every safe and extra character (section 5)"),
        Case("http://www-1.ex-ample.co/", "labels with inner hyphens (3.1 hostname)"),
        Case("http://3com.com/", "a domainlabel may start with a digit (RFC 1123 2.1)"),
        Case("http://a.b.c.d.e.f/", "any number of domainlabels (section 5 hostname)"),
    ],
    "ftp": [
        Case("ftp://@host.com/", "RFC 1738 3.1 example: empty user name, no password"),
        Case("ftp://host.com/", "RFC 1738 3.1 example: no user name"),
        Case("ftp://foo:@host.com/", "RFC 1738 3.1 example: user foo, empty password"),
        Case("ftp://myname@host.dom/%2Fetc/motd", "RFC 1738 3.2.2 example: %2F inside a segment"),
        Case("ftp://myname@host.dom//etc/motd", "RFC 1738 3.2.2 example: an empty first segment"),
        Case("ftp://myname@host.dom/etc/motd", "RFC 1738 3.2.2 example: CWD etc, RETR motd"),
        Case("ftp://info.cern.ch/pub/www/doc;type=d", "RFC 1738 appendix example: a typecode"),
        Case("ftp://ds.internic.net/rfc", "RFC 1738 appendix example"),
        Case("ftp://host.com", "the whole url-path may be left out (3.2, section 5 ftpurl)"),
        Case("FTP://host.com/", "scheme names are compared without case (2.1, SCHEMES.md)"),
        Case("ftp://:pw@h/", "a password needs a user name; here it is empty (3.1, SCHEMES.md)"),
        Case("ftp://u:p@h:2121/a/b;type=i", "user, password, port, path and typecode (3.2)"),
        Case("ftp://h/f;type=A", "typecodes are A I D in either case (section 5 ftptype)"),
        Case("ftp://h/;type=d", "a typecode after an empty path (section 5 fpath)"),
        Case("ftp://u%3Ax%40y:p%2F@h/", "encoded : @ / inside user and password (3.1)"),
        Case("ftp://u;a?b&c=d@h/", "user allows uchar and ; ? & = (section 5 user)"),
        Case("ftp://10.1.2.3/a?b:c@d&e=f", "fsegment allows ? : @ & = (section 5 fsegment)"),
    ],
    "file": [
        Case(
            "file://vms.host.edu/disk$user/my/notes/note12345.txt",
            "RFC 1738 section 3.10 example",
        ),
        Case("file:///etc/passwd", "the host may be empty: this machine (3.10)"),
        Case("file://localhost/etc/motd", "the host may be localhost: this machine (3.10)"),
        Case("file://LOCALHOST/x", "host names are case-insensitive (RFC 1034); a host reading"),
        Case("FILE://h/", "scheme names are compared without case (2.1, SCHEMES.md)"),
        Case("file:///", "an empty fpath is one empty fsegment (section 5 fpath)"),
        Case("file://10.1.2.3/share/f.txt", "a hostnumber is a host (section 5 host)"),
        Case("file://h//a", "fsegments may be empty (section 5 fsegment)"),
        Case("file://h/c:/dir/x", "fsegment allows : (section 5 fsegment)"),
        Case("file://h/a%20b", "an encoded space (2.2)"),
        Case("file://h/a?b@c&d=e", "fsegment allows ? @ & = (section 5 fsegment)"),
    ],
    "gopher": [
        Case("gopher://host.com/", "an empty gopher-path; the type defaults to 1 (3.4)"),
        Case("gopher://host.com", "the / and gopher-path may be left out (section 5 gopherurl)"),
        Case("gopher://h:70/1", "a gtype alone (section 5 gopherurl)"),
        Case("GOPHER://h/", "scheme names are compared without case (2.1, SCHEMES.md)"),
        Case("gopher://h/0/file.txt", "gtype 0 and a selector with / (3.4: nothing reserved)"),
        Case("gopher://h/7sel%09search", "gtype, selector, %09 and a search (3.4)"),
        Case("gopher://h/1sel%09search%09plus", "all fields, split at the %09s (3.4)"),
        Case("gopher://h/1sel%09%09+", "a gopher+ string after an empty search (3.4)"),
        Case("gopher://h/1%09%09", "empty selector, search and gopher+ string (section 5)"),
        Case("gopher://h/1a%09b%09c%09d", "a third %09 is part of a field: escapes are xchar"),
        Case("gopher://h//", "the gtype may be / (3.4: gtype is any xchar)"),
        Case("gopher://h/%2F", "the gtype may be an escape (section 5 gtype = xchar)"),
        Case("gopher://h/1;?:@&=", "reserved characters mean nothing here (3.4)"),
        Case("gopher://192.0.2.1:7070/", "a hostnumber and a port (3.1)"),
    ],
    "mailto": [
        Case("mailto:user@host.com", "an RFC 822 addr-spec (3.5)"),
        Case("MAILTO:a@b", "scheme names are compared without case (2.1, SCHEMES.md)"),
        Case("mailto:a.b+c@d.e", "safe characters in the address (section 5)"),
        Case("mailto:a%25b@h", "a % in an address is encoded as %25 (3.5)"),
        Case("mailto:Fred%20Bloggs%3Cf@h%3E", "encoded space and angle brackets (2.2)"),
        Case("mailto:a", "the grammar asks only for 1*xchar (section 5 encoded822addr)"),
        Case("mailto:a@b?subject=x", "? and = are xchar (section 5 encoded822addr)"),
        Case("mailto:/a//b;c", "reserved characters are xchar; none reserved in mailto (3.5)"),
        Case("mailto:%41", "one escape is one xchar (section 5 encoded822addr)"),
    ],
    "news": [
        Case("news:*", "RFC 1738 3.6 example: every group"),
        Case("news:comp.infosystems.www", "a newsgroup name (3.6)"),
        Case("news:comp.lang.c++", "group allows + (section 5 group)"),
        Case("news:alt.x_y-z.1", "group allows _ - . and digits after the first letter"),
        Case("news:a", "a one-letter group (section 5 group)"),
        Case("NEWS:comp.x", "scheme names are compared without case (2.1, SCHEMES.md)"),
        Case("news:1234@host.com", "a message-id <unique>@<full_domain_name> (3.6)"),
        Case("news:foo.bar$1@news.example.com", "a message-id without angle brackets (3.6)"),
        Case("news:a/b?c:d&e=f;g@h.com", "article allows / ? : & = ; (section 5 article)"),
        Case("news:x%40y@192.0.2.1", "an encoded @ inside, a hostnumber after (section 5)"),
    ],
    "nntp": [
        Case("nntp://news.example.com/comp.lang.python", "a group without article number (3.7)"),
        Case("nntp://h/comp.lang.python/42", "a group and an article number (3.7)"),
        Case("nntp://h:119/a/0", "a port, a one-letter group, article 0 (section 5)"),
        Case("NNTP://h/g", "scheme names are compared without case (2.1, SCHEMES.md)"),
        Case("nntp://192.0.2.1/g.h-i+j_k", "a hostnumber; group allows . - + _ (section 5)"),
        Case("nntp://h/a/00012", "digits may have leading zeros (section 5 digits)"),
        Case("nntp://h/comp.lang.c++/7", "group allows +, then an article (section 5)"),
        Case("nntp://news.example.com:8119/alt.test", "a port other than 119 (3.7)"),
    ],
    "telnet": [
        Case("telnet://host.com", "login alone; the final / is optional (3.8)"),
        Case("telnet://host.com/", "the final / (3.8)"),
        Case("telnet://user:password@host.com:23/", "user, password and port (3.8)"),
        Case("telnet://user@h", "a user without password (3.1)"),
        Case("telnet://@h/", "an empty user name (3.1)"),
        Case("telnet://:@h/", "empty user name and password (3.1)"),
        Case("TELNET://h:2323", "scheme names are compared without case (2.1, SCHEMES.md)"),
        Case("telnet://192.0.2.1:23/", "a hostnumber (3.1)"),
        Case("telnet://u%3A:p%40@h/", "encoded : and @ in user and password (3.1)"),
    ],
    "wais": [
        Case("wais://h/db", "a database (3.9)"),
        Case("wais://h:210/db?query", "a search in a database (3.9)"),
        Case("wais://h/db/TEXT/0123abc", "one document: database, wtype, wpath (3.9)"),
        Case("wais://h/", "an empty database (section 5 database = *uchar)"),
        Case("wais://h/db?", "an empty search (section 5 search)"),
        Case("wais://h/db//", "empty wtype and wpath (section 5 wtype, wpath)"),
        Case("WAIS://h/db", "scheme names are compared without case (2.1, SCHEMES.md)"),
        Case("wais://192.0.2.1/db?a;b:c@d&e=f", "search allows ; : @ & = (section 5 search)"),
        Case("wais://h/d%2Fb/t/p%3F", "encoded / and ? inside uchar fields (2.2)"),
    ],
    "prospero": [
        Case("prospero://host.dom//pros/name", "RFC 1738 3.11 example: hsoname /pros/name"),
        Case("prospero://h/", "an empty ppath (section 5 psegment)"),
        Case("prospero://h:1525/a/b", "a port and a two-segment ppath (3.11)"),
        Case("prospero://h/a;f=v", "one field/value pair (3.11)"),
        Case("prospero://h/a;f=v;g=w", "two field/value pairs (3.11)"),
        Case("prospero://h/a;=", "empty fieldname and fieldvalue (section 5 fieldspec)"),
        Case("prospero://h/a=b?c:d@e&f", "psegment allows = ? : @ & (section 5 psegment)"),
        Case("PROSPERO://h/x", "scheme names are compared without case (2.1, SCHEMES.md)"),
        Case("prospero://h/a;f=v?:@&", "fieldvalue allows ? : @ & (section 5 fieldvalue)"),
        Case("prospero://h/a%3Bb", "a ; inside the hsoname is encoded (3.11)"),
    ],
    "generic": [
        Case("https://www.example.com/", "a later scheme is a generic URL (SCHEMES.md)"),
        Case("HTTPS://WWW.EXAMPLE.COM/", "scheme names are compared without case (2.1, DEVIATION)"),
        Case("afs://transarc.com/public/doc", "a proposed scheme (section 4) is generic"),
        Case("x-foo:bar", "an experimental scheme and an opaque schemepart (section 4)"),
        Case("z39.50s://host:210/db", "scheme allows digits and . (section 5 scheme)"),
        Case("z39.50:host/db", "RFC 1738 section 4's z39.50 scheme, *xchar schemepart"),
        Case("mid:960830.1639@XIson.com/partA.960830.1639@XIson.com", "a mid URL: *xchar"),
        Case("tn3270://u:p@host.com:23/", "a //login/urlpath schemepart (section 5 ip-schemepart)"),
        Case("1abc+.-:x", "the BNF's scheme may start with a digit, + - or ."),
        Case("foo:", "schemepart = *xchar may be empty (section 5)"),
        Case("x-foo://not_a_host/", "not a login (_ in host), but *xchar: the other alternative"),
        Case("x-foo:a%41;/?:@&=", "escapes and every reserved character are xchar"),
        Case(
            "URL:ftp://ds.internic.net/rfc",
            "the appendix's URL: prefix is not part of a URL, but this is a genericurl",
        ),
    ],
}

REJECT: dict[str, list[Case]] = {
    "http": [
        Case(
            "http://user@host/",
            "no user name in http (3.3; SCHEMES.md: generic does not rescue)",
            at=11,
            rule="httpurl",
            expected=frozenset({'"-"', '"."', '"/"', '":"', "$END", "ALPHA", "DIGIT"}),
        ),
        Case("http://u:p@host/", "no user name or password in http (3.3)", at=9),
        Case(
            "http://h?q",
            "a search needs the / before it (section 5 httpurl, SCHEMES.md)",
            at=8,
            rule="hostport",
            expected=frozenset({'"-"', '"."', '"/"', '":"', "$END", "ALPHA", "DIGIT"}),
        ),
        Case(
            "http:h",
            "not //host: SCHEMES.md decision, generic does not rescue http",
            at=5,
            rule="httpurl",
            expected=frozenset({'"http://"i'}),
        ),
        Case(
            "http://h/a b",
            "a space must be encoded (2.2)",
            at=10,
            rule="hsegment",
            expected=frozenset({'"&"', '"/"', '":"', '";"', '"="', '"?"', '"@"', "$END", "UCHAR"}),
        ),
        Case(
            "http://ds.internic.net/instructions/overview.html#WARNING", "# is unsafe (2.2)", at=49
        ),
        Case("http://h/~user", "~ is national: it must be encoded (2.2)", at=9),
        Case("http://h/caf\u00e9", "non-ASCII must be encoded (2.2)", at=12),
        Case(
            "http://h/a\tb", "a raw tab must be encoded (2.2; SCHEMES.md: nothing stripped)", at=10
        ),
        Case("http://h/\n", "a trailing newline is not stripped (SCHEMES.md decision)", at=9),
        Case(" http://h/", "a leading space is not stripped (SCHEMES.md decision)", at=0),
        Case("http://h/%", "% not starting an escape must be encoded (2.2)", at=9),
        Case("http://h/%4g", "an escape is % and two hex digits (section 5 escape)", at=9),
        Case(
            "http://h/a?b?c",
            "search allows no unencoded ? (3.3)",
            at=12,
            rule="search",
            expected=frozenset({'"&"', '":"', '";"', '"="', '"@"', "$END", "UCHAR"}),
        ),
        Case("http://h/a?b/c", "search allows no unencoded / (3.3)", at=12),
        Case(
            "http://host.3com/",
            "the rightmost label never starts with a digit (3.1 toplabel)",
            at=16,
        ),
        Case(
            "http://a-.com/",
            "a label never ends with - (section 5 domainlabel)",
            at=9,
            rule="hostname",
            expected=frozenset({'"-"', "ALPHA", "DIGIT"}),
        ),
        Case("http://-a.com/", "a label never starts with - (section 5 domainlabel)", at=7),
        Case(
            "http://1.2.3/", "three groups are no hostnumber, 3 no toplabel (section 5 host)", at=12
        ),
        Case("http://h.com./", "no trailing dot (section 5 hostname)", at=13),
        Case(
            "http://h:/",
            "port = digits, one or more; no colon without a port (3.1)",
            at=9,
            rule="digits",
            expected=frozenset({"DIGIT"}),
        ),
        Case("http://[::1]/", "[ ] are national characters; no IPv6 in RFC 1738 (3.1, 2.2)", at=7),
    ],
    "ftp": [
        Case(
            "ftp://h/f;TYPE=I",
            "';type=' is matched as written (SCHEMES.md: only the scheme)",
            at=10,
        ),
        Case(
            "ftp://h/f;type=x",
            "typecode is one of A I D a i d (section 5 ftptype)",
            at=15,
            rule="ftptype",
            expected=frozenset({'"A"', '"D"', '"I"', '"a"', '"d"', '"i"'}),
        ),
        Case("ftp://h/f;type=", "a typecode after ;type= (section 5 ftpurl)", at=15),
        Case(
            "ftp://h/f;type=d/",
            "nothing follows the typecode (section 5 ftpurl)",
            at=16,
            rule="ftpurl",
            expected=frozenset({"$END"}),
        ),
        Case(
            "ftp://h/a;b",
            "; is not allowed in an fsegment (section 5 fsegment)",
            at=10,
            rule="ftpurl",
            expected=frozenset({'";type="'}),
        ),
        Case(
            "ftp://h/a;typ",
            "a URL that ends inside ;type= (section 5 ftpurl)",
            at=13,
            rule="ftpurl",
            expected=frozenset({'";type="'}),
        ),
        Case(
            "ftp://u:p:q@h/",
            "a : in a password must be encoded (3.1)",
            at=9,
            rule="password",
            expected=frozenset({'"&"', '";"', '"="', '"?"', '"@"', "UCHAR"}),
        ),
        Case("ftp://u@v@h/", "an @ in a user name must be encoded (3.1)", at=9),
        Case("ftp://h:21:21/", "one port (section 5 hostport)", at=10),
        Case(
            "ftp:/h/",
            "ftpurl starts ftp:// (section 5)",
            at=5,
            rule="ftpurl",
            expected=frozenset({'"ftp://"i'}),
        ),
        Case("ftp://h/a b", "a space must be encoded (2.2)", at=9),
        Case("ftp://h/pub#x", "# must be encoded (2.2)", at=11),
        Case("ftp://h/%", "% not starting an escape must be encoded (2.2)", at=8),
        Case("ftp://h/\u00e9", "non-ASCII must be encoded (2.2)", at=8),
        Case("ftp://host.1com/", "the rightmost label never starts with a digit (3.1)", at=15),
        Case("ftp:///pub", "the host is not optional in ftp (section 5 login)", at=6),
    ],
    "file": [
        Case(
            "file://host",
            "the / before fpath is required (section 5 fileurl)",
            at=11,
            rule="fileurl",
            expected=frozenset({'"-"', '"."', '"/"', "ALPHA", "DIGIT"}),
        ),
        Case("file://localhost", "the / before fpath is required (section 5 fileurl)", at=16),
        Case("file:/etc/passwd", "fileurl starts file:// (section 5)", at=6),
        Case("file:etc", "fileurl starts file:// (section 5)", at=5),
        Case(
            "file://h:80/x",
            "file takes a host, not a hostport (section 5 fileurl)",
            at=8,
            rule="fileurl",
            expected=frozenset({'"-"', '"."', '"/"', "ALPHA", "DIGIT"}),
        ),
        Case("file://u@h/x", "file takes no user name (section 5 fileurl)", at=8),
        Case(
            "file://h/a;type=d",
            "no typecode in file; ; is not in fsegment (section 5)",
            at=10,
            rule="fsegment",
            expected=frozenset({'"&"', '"/"', '":"', '"="', '"?"', '"@"', "$END", "UCHAR"}),
        ),
        Case("file://h/a b", "a space must be encoded (2.2)", at=10),
        Case("file://h/C|/x", "| must be encoded (2.2 national)", at=10),
        Case("file://h/a\\b", "\\ must be encoded (2.2 national)", at=10),
        Case("file://h_1/x", "_ is not allowed in a host name (section 5 hostname)", at=8),
        Case("file://h/x\n", "a trailing newline is not stripped (SCHEMES.md decision)", at=10),
    ],
    "gopher": [
        Case("gopher://h/1 sel", "a space must be encoded (2.2)", at=12),
        Case(
            "gopher://h/1sel\tsearch",
            "a raw tab must be written %09 (3.4, 2.2)",
            at=15,
            rule="selector",
            expected=frozenset({'"%09"', "$END", "XCHAR"}),
        ),
        Case("gopher://h/1sel%9", "an escape is % and two hex digits (section 5 escape)", at=15),
        Case("gopher://h/1#x", "# must be encoded (2.2)", at=12),
        Case("gopher://h/1~x", "~ must be encoded (2.2)", at=12),
        Case("gopher://u@h/", "gopher takes a hostport, not a login (section 5 gopherurl)", at=10),
        Case(
            "gopher://h:/",
            "a port is one or more digits (section 5 port)",
            at=11,
            rule="digits",
            expected=frozenset({"DIGIT"}),
        ),
        Case("gopher:/h", "gopherurl starts gopher:// (section 5)", at=8),
        Case("gopher://", "a host is required (section 5 hostport)", at=9),
        Case("gopher://h.1a/", "the rightmost label never starts with a digit (3.1)", at=13),
        Case("gopher://h/1sel%09\u00e9", "non-ASCII must be encoded (2.2)", at=18),
    ],
    "mailto": [
        Case(
            "mailto:",
            "encoded822addr is 1*xchar: at least one (section 5)",
            at=7,
            rule="encoded822addr",
            expected=frozenset({"XCHAR"}),
        ),
        Case(
            "mailto:a b@c",
            "a space must be encoded (2.2)",
            at=8,
            rule="encoded822addr",
            expected=frozenset({"$END", "XCHAR"}),
        ),
        Case("mailto:<a@b>", "< and > must be encoded (2.2 punctuation)", at=7),
        Case('mailto:"a"@b', '" must be encoded (2.2 punctuation)', at=7),
        Case("mailto:a%b@c", "a % in an address must be encoded (3.5)", at=8),
        Case("mailto:a@b#x", "# must be encoded (2.2)", at=10),
        Case("mailto:a@b\n", "a trailing newline is not stripped (SCHEMES.md decision)", at=10),
        Case("mailto:j\u00f6rg@h", "non-ASCII must be encoded (2.2)", at=8),
        Case("mailto:a~b@c", "~ must be encoded (2.2)", at=8),
    ],
    "news": [
        Case("news:", "grouppart is not empty (section 5 grouppart)", at=5),
        Case("news:<abc@host.com>", "a message-id is written without < > (3.6, SCHEMES.md)", at=5),
        Case(
            "news:1comp",
            "a group starts with a letter; no @ for an article (section 5)",
            at=10,
            rule="article",
            expected=frozenset({'"&"', '"/"', '":"', '";"', '"="', '"?"', '"@"', "UCHAR"}),
        ),
        Case("news:**", "* alone means all groups (section 5 grouppart)", at=7),
        Case("news:comp lang", "a space must be encoded (2.2)", at=9),
        Case("news://host/group", "no host in news (3.6); / is not in a group", at=17),
        Case("news:a@", "an article needs a host after @ (section 5 article)", at=7),
        Case("news:@host.com", "an article needs 1* characters before @ (section 5 article)", at=5),
        Case(
            "news:a@b@c",
            "an @ before the last must be encoded (section 5 article)",
            at=8,
            rule="hostname",
            expected=frozenset({'"-"', '"."', "$END", "ALPHA", "DIGIT"}),
        ),
        Case("news:a@h:119", "an article ends with a host, not a hostport (section 5)", at=8),
        Case("news:comp.x/12", "no article number in news (3.6); / is not in a group", at=14),
        Case("news:comp%2Ex", "a group has no escapes (section 5 group)", at=13),
    ],
    "nntp": [
        Case("nntp://h/", "a group is required (section 5 nntpurl)", at=9),
        Case(
            "nntp://h",
            "the / and a group are required (section 5 nntpurl)",
            at=8,
            rule="hostport",
            expected=frozenset({'"-"', '"."', '"/"', '":"', "ALPHA", "DIGIT"}),
        ),
        Case("nntp://h/g/", "an article number is 1*digit (section 5 digits)", at=11),
        Case(
            "nntp://h/g/1a",
            "the article number is decimal (3.7)",
            at=12,
            rule="digits",
            expected=frozenset({"$END", "DIGIT"}),
        ),
        Case(
            "nntp://h/1g",
            "a group starts with a letter (section 5 group)",
            at=9,
            rule="group",
            expected=frozenset({"ALPHA"}),
        ),
        Case("nntp://u@h/g", "nntp takes a hostport, not a login (section 5 nntpurl)", at=8),
        Case("nntp://h/g/1/2", "one article number (section 5 nntpurl)", at=12),
        Case("nntp://h/g@x", "no message-id in nntp (section 5 nntpurl)", at=10),
        Case("nntp://h/g%2Eh", "a group has no escapes (section 5 group)", at=10),
        Case("nntp:/h/g", "nntpurl starts nntp:// (section 5)", at=6),
    ],
    "telnet": [
        Case(
            "telnet://h/x",
            "nothing after the final / (3.8)",
            at=11,
            rule="telneturl",
            expected=frozenset({"$END"}),
        ),
        Case("telnet://h//", "one final / at most (section 5 telneturl)", at=11),
        Case("telnet://", "a host is required (section 5 login)", at=9),
        Case(
            "telnet://h:",
            "a port is one or more digits, or a password follows a user (section 5 login)",
            at=11,
            rule="login",
            expected=frozenset({'"&"', '";"', '"="', '"?"', '"@"', "DIGIT", "UCHAR"}),
        ),
        Case("telnet://u:p:q@h/", "a : in a password must be encoded (3.1)", at=12),
        Case("telnet://u@p@h", "an @ in a user name must be encoded (3.1)", at=12),
        Case("telnet://h/?", "nothing after the final / (3.8)", at=11),
        Case("telnet://h /", "a space must be encoded (2.2)", at=10),
        Case("telnet:h", "telneturl starts telnet:// (section 5)", at=7),
        Case("telnet://h-/", "a label never ends with - (section 5 toplabel)", at=11),
    ],
    "wais": [
        Case("wais://h", "the / and a database are required (3.9)", at=8),
        Case(
            "wais://h/db/type",
            "a document needs /wtype/wpath (section 5 waisdoc)",
            at=16,
            rule="wtype",
            expected=frozenset({'"/"', "UCHAR"}),
        ),
        Case("wais://h/db/t/p/q", "wpath is *uchar: no / (section 5 wpath)", at=15),
        Case(
            "wais://h/db?a?b",
            "search allows no unencoded ? (section 5 search)",
            at=13,
            rule="search",
            expected=frozenset({'"&"', '":"', '";"', '"="', '"@"', "$END", "UCHAR"}),
        ),
        Case("wais://h/db?a/b", "search allows no unencoded / (section 5 search)", at=13),
        Case("wais://u@h/db", "wais takes a hostport, not a login (section 5)", at=8),
        Case("wais://h/db/t/p?x", "a document takes no search (section 5 waisdoc)", at=15),
        Case("wais://h/d b", "a space must be encoded (2.2)", at=10),
        Case("wais://h/db;x", "; is not a uchar (section 5 database)", at=11),
        Case("wais:/h/db", "waisurl starts wais:// (section 5)", at=6),
    ],
    "prospero": [
        Case("prospero://h", "the / and a ppath are required (section 5 prosperourl)", at=12),
        Case(
            "prospero://h/a;b",
            "a fieldspec needs = (section 5 fieldspec)",
            at=16,
            rule="fieldname",
            expected=frozenset({'"&"', '":"', '"="', '"?"', '"@"', "UCHAR"}),
        ),
        Case(
            "prospero://h/a;f=v=w",
            "fieldvalue allows no = (section 5 fieldvalue)",
            at=18,
            rule="fieldvalue",
            expected=frozenset({'"&"', '":"', '";"', '"?"', '"@"', "$END", "UCHAR"}),
        ),
        Case("prospero://h/a;f=v/w", "fieldvalue allows no / (section 5 fieldvalue)", at=18),
        Case("prospero://h/a;f;g=v", "fieldname allows no ; (section 5 fieldname)", at=16),
        Case("prospero://u@h/a", "no user or password in prospero (3.11)", at=12),
        Case("prospero://h/a b", "a space must be encoded (2.2)", at=14),
        Case("prospero://h/a#b", "# must be encoded (2.2)", at=14),
        Case("prospero:/h/a", "prosperourl starts prospero:// (section 5)", at=10),
    ],
    "generic": [
        Case("https://h/a b", "a space must be encoded (2.2)", at=11),
        Case("https://h/#frag", "a fragment is not part of a URL; # must be encoded (2.2)", at=10),
        Case("https://h/~u", "~ must be encoded (2.2)", at=10),
        Case("https://h/%zz", "% not starting an escape must be encoded (2.2)", at=10),
        Case("https://h/\u00e9", "non-ASCII must be encoded (2.2)", at=10),
        Case("https://[::1]/", "[ ] must be encoded (2.2 national)", at=8),
        Case(
            ":x",
            "a scheme has at least one character (section 5 scheme)",
            at=0,
            rule="scheme",
            expected=frozenset({'"+"', '"-"', '"."', "DIGIT", "HIALPHA", "LOWALPHA"}),
        ),
        Case(
            "foo",
            "genericurl needs a : after the scheme (section 5)",
            at=3,
            rule="scheme",
            expected=frozenset({'"+"', '"-"', '"."', '":"', "DIGIT", "HIALPHA", "LOWALPHA"}),
        ),
        Case("", "the empty string is no URL (section 5 genericurl)", at=0),
        Case("foo_bar:x", "_ is not allowed in a scheme name (section 5 scheme)", at=3),
        Case("x foo:bar", "a space is not allowed in a scheme name (section 5 scheme)", at=1),
        Case("h\u00e9llo:x", "a scheme name is ASCII (section 5 scheme)", at=1),
        Case(
            "<URL:ftp://ds.internic.net/rfc>", "the appendix's brackets are not part of a URL", at=0
        ),
        Case("x-foo:a|b", "| must be encoded (2.2 national)", at=7),
        Case("x-foo:bar\n", "a trailing newline is not stripped (SCHEMES.md decision)", at=9),
        Case('x-foo:"q"', '" must be encoded (2.2 punctuation)', at=6),
    ],
}

GRAMMAR_ONLY: dict[str, list[Case]] = {
    "http": [
        Case(f"http://{_LONG_LABEL}.com/", "a label of 64 characters (RFC 1034 3.5: at most 63)"),
        Case(f"http://{_LONG_NAME}/", "a host name of 259 characters (RFC 1123 2.1: 255)"),
        Case("http://h:65536/", "port 65536 (SCHEMES.md: a port is 0-65535)"),
        Case("http://256.1.1.1/", "a hostnumber part of 256 (SCHEMES.md: each part 0-255)"),
    ],
    "ftp": [
        Case("ftp://999.999.999.999/", "hostnumber parts over 255 (SCHEMES.md)"),
        Case("ftp://u@h:99999/", "port 99999 (SCHEMES.md: a port is 0-65535)"),
    ],
    "telnet": [
        Case("telnet://h:123456/", "port 123456 (SCHEMES.md: a port is 0-65535)"),
    ],
    "news": [
        Case(f"news:a@{_LONG_LABEL}.com", "a label of 64 characters (RFC 1034 3.5)"),
    ],
    "nntp": [
        Case("nntp://1.2.3.300/g", "a hostnumber part of 300 (SCHEMES.md)"),
    ],
    "generic": [
        Case(f"x-foo://{_LONG_LABEL}.com/", "a label of 64 in a //login schemepart"),
    ],
}

#: Every example URL RFC 1738 gives (sections 3.1, 3.2.2, 3.6, 3.10, 3.11, appendix).
RFC_EXAMPLES = (
    "ftp://@host.com/",
    "ftp://host.com/",
    "ftp://foo:@host.com/",
    "ftp://myname@host.dom/%2Fetc/motd",
    "ftp://myname@host.dom//etc/motd",
    "ftp://myname@host.dom/etc/motd",
    "file://vms.host.edu/disk$user/my/notes/note12345.txt",
    "news:*",
    "prospero://host.dom//pros/name",
    "ftp://info.cern.ch/pub/www/doc;type=d",
    "ftp://ds.internic.net/rfc",
    "http://ds.internic.net/instructions/overview.html",
)
