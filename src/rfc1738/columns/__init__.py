"""Placeholder docstring, replaced below."""
