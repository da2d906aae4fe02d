"""``safereq.showTrace``: the item and its trace chain upwards (parents, hazards) and downwards (children,
goals, verification). Takes ``[uri, itemId]`` and returns ``{"markdown": str}``.

Every command is listed in ``COMMANDS`` in :mod:`.server`, beside the features; this module holds the one
that is neither about the knowledge base, the agent nor change impact.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import invalid

if TYPE_CHECKING:
    from .server import SafereqServer


def uri_and_id(command: str, args: list[Any]) -> tuple[str, str]:
    """The ``[uri, itemId]`` arguments of ``command``, or a clear error with an example."""
    if len(args) != 2 or not all(isinstance(a, str) and a for a in args):
        raise invalid(f"{command} expects two arguments: the document URI and the item ID, e.g. "
                      '["file:///project/fsr.md", "FSR-3"]')
    return args[0], args[1].strip()


def show_trace_command(ls: SafereqServer, command: str, args: list[Any]) -> dict[str, str]:
    return show_trace(ls, *uri_and_id(command, args))


def show_trace(ls: SafereqServer, uri: str, item_id: str) -> dict[str, str]:
    from ..workspace.trace_view import trace_markdown
    from .impact import trace_marks

    session = ls.session
    session.key(uri)  # the document must be known: a clear error for a wrong URI
    try:
        return {"markdown": trace_markdown(session.workspace, item_id, trace_marks(session))}
    except KeyError:
        raise invalid(f"{item_id} is not defined anywhere in the workspace") from None
