"""Compile time: grammar files to the data the run time reads (never loaded to parse with tables).

The stages, one module each: lowering the grammar tree to the IR
(:mod:`.pipeline`, :mod:`.ir`), the optimiser and emitter of regular
expressions (:mod:`.emit`) and their dialects (:mod:`.dialects`), the
automata (:mod:`.glushkov`, :mod:`.thompson`) and the limits a grammar must
keep (:mod:`.limits`). The run time reaches it only through
:mod:`rfc1738.runtime.store`, for an edited grammar that has no tables yet.
"""
