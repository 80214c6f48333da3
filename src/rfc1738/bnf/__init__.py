"""Reading grammar directories: the files, Lark's reading of them, and what they say.

The lowest layer above :mod:`rfc1738.errors`. ``files`` finds a directory's
scheme files; ``adapter`` reads one through Lark's loader; ``index`` and
``blocks`` read the text itself (definitions, ``// BNF:`` lines); on top of
those, ``inspection`` lists the rules, ``lint`` checks them and ``diagrams``
draws them. Nothing here parses a URL.
"""
