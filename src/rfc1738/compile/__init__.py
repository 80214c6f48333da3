"""Compile time: grammar files to the data the run time reads (never loaded to parse with tables).

The stages, one module each, in the order :func:`.pipeline.compile_directory`
runs them: lowering a grammar file's rules to the IR (:mod:`.lower`, within
the limits of :mod:`.limits`; the IR and its passes in :mod:`.ir`), the
optimiser (:mod:`.optimise`), the emitter of regular expressions
(:mod:`.emit`), the automata (:mod:`.glushkov` for errors, :mod:`.thompson`
for the linear matcher) and the layouts and tables (:mod:`.pipeline`). The
exported patterns are written by :mod:`.export` in the dialects of
:mod:`.dialects`, with the groups the hooks need (:mod:`.hooks`). The run
time reaches this package only through :mod:`rfc1738.runtime.store`, for an
edited grammar that has no tables yet.
"""
