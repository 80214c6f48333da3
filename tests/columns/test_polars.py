"""rfc1738.polars: the expressions in a frame, the error function, lazily and eagerly."""

from __future__ import annotations

import pytest

import rfc1738

pl = pytest.importorskip("polars", reason="polars is not installed (rfc1738[polars])")

from rfc1738.polars import ERROR_DTYPE, grammar_file, is_valid_url, url_error, url_struct  # noqa: E402

URLS = ["http://user@host/", "HTTP://192.0.2.300/", "http://h/", None, "news:*"]


def test_the_error_of_a_rejected_url_is_the_library_s() -> None:
    found = pl.DataFrame({"u": URLS}).select(url_error("u").alias("e"))["e"]
    assert found.dtype == ERROR_DTYPE
    for text, error in zip(URLS, found.to_list(), strict=True):
        if text is None or rfc1738.is_valid(text):
            assert error is None
            continue
        with pytest.raises(rfc1738.URLSyntaxError) as raised:
            rfc1738.parse(text)
        assert error == {
            "reason": raised.value.reason,
            "position": raised.value.position,
            "rule": raised.value.rule,
            "error": str(raised.value),
        }


def test_lazy_frames_and_nulls() -> None:
    frame = pl.LazyFrame({"u": URLS}).select(
        is_valid_url("u").alias("valid"),
        is_valid_url(pl.col("u"), host_checks=False).alias("grammar"),
        grammar_file("u").alias("file"),
        url_struct("u").struct.field("grouppart").alias("grouppart"),
    )
    found = frame.collect().to_dict(as_series=False)
    assert found == {
        "valid": [False, False, True, None, True],
        "grammar": [False, True, True, None, True],
        "file": ["http", "http", "http", None, "news"],
        "grouppart": [None, None, None, None, "*"],
    }
