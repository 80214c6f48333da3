"""The fields of section 3.1's common Internet scheme syntax, declared once.

``//<user>:<password>@<host>:<port>/<url-path>``: the classes of the
schemes that use it (ftp, telnet, http, gopher, wais, nntp, prospero, and
the generic form) declare these fields by calling these functions, each of
which gives a new field, as a class body needs its own.
"""

from __future__ import annotations

from ._fields import Number, Text, Verbatim

__all__ = ["host_field", "password_field", "port_field", "user_field"]

# Section 3.1: within the user and password, ":", "@" and "/" must be encoded;
# no other character is reserved there.
_RESERVED_IN_LOGIN = ":@/"


def user_field() -> Text[str | None]:
    """The decoded user name (section 3.1)."""
    return Text(
        "user",
        escape="user",
        reserved=_RESERVED_IN_LOGIN,
        doc='The user name, decoded: ``None`` when absent, ``""`` when empty (section 3.1).',
    )


def password_field() -> Text[str | None]:
    """The decoded password (section 3.1)."""
    return Text(
        "password",
        escape="password",
        reserved=_RESERVED_IN_LOGIN,
        doc='The password, decoded: ``None`` when absent, ``""`` when empty (section 3.1).',
    )


def host_field() -> Verbatim[str]:
    """The host of a scheme whose URLs always name one, as written."""
    return Verbatim(
        "host",
        optional=False,
        doc="The host as written (host names and numbers are never escaped).",
    )


def port_field() -> Number:
    """The port, as a number."""
    return Number(
        "port",
        doc="The port as a number; ``None`` when the URL names none (``raw_port``: its digits).",
    )
