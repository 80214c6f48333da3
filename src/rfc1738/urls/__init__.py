"""The URL objects: one immutable class per RFC 1738 scheme.

:data:`~rfc1738.urls.facts.SCHEME_FACTS` holds what section 3 says about each scheme
(section, default port, whether it allows a user name).
"""

from __future__ import annotations

from .facts import GENERIC, SCHEME_FACTS, SchemeFacts, facts_for

__all__ = ["GENERIC", "SCHEME_FACTS", "SchemeFacts", "facts_for"]
