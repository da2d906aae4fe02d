"""``workspace/executeCommand``: ``safereq.showTrace`` here, ``safereq.markReviewed`` in :mod:`.impact`; the
agent commands go to :mod:`.agent_bridge`, the report commands (``safereq.coverage``, ``safereq.writeReport``)
to :mod:`.report_bridge`.

``safereq.showTrace`` takes ``[uri, itemId]`` and returns ``{"markdown": str}``: the item and its trace chain
upwards (parents, hazards) and downwards (children, goals, verification).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import agent_bridge, report_bridge
from .command_names import MARK_REVIEWED, SHOW_TRACE
from .errors import invalid

if TYPE_CHECKING:
    from .server import SafereqServer

COMMANDS = (SHOW_TRACE, MARK_REVIEWED, *agent_bridge.COMMANDS, *report_bridge.COMMANDS)


def _uri_and_id(command: str, args: list[Any]) -> tuple[str, str]:
    if len(args) != 2 or not all(isinstance(a, str) and a for a in args):
        raise invalid(f"{command} expects two arguments: the document URI and the item ID, e.g. "
                      '["file:///project/fsr.md", "FSR-3"]')
    return args[0], args[1].strip()


async def execute(ls: SafereqServer, command: str, args: list[Any]) -> Any:
    if command == SHOW_TRACE:
        return show_trace(ls, *_uri_and_id(command, args))
    if command == MARK_REVIEWED:
        from .impact import mark_reviewed

        return mark_reviewed(ls, args)
    if command in agent_bridge.COMMANDS:
        return await agent_bridge.run(ls, command, args)
    if command in report_bridge.COMMANDS:
        return report_bridge.run(ls, command, args)
    raise invalid(f"unknown command {command}")


def show_trace(ls: SafereqServer, uri: str, item_id: str) -> dict[str, str]:
    from ..workspace.trace_view import trace_markdown
    from .impact import trace_marks

    session = ls.session
    session.key(uri)  # the document must be known: a clear error for a wrong URI
    try:
        return {"markdown": trace_markdown(session.workspace, item_id, trace_marks(session))}
    except KeyError:
        raise invalid(f"{item_id} is not defined anywhere in the workspace") from None
