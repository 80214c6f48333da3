"""atheris harness: the property of ``tests/fuzz/properties.py`` under coverage-guided fuzzing.

Run by ``make fuzz`` (``FUZZ_SECONDS``, 60 by default), once with the
shipped grammar and once with an edited one (``tests/fuzz/edited.py``)::

    [RFC1738_FUZZ_GRAMMAR=edited] python tests/fuzz/fuzz_parse.py -max_total_time=60 \
        [libFuzzer options] [corpus dirs]

Each input's bytes are decoded as UTF-8 with ``surrogateescape``, so every
byte string is a ``str`` (bytes that are not UTF-8 become lone surrogates).
The corpus is seeded with every URL of ``tests/cases.py``, written to a
temporary directory that is passed to libFuzzer first; crashes are written
to ``build/fuzz/`` unless ``-artifact_prefix`` says otherwise. The package
``rfc1738`` is instrumented for coverage; Lark is not (it would only make
the reference parser slower).

Not collected by pytest (its name does not start with ``test_``).
"""

from __future__ import annotations

import os
import sys
import tempfile
from hashlib import sha1
from pathlib import Path

import atheris

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.cases import ACCEPT, GRAMMAR_ONLY, REJECT, RFC_EXAMPLES  # noqa: E402
from tests.fuzz.edited import write_edited_grammar  # noqa: E402

#: Which grammar is fuzzed: ``shipped`` (the default) or ``edited``.
GRAMMAR = os.environ.get("RFC1738_FUZZ_GRAMMAR", "shipped")
if GRAMMAR not in ("shipped", "edited"):
    sys.exit(f"RFC1738_FUZZ_GRAMMAR must be 'shipped' or 'edited', not {GRAMMAR!r}")

#: Inputs longer than this are cut: the reference parser takes about a second
#: at its bound of 2048 characters, which would starve the fuzzer.
MAX_LEN = 1024


def seeds() -> list[str]:
    """Every URL of the test data, and a few hostile strings."""
    found = [
        case.url for table in (ACCEPT, REJECT, GRAMMAR_ONLY) for c in table.values() for case in c
    ]
    found.extend(RFC_EXAMPLES)
    found.extend(["", "\x00", "http://h/\udc80", " http://h/", "http://h/\n", "x:%"])
    if GRAMMAR == "edited":
        found.extend(["http://u:p@h/~a", "afs://cell.dom/a/b", "loops:aab/ab1!", "loops:ac/!"])
    return found


def write_corpus(directory: Path) -> None:
    for text in seeds():
        try:
            data = text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:  # a surrogate outside U+DC80..U+DCFF
            continue
        (directory / sha1(data).hexdigest()).write_bytes(data)


# Let libFuzzer see the parser's startswith/endswith comparisons. (Its "RegEx"
# hook cannot be used: Lark hands the proxied patterns to sre_parse, which fails.)
atheris.enabled_hooks.add("str")

# rfc1738 imports most of its modules on first use: run every seed once inside
# the hook, so that they are instrumented too (and built before fuzzing starts).
with atheris.instrument_imports(include=["rfc1738", "tests.fuzz.properties"]):
    import rfc1738
    from tests.fuzz.properties import check_all

    _edited_dir = tempfile.TemporaryDirectory(prefix="rfc1738-fuzz-grammar-")
    FUZZED = (
        rfc1738.load(write_edited_grammar(Path(_edited_dir.name)))
        if GRAMMAR == "edited"
        else rfc1738.shipped()
    )
    for seed in seeds():
        check_all(seed, grammar=FUZZED)


def test_one_input(data: bytes) -> None:
    check_all(data.decode("utf-8", "surrogateescape"), grammar=FUZZED)


def main() -> None:
    argv = list(sys.argv)
    if not any(arg.startswith("-max_len=") for arg in argv):
        argv.append(f"-max_len={MAX_LEN}")
    if not any(arg.startswith("-artifact_prefix=") for arg in argv):
        artifacts = ROOT / "build" / "fuzz"
        artifacts.mkdir(parents=True, exist_ok=True)
        argv.append(f"-artifact_prefix={artifacts}/")
    with tempfile.TemporaryDirectory(prefix="rfc1738-corpus-") as corpus:
        write_corpus(Path(corpus))
        options = [arg for arg in argv[1:] if arg.startswith("-")]
        directories = [arg for arg in argv[1:] if not arg.startswith("-")]
        # libFuzzer writes new inputs to its first corpus directory: the
        # temporary one, unless the caller named one to keep.
        corpus_dirs = [*directories, corpus] if directories else [corpus]
        atheris.Setup([argv[0], *options, *corpus_dirs], test_one_input)
        atheris.Fuzz()


if __name__ == "__main__":
    main()
