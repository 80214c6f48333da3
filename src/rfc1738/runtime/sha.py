"""SHA-256 without loading OpenSSL: the digests of the tables, the caches and the column plan.

``hashlib`` loads OpenSSL, milliseconds of a start-up; the standard library's
lean module (CPython 3.11: ``_sha256``, 3.12 and later: ``_sha2``) gives the
same digests, as ``random`` uses it. Another Python gets ``hashlib``'s.
"""

from __future__ import annotations

try:
    from _sha256 import sha256  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - other Pythons
    try:
        from _sha2 import sha256  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        from hashlib import sha256

__all__ = ["sha256"]
