"""Run time: what ``import rfc1738`` loads to parse, validate and explain, from compiled tables.

Dispatch by scheme, one engine per scheme, the error automaton and its
explanations, the host checks, and the tables (read from the wheel, the disk
cache, or, for an edited grammar not compiled yet, from :mod:`rfc1738.compile`
through :mod:`.store`, the one way to the compiler).
"""
