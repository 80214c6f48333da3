"""The command line: ``rfc1738 parse | check | find | tree | grammar | generate``.

Installed as the ``rfc1738`` console script (:func:`run`); ``python -m
rfc1738`` runs the same. Every command takes ``--grammar DIR`` to use an
edited copy of the grammar directory instead of the shipped one
(:func:`rfc1738.load`).

Exit status (docs/cli.md lists each command's): 0 when everything given was
valid (or the command did its work), 1 when a URL was invalid or a lint
found an error, 2 for bad usage, a grammar that cannot be loaded, a closed
stdin or stdout, or a file that cannot be read or written, 3 when no URL
was invalid but one was too long for the reference parser to judge, and 141
(128 + SIGPIPE) when the reader of stdout went away.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn, get_args

from ..columns import Engine
from ..errors import InputTooLongError, RFC1738Error, URLSyntaxError
from ..output.table import TABLE_FORMATS
from ..runtime.dispatch import ParserName
from ..runtime.exported import DIALECT_NAMES
from ..urls import Grammar, load
from ..version import __version__
from .check import check, installed_engine
from .find import find
from .output import (
    BROKEN_PIPE,
    INTERRUPTED,
    INVALID,
    OK,
    TOO_LONG,
    USAGE,
    Refusals,
    not_utf8_message,
    result_dict,
    say,
    write_json,
)

__all__ = ["main", "run"]

#: What a command runs: the parsed arguments in, the exit status out.
Command = Callable[[argparse.Namespace], int]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (``sys.argv[1:]`` when ``None``)."""
    if sys.stdout is None:
        # Started with stdout closed (``rfc1738 parse URL >&-``): Python has no
        # sys.stdout. Every command prints there, so none can do its work.
        say("cannot write the output: standard output is closed")
        return USAGE
    for stream in (sys.stdout, sys.stderr):
        # Reasons quote the offending character; never fail to print one.
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    args = _parser().parse_args(argv)
    command: Command = args.command
    try:
        status = command(args)
        # Written out here, so that a reader gone away or an output that
        # cannot be written is seen here, not by the interpreter's last flush.
        sys.stdout.flush()
        return status
    except RFC1738Error as error:
        # A grammar that does not load or compile, an unknown rule, a missing extra.
        say(str(error))
        return USAGE
    except BrokenPipeError:
        # The reader went away (``rfc1738 check --jsonl big.txt | head``): stop
        # quietly, and keep the interpreter's last flush from failing again.
        _discard_stdout()
        return BROKEN_PIPE
    except KeyboardInterrupt:
        # Ctrl-C: no traceback; end as Python itself would after one, by SIGINT
        # (which a shell running the command in a loop sees, and stops).
        _interrupted()
        return INTERRUPTED  # where no signal ended it
    except OSError as error:  # a file to write (-o) or read that cannot be, or a stream
        say(str(error))
        try:
            sys.stdout.flush()
        except OSError:  # stdout itself (open for reading only): not again at exit
            _discard_stdout()
        return USAGE


def run() -> NoReturn:
    """The ``rfc1738`` command (the console script, ``python -m rfc1738``): :func:`main`, then exit.

    Once the output is flushed, and where nothing is left to clean up (no
    thread but daemons besides this one, DuckDB's connections closed, which
    removes what DuckDB may have spilled to disk), the process ends at once
    (``os._exit``), without the interpreter freeing every module and object
    first, as mypy ends: 3 to 7 ms of ``rfc1738 parse URL``'s 55 ms, 10 to
    25 ms of ``rfc1738 check FILE``'s 0.36 s on DuckDB (runs in turn).
    Otherwise, or if a flush fails, it exits as usual (``sys.exit``).
    :func:`main` returns the status instead.
    """
    _end(main())


def _end(status: int) -> NoReturn:
    """End the process with ``status``: at once where nothing needs the interpreter's teardown."""
    runners = sys.modules.get("rfc1738.columns.runners")
    try:
        if runners is not None:
            runners.close_runners()
    except Exception:  # (DuckDB's own error): its teardown at exit closes them instead
        sys.exit(status)
    threads = sys.modules.get("threading")
    if threads is not None and any(
        thread is not threads.main_thread() and not thread.daemon and thread.is_alive()
        for thread in threads.enumerate()
    ):
        sys.exit(status)  # the interpreter waits for them
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        sys.exit(status)  # what the interpreter makes of it, as without this
    os._exit(status)


def _interrupted() -> None:
    """What was written so far, flushed; then this process ended by SIGINT, where there is one."""
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    if os.name == "posix":
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)


def _discard_stdout() -> None:
    """Point stdout at the null device: what is still buffered goes nowhere, quietly."""
    # A stdout with no file descriptor of its own (a test's capture) is left as it is.
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


# ---- the commands ----


def _load(args: argparse.Namespace) -> Grammar:
    return load(args.grammar)


def _parse(args: argparse.Namespace) -> int:
    grammar = _load(args)
    refusals = Refusals(grammar, args.parser, args.host_checks)
    invalid = too_long = False
    for text in args.urls:
        result = result_dict(
            grammar, text, parser=args.parser, host_checks=args.host_checks, refusals=refusals
        )
        write_json(result, sys.stdout, pretty=args.pretty)
        if result["valid"] is None:
            too_long = True
        elif not result["valid"]:
            invalid = True
    return INVALID if invalid else TOO_LONG if too_long else OK


def _check(args: argparse.Namespace) -> int:
    return check(args, _load(args))


def _find(args: argparse.Namespace) -> int:
    return find(args, _load(args))


def _tree(args: argparse.Namespace) -> int:
    grammar = _load(args)
    try:
        tree = grammar.parse_tree(args.url)
    except URLSyntaxError as error:
        encoding = not_utf8_message(args.url)
        say(encoding or str(error))
        return TOO_LONG if isinstance(error, InputTooLongError) and not encoding else INVALID
    if args.full:
        print(tree.pretty(), end="")
    else:
        from ..tools.treeview import format_tree  # Lark: parse trees

        print(format_tree(tree, args.url))
    return OK


def _generate(args: argparse.Namespace) -> int:
    # Generating compiles the grammar's character sets with Lark: imported when
    # run, so that `rfc1738 parse` and `check` never import Lark.
    from ..tools.generator import NotRegularWarning, generate

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", NotRegularWarning)
        written = generate(args.grammar, args.output)
    print(f"wrote {written}")
    for warning in caught:
        print(f"rfc1738: warning: {warning.message}", file=sys.stderr)
    return OK


def _grammar(name: str) -> Command:
    def run(args: argparse.Namespace) -> int:
        # The grammar commands read grammar files through Lark: imported when
        # run, so that `rfc1738 parse` and `check` never import Lark.
        from .grammar import COMMANDS

        command: Command = COMMANDS[name]
        return command(args)

    return run


# ---- the argument parser ----


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--grammar",
        metavar="DIR",
        type=Path,
        help="use the grammar files of DIR (an edited copy) instead of the shipped ones",
    )
    parsing = argparse.ArgumentParser(add_help=False)
    parsing.add_argument(
        "--parser",
        choices=get_args(ParserName),
        default="fast",
        help="the compiled expressions (default) or Lark Earley; the objects are the same",
    )
    parsing.add_argument(
        "--no-host-checks",
        dest="host_checks",
        action="store_false",
        help="the bare grammar: no limits on label, host name, hostnumber part and port",
    )

    parser = argparse.ArgumentParser(
        prog="rfc1738",
        description="Parse URLs strictly by the grammar of RFC 1738, and inspect that grammar.",
    )
    parser.add_argument("--version", action="version", version=f"rfc1738 {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)

    parse = commands.add_parser(
        "parse",
        parents=[common, parsing],
        help="print each URL's fields (or its error) as JSON",
        description=(
            "Print one JSON object per URL: its class and every field, raw and decoded, "
            "or where and why it is not a URL. Exit status 1 if any is invalid."
        ),
    )
    parse.add_argument("urls", nargs="+", metavar="URL")
    parse.add_argument("--pretty", action="store_true", help="indent the JSON")
    parse.set_defaults(command=_parse)

    check = commands.add_parser(
        "check",
        parents=[common, parsing],
        help="validate a file of URLs, one a line",
        description=(
            "Validate one URL a line (only the line ending is stripped) and print a summary: "
            "lines, valid and invalid by scheme, the first errors, and the engine that "
            "judged them (DuckDB when rfc1738[duckdb] is installed, else the library in "
            "Python). Exit status 1 if any line is invalid."
        ),
    )
    check.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="the file to read; - (default) for stdin",
    )
    check.add_argument(
        "--show",
        type=_count,
        default=10,
        metavar="N",
        help="how many errors the summary shows (default 10)",
    )
    written = check.add_mutually_exclusive_group()
    written.add_argument(
        "--jsonl",
        action="store_true",
        help="instead of the summary, one JSON object a line, as parse prints",
    )
    written.add_argument(
        "--format",
        choices=TABLE_FORMATS,
        help=(
            "one row a line: line number, text, verdict, the struct's fields, and for an "
            "invalid line its position, rule and reason (parquet needs pyarrow)"
        ),
    )
    check.add_argument(
        "--output",
        metavar="PATH",
        help="where --format writes (default: standard output; the summary goes there)",
    )
    engine = installed_engine()
    check.add_argument(
        "--engine",
        choices=get_args(Engine),
        help=(
            "what judges the lines for the summary and --format: duckdb (with rfc1738[duckdb]) "
            f"or python; default: {engine} here (duckdb when installed)"
        ),
    )
    check.set_defaults(command=_check)

    find = commands.add_parser(
        "find",
        parents=[common],
        help="find the URLs in a text: <URL:...>, <...> and bare ones",
        description=(
            "Print one JSON object per URL found in the text (RFC 1738 appendix): its span, "
            "the URL as extracted, its fragment, and its fields or its error. Exit status 1 "
            "if a delimited URL is invalid."
        ),
    )
    find.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="the file to read; - (default) for stdin",
    )
    find.add_argument(
        "--no-host-checks",
        dest="host_checks",
        action="store_false",
        help="the bare grammar: no limits on label, host name, hostnumber part and port",
    )
    find.set_defaults(command=_find)

    tree = commands.add_parser(
        "tree",
        parents=[common],
        help="print the reference parse tree of a URL",
        description="Print the Earley parse tree of a URL: one line per production.",
    )
    tree.add_argument("url", metavar="URL")
    tree.add_argument("--full", action="store_true", help="Lark's own view, every token shown")
    tree.set_defaults(command=_tree)

    grammar = commands.add_parser(
        "grammar",
        help="list, show, lint, draw and export the grammar's rules",
        description="Inspect the grammar files.",
    )
    inspect = grammar.add_subparsers(title="commands", metavar="COMMAND", required=True)
    listing = inspect.add_parser(
        "list",
        parents=[common],
        help="every rule and terminal, with its file, line and BNF line",
    )
    listing.set_defaults(command=_grammar("list_rules"))
    show = inspect.add_parser(
        "show",
        parents=[common],
        help="one rule: BNF line, comments, Lark source, where, uses, used by",
    )
    show.add_argument("rule", metavar="RULE", help="its Lark name or its BNF name (ip-schemepart)")
    show.set_defaults(command=_grammar("show_rule"))
    deps = inspect.add_parser(
        "deps",
        parents=[common],
        help="what a rule uses, transitively, as a tree",
    )
    deps.add_argument("rule", metavar="RULE")
    deps.add_argument(
        "--reverse", action="store_true", help="what uses the rule instead, transitively"
    )
    deps.set_defaults(command=_grammar("dependencies"))
    lint = inspect.add_parser(
        "lint",
        parents=[common],
        help="problems of the grammar directory (exit status 1 if any is an error)",
    )
    lint.set_defaults(command=_grammar("lint"))
    diagram = inspect.add_parser(
        "diagram",
        parents=[common],
        help="a railroad diagram (SVG) of RULE, or the HTML page of every rule",
    )
    diagram.add_argument("rule", nargs="?", metavar="RULE")
    diagram.add_argument(
        "-o", "--output", required=True, metavar="PATH", help="where to write it; - for stdout"
    )
    diagram.set_defaults(command=_grammar("diagram"))
    exporting = inspect.add_parser(
        "export",
        parents=[common],
        help=f"the grammar as regular expressions for {_or(DIALECT_NAMES)}",
        description=(
            "Write each scheme's full-match pattern in a regex dialect, with its capture "
            "groups, and one pattern for any URL. The host checks are left out."
        ),
    )
    exporting.add_argument("--dialect", required=True, choices=DIALECT_NAMES)
    exporting.add_argument(
        "--scheme", metavar="S", help="only this scheme's pattern (any: the dispatching one)"
    )
    exporting.add_argument("--format", choices=("json", "text"), default="json")
    exporting.add_argument("--pretty", action="store_true", help="indent the JSON")
    exporting.set_defaults(command=_grammar("export"))

    generate = commands.add_parser(
        "generate",
        parents=[common],
        help="write a standalone Python module that parses without lark",
        description=(
            "Write one Python file holding the compiled expressions and the URL classes: "
            "importable where lark is not installed."
        ),
    )
    generate.add_argument("-o", "--output", required=True, metavar="PATH", help="the file to write")
    generate.set_defaults(command=_generate)
    return parser


def _or(names: Sequence[str]) -> str:
    """``a, b or c``."""
    return f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else "".join(names)


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"cannot be negative: {value}")
    return value
