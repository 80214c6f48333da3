"""URLs in running text (RFC 1738 appendix) and URL references with a fragment."""
