"""``safereq mcp``: the Model Context Protocol server over the workspace it is started in (stdio by default,
streamable HTTP with ``--http``, bound to 127.0.0.1 unless ``--host`` says otherwise). See docs/mcp.md.

Standard output is the protocol channel; messages go to standard error. The server and the ``mcp`` SDK are
imported only when the command runs, so ``safereq --help`` does not pay for them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import UsageError


def _port(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise argparse.ArgumentTypeError(f"expected a port number (1-65535), got {text!r}")
    return int(text)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "mcp", help="run the MCP server for coding agents (read-only tools over the workspace)",
        description="Serve the requirement documents under FOLDER (default: the current folder) to MCP clients "
                    "(VS Code agent mode, Claude Code, …): find and get items with their trace, check, explain "
                    "rules, coverage, change impact, suspect links, knowledge search and suggestions. Read-only. "
                    "Speaks MCP on standard input/output unless --http is given.",
    )
    p.add_argument("folders", nargs="*", metavar="FOLDER", help="workspace folders (default: .)")
    p.add_argument("--config", metavar="FILE", help="use this safereq.toml or pyproject.toml instead of searching")
    p.add_argument("--http", action="store_true", help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio")
    p.add_argument("--host", default="127.0.0.1", help="address to bind with --http (default: 127.0.0.1, this "
                                                         "machine only)")
    p.add_argument("--port", type=_port, default=8765, help="port with --http (default: 8765)")
    p.add_argument("--index-dir", metavar="DIR", help="knowledge-base index (default: the configuration's, else "
                                                      "$SAFEREQ_INDEX or FOLDER/.safereq/index)")
    p.add_argument("--offline", action="store_true", help="never call an LLM, even when one is configured")
    p.add_argument("--llm-base-url", metavar="URL", help="OpenAI-compatible endpoint (default: $SAFEREQ_LLM_BASE_URL)")
    p.add_argument("--llm-model", metavar="NAME", help="model name (default: $SAFEREQ_LLM_MODEL)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from .errors import guarded

    return guarded(_run, args)


def _run(args: argparse.Namespace) -> int:
    folders = [Path(f) for f in (args.folders or ["."])]
    for folder in folders:
        if not folder.is_dir():
            raise UsageError(f"{folder}: not a folder")
    config = Path(args.config) if args.config else None
    if config is not None and not config.is_file():
        raise UsageError(f"{args.config}: configuration file not found")
    try:
        from ..mcp.server import serve
        from ..mcp.state import Options
    except ImportError as exc:
        raise UsageError(f"the MCP server needs the 'mcp' package ({exc}); install safereq with its "
                         "dependencies") from None
    options = Options(tuple(folders), config, args.index_dir, args.offline, args.llm_base_url, args.llm_model)
    if args.http and args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"safereq mcp: warning: serving on {args.host}, reachable from other machines; the server has no "
              "authentication", file=sys.stderr)
    serve(options, http=args.http, host=args.host, port=args.port)
    return 0
