"""Parsing URLs with a grammar directory: compiler, regular expressions, Earley, errors.

``compiler`` turns grammar files into ``ir`` trees and ``regex`` writes them
out; ``fast`` runs the expressions, ``reference`` runs Lark's Earley parser;
``parsers`` holds a directory's parsers (:class:`~rfc1738.parse.parsers.ParserSet`),
``diagnosis`` words their errors, ``hosts`` checks hosts and ports beyond the
grammar. Which object a match becomes is decided in :mod:`rfc1738.urls`.
"""
