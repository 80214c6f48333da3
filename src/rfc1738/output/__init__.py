"""Output formats of many URLs: records written straight from a match (``check --jsonl``)."""
