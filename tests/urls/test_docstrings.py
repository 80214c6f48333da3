"""Every public attribute of every URL class has a docstring, as ``help()`` shows it.

Fields are declared once (``rfc1738.urls._fields``): the declaration's
``doc`` is the field's docstring, and the raw twin's and ``segments``'
are derived from it. Class constants in capitals (``FIELDS``, ``SCHEME``,
...) are data, documented where ``URL`` declares them (``#:`` comments,
which the API pages read); everything else must carry its own docstring.
"""

from __future__ import annotations

import inspect
import pydoc

import pytest

import rfc1738
from rfc1738.urls import CLASSES, URL

CLASSES_AND_BASE = sorted({URL, *CLASSES.values()}, key=lambda cls: cls.__name__)


def public_names(cls: type) -> list[str]:
    return [
        name
        for name in dir(cls)
        if not name.startswith("_") and not (name.isupper() or name.replace("_", "").isupper())
    ]


def docstring(attribute: object) -> str | None:
    """The docstring ``help()`` shows for a class attribute, if it has one of its own."""
    if isinstance(attribute, classmethod | staticmethod):
        attribute = attribute.__func__
    doc = getattr(attribute, "__doc__", None)
    if inspect.isroutine(attribute) or type(attribute) is property:
        return doc
    # A descriptor instance (a Computed property too): its own docstring, not its class's.
    return doc if doc and doc != type(attribute).__doc__ else None


@pytest.mark.parametrize("cls", CLASSES_AND_BASE, ids=lambda cls: cls.__name__)
def test_every_public_attribute_has_a_docstring(cls: type) -> None:
    missing = [
        name
        for name in public_names(cls)
        if not (docstring(inspect.getattr_static(cls, name)) or "").strip()
    ]
    assert not missing, f"{cls.__name__}: no docstring for {missing}"


@pytest.mark.parametrize("cls", sorted(CLASSES.values(), key=lambda c: c.__name__), ids=str)
def test_help_shows_each_field(cls: type[URL]) -> None:
    shown = pydoc.render_doc(cls, renderer=pydoc.plaintext)
    for field in cls.DECLARED:
        for name in field.names:
            doc = docstring(inspect.getattr_static(cls, name))
            assert doc is not None
            assert doc.split()[0] in shown.split(f" {name}\n", 1)[-1], name


def test_http_url_host_path_port() -> None:
    # The three issue 22 found without one.
    for name in ("host", "path", "port"):
        doc = docstring(inspect.getattr_static(rfc1738.HttpURL, name))
        assert doc and len(doc) > 20, name
