"""``rfc1738 find [FILE|-]``: the URLs in a text, one JSON object each (the real script)."""

from __future__ import annotations

import json
from pathlib import Path

import rfc1738
from rfc1738.cli.output import error_dict

from .helpers import edited_grammar, error_of, run

DATA = Path(__file__).parent.parent / "data"

APPENDIX = (
    "Yes, Jim, I found it under\n"
    "<URL:ftp://info.cern.ch/pub/www/doc;type=d> but you can probably pick it\n"
    "up from <URL:ftp://ds.internic.net/rfc>.  Note the warning in\n"
    "<URL:http://ds.internic.net/instructions/overview.html#WARNING>.\n"
)


def objects(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_appendix_on_stdin() -> None:
    result = run("find", input=APPENDIX)
    assert (result.status, result.err) == (0, "")
    found = objects(result.out)
    assert [f["url"] for f in found] == [
        "ftp://info.cern.ch/pub/www/doc;type=d",
        "ftp://ds.internic.net/rfc",
        "http://ds.internic.net/instructions/overview.html",
    ]
    assert [f["span"] for f in found] == [[27, 70], [108, 139], [162, 225]]
    assert [f["line"] for f in found] == [2, 3, 4]
    assert [f["fragment"] for f in found] == [None, None, "WARNING"]
    assert all(f["valid"] and f["delimited"] for f in found)
    url = rfc1738.parse("ftp://info.cern.ch/pub/www/doc;type=d")
    first = found[0]
    assert {k: first[k] for k in url.to_dict()} == json.loads(json.dumps(url.to_dict()))


def test_reference_list_file() -> None:
    result = run("find", DATA / "rfc1738-references.txt")
    assert result.status == 0
    found = objects(result.out)
    assert len(found) == 18
    assert found[1]["alternatives"] == [
        "ftp://boombox.micro.umn.edu/pub/gopher/gopherprotocol/Gopher+/Gopher+.txt"
    ]


def test_invalid_delimited_url_exit_status_1() -> None:
    result = run("find", "-", input="see <URL:http://user@host/> and http://h/")
    assert result.status == 1
    bad, good = objects(result.out)
    assert bad["valid"] is False and "class" not in bad
    # The same error the library gives.
    assert bad["error"] == json.loads(json.dumps(error_dict(error_of("http://user@host/"))))
    assert good == good | {"url": "http://h/", "delimited": False, "valid": True}


def test_nothing_found() -> None:
    result = run("find", input="no URLs here, <joe@example.com>")
    assert (result.status, result.out, result.err) == (0, "", "")


def test_not_utf8_is_not_an_error() -> None:
    result = run("find", input=b"\xff http://h/ \xfe")
    assert result.status == 0
    (found,) = objects(result.out)
    assert found["span"] == [2, 11]


def test_missing_file_is_usage_error(tmp_path: Path) -> None:
    result = run("find", tmp_path / "nothing.txt")
    assert result.status == 2
    assert result.err.startswith("rfc1738: cannot read")


def test_edited_grammar_and_host_checks(tmp_path: Path) -> None:
    text = "<URL:http://user@host/> <URL:http://h:99999/>"
    assert run("find", input=text).status == 1
    result = run("find", "--grammar", edited_grammar(tmp_path), "--no-host-checks", input=text)
    assert result.status == 0
    assert [f["valid"] for f in objects(result.out)] == [True, True]


def test_module_entry_point() -> None:
    result = run("find", input="ftp://h/pub.", module=True)
    (found,) = objects(result.out)
    assert found["url"] == "ftp://h/pub"
