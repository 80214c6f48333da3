"""``MailtoURL``: RFC 1738 section 3.5."""

from __future__ import annotations

from typing import ClassVar

from ._fields import Text
from .base import URL

__all__ = ["MailtoURL"]


class MailtoURL(URL):
    """A ``mailto`` URL (RFC 1738 section 3.5).

    BNF: ``mailtourl = "mailto:" encoded822addr``::

        mailto:joe%25work@example.com
        \\____/ \\____________________/
        scheme       address

    The address is an RFC 822 addr-spec, escaped; no character is reserved in
    it, so everything after ``mailto:`` is the address (a ``%`` in it is
    written ``%25``), and an escape means the character itself
    (``mailto:a%3Fb@h`` is ``mailto:a?b@h``, as :meth:`normalize` says).

    >>> import rfc1738
    >>> rfc1738.parse("mailto:joe%25work@example.com").address
    'joe%work@example.com'
    """

    # Section 3.5: "Within mailto URLs, there are no reserved characters."
    address = Text(
        "encoded822addr",
        escape="encoded822addr",
        optional=False,
        reserved="",
        doc="The address (RFC 822 addr-spec), decoded.",
    )

    #: For type checkers: the raw twin the declaration gives (see :mod:`._fields`).
    raw_address: str

    SCHEME: ClassVar[str] = "mailto"
