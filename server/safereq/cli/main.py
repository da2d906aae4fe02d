"""Entry point of the ``safereq`` command.

Each command lives in its own module ``safereq.cli.<name>`` exposing ``register(subparsers)``, which adds
a sub-parser whose ``handler`` default takes the parsed arguments and returns the exit status. Command
modules import only the standard library at module level so that ``safereq --help`` stays instant.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import import_module

from .. import __version__

# numpy's OpenBLAS starts a thread per core when numpy is imported, and the threads spin waiting for work:
# about 0.1 s of CPU per process on the 2-core machine (search 0.62 -> 0.50 s, a cold check of 20,000
# requirements 2.37 -> 2.16 s, medians of 9 and 5 interleaved runs). No command multiplies large matrices
# with numpy (the embedding engine has its own threads, OMP_NUM_THREADS), so one BLAS thread is enough.
# Set before any command imports numpy; a value the user set wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

COMMANDS = ["check", "rules", "index", "search", "serve", "mcp", "derive", "links", "rebut", "ask", "diff", "review",
            "merge", "export", "import_", "report"]


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every command; given ``argv`` that names a command, of that one only (so
    ``safereq check`` imports no other command's module: a tenth of its start-up)."""
    parser = argparse.ArgumentParser(
        prog="safereq",
        description="Check, navigate and extend safety requirements written in Markdown (ISO 26262, ISO 21448, ISO/PAS 8800).",
    )
    parser.add_argument("--version", action="version", version=f"safereq {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    first = next((a for a in argv if not a.startswith("-")), None) if argv else None
    named = [name for name in COMMANDS if name.rstrip("_") == first]
    for name in named or COMMANDS:  # anything else (help, a typo, options only) gets every command
        import_module(f"{__package__}.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv`` names (default: the process's arguments); its exit status."""
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    return _dispatch(parser, parser.parse_args(argv))


def console() -> None:
    """The installed ``safereq`` command and ``python -m safereq``: ``main``, then exit.

    A command that sets ``fast_exit`` (``safereq check``) leaves without the interpreter's tear-down: its
    process holds hundreds of thousands of parsed objects, freeing them one by one takes a tenth of a
    second on a large workspace, and nothing is left to do (its output is flushed here, its files were
    written and closed before it returned).
    """
    parser = build_parser(sys.argv[1:])
    args = parser.parse_args()
    status = _dispatch(parser, args)
    if getattr(args, "fast_exit", False):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # a closed pipe: nothing more can be said
                pass
        os._exit(status)
    sys.exit(status)


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    from ..config.environment import misspelt

    for warning in misspelt():
        print(f"safereq: warning: {warning}", file=sys.stderr)
    try:
        return int(handler(args) or 0)
    except KeyboardInterrupt:
        print("safereq: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
