"""The wiring: an SDK ``MCPServer`` with safereq's tools, resources and prompts, over stdio or streamable HTTP.

Every tool is registered read-only (annotations say so) and guarded: a :class:`Refused` becomes a tool error
with its sentence; any other exception, a bug, becomes a one-line tool error naming the exception type and
never a traceback (the traceback goes to the server's log on standard error only with ``SAFEREQ_DEBUG=1``).
The workspace loads before the first answer; standard output carries nothing but the protocol.
"""

from __future__ import annotations

import functools
import inspect
import logging
import os
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp_types import ToolAnnotations

from .. import __version__
from . import prompts, resources, tools
from .errors import Refused
from .schemas import NOTICE
from .state import Options, Served

log = logging.getLogger("safereq.mcp")

INSTRUCTIONS = (
    "safereq serves the safety requirements (ISO 26262, ISO 21448, ISO/PAS 8800) of this workspace: find and "
    "get items with their trace chain and ASIL, check documents, explain rules, trace coverage, the change "
    "impact of a revision range, suspect links, the knowledge base, and proposals (links, derived "
    "requirements, rebuttals) with verified citations. Every tool is read-only; nothing is written. "
    + NOTICE
)
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                            open_world_hint=False)


def _internal(exc: Exception) -> str:
    if os.environ.get("SAFEREQ_DEBUG"):
        log.exception("internal error")
    return (f"internal error in safereq: {type(exc).__name__}: {str(exc)[:300]} (please report it; "
            "SAFEREQ_DEBUG=1 logs the traceback on the server's standard error)")


def guarded(fn: Callable, refusal: type[Exception], failure: type[Exception]) -> Callable:
    """``fn`` with a :class:`Refused` raised as ``refusal`` (its sentence for the client) and any other
    exception, a bug, as ``failure`` with one line; the SDK's own errors of that kind pass through."""

    @functools.wraps(fn)
    def run(**kwargs: Any) -> Any:
        try:
            return fn(**kwargs)
        except Refused as exc:
            raise refusal(str(exc)) from None
        except failure:
            raise
        except Exception as exc:  # a bug: one line, no traceback to the client
            raise failure(_internal(exc)) from None

    return run


def build(served: Served) -> MCPServer:
    """The server over ``served``; its workspace is loaded here, before the first request."""
    app = MCPServer("safereq", title="safereq", version=__version__, instructions=INSTRUCTIONS,
                    website_url=None, log_level="WARNING")

    def tool(name: str, title: str) -> Callable[[Callable], Callable]:
        def decorate(fn: Callable) -> Callable:
            app.add_tool(guarded(fn, ToolError, ToolError), name=name, title=title,
                         description=inspect.cleandoc(fn.__doc__ or ""), annotations=READ_ONLY, structured_output=True)
            return fn

        return decorate

    tools.register(app, served, tool)
    resources.register(app, served, lambda fn: guarded(fn, ResourceNotFoundError, ResourceError))
    prompts.register(app)
    served.fresh()  # loaded and checked before the first request (and before any thread starts: it may fork)
    return app


def serve(options: Options, *, http: bool = False, host: str = "127.0.0.1", port: int = 8765) -> None:
    """Run until the client closes standard input (stdio) or the process is stopped (HTTP)."""
    app = build(Served(options))
    if http:
        app.run("streamable-http", host=host, port=port)
    else:
        app.run("stdio")
