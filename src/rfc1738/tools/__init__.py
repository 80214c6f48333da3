"""Tools built on the parsers: the standalone generator, parse-tree views, the demo."""
