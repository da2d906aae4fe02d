"""``safereq serve``: run the language server (stdio by default; ``--tcp HOST:PORT`` for debugging).

Standard output is the LSP channel, so logs go to standard error (or ``--log-file``). The LLM API key is read
from the environment variable ``SAFEREQ_LLM_API_KEY`` when a suggestion command needs it, never from settings.
See docs/language-server.md.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Mapping


def _host_port(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT (e.g. 127.0.0.1:2087), got {text!r}")
    return host or "127.0.0.1", int(port)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve", help="run the language server",
        description="Run the safereq language server for LSP editors. It speaks LSP on standard input/output "
                    "unless --tcp is given. Logs go to standard error.",
    )
    p.add_argument("--tcp", metavar="HOST:PORT", type=_host_port, help="listen on a TCP port instead of stdio (debugging)")
    p.add_argument("--stdio", action="store_true", help="use standard input/output (the default; accepted for editors that pass it)")
    p.add_argument("--log-file", metavar="FILE", help="write the server log to FILE instead of standard error")
    p.add_argument("--log-level", choices=("debug", "info", "warning", "error"), default="info",
                   help="how much to log (default: info)")
    p.set_defaults(handler=run)


def log_format(env: Mapping[str, str]) -> str:
    """The log line's format. An editor that stamps every line with its own time (VS Code's log output channel)
    sets ``SAFEREQ_LOG_TIMESTAMPS=0``; each line then carries one time, not two."""
    stamp = env.get("SAFEREQ_LOG_TIMESTAMPS", "1").strip() != "0"
    return ("%(asctime)s " if stamp else "") + "%(levelname)s %(name)s: %(message)s"


def run(args: argparse.Namespace) -> int:
    handler: logging.Handler
    if args.log_file:
        try:
            handler = logging.FileHandler(args.log_file, encoding="utf-8")
        except OSError as exc:
            print(f"safereq: cannot write the log file {args.log_file}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    else:
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(log_format(os.environ)))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(args.log_level.upper())
    # pygls logs every message body at INFO; keep its chatter for --log-level debug, but let its server
    # module say where it listens ("Serving on ...", logged once the TCP socket is bound).
    logging.getLogger("pygls").setLevel(logging.DEBUG if args.log_level == "debug" else logging.WARNING)
    logging.getLogger("pygls.server").setLevel(logging.getLevelName(args.log_level.upper()))

    from ..lsp.server import serve

    serve(tcp=args.tcp)
    return 0
