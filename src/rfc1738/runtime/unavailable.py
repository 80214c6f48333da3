"""The reference parser where there is none: a standalone module has no Lark.

A module written by :func:`rfc1738.generate` embeds the run-time modules
only (:data:`rfc1738.tools.generator.RUNTIME_MODULES`); importing
:mod:`rfc1738.runtime.reference` fails there, and
:meth:`~rfc1738.runtime.dispatch.Dispatch.reference_parser` gives this
instead. Every input is beyond its reach, as an input longer than
:data:`~rfc1738.MAX_REFERENCE_LENGTH` is in the library, so errors are found
with the prefix expression; a scheme whose grammar is not regular has
neither, and its URLs cannot be parsed there at all.
"""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

from ..errors import GrammarError, InputTooLongError

__all__ = ["Unavailable"]


class Unavailable:
    """No Earley parser for ``path``'s scheme; ``problem``: why it has no expression either."""

    def __init__(self, path: Path, problem: str | None) -> None:
        self.path = path
        self.problem = problem
        #: Whatever bound the grammar gives, no input is within reach.
        self.max_length = 0

    def parse(self, text: str, start: str) -> NoReturn:
        """Raise: :class:`InputTooLongError` for a scheme with an expression, else ``GrammarError``.

        The explainer then finds the error with the prefix expression.
        """
        if self.problem is not None:
            raise GrammarError(
                f"{self.problem}; a standalone module has no Earley parser to serve it",
                file=str(self.path),
            )
        raise InputTooLongError(
            text,
            0,
            rule=start,
            reason="a standalone module has no reference parser: errors come from the prefixes",
        )

    def lark(self, start: str) -> NoReturn:
        """Raise :class:`GrammarError`: a standalone module has no Lark to give."""
        raise GrammarError(
            f"a standalone module has no Lark grammar for {start}", file=str(self.path)
        )
