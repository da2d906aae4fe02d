"""The agent in the editor: the "Derive requirements", "Suggest trace links", "Suggest rebuttals" code actions
and the commands behind them.

Listing is cheap: the item under the cursor, three actions, each carrying its command
(``[uri, itemId]``); nothing is computed until one is chosen. The command then runs in the background in the
agent worker (:mod:`.agent_client`) with work-done progress that the user can cancel (cancelling the
command request works too). When the worker answers, the edit is applied only if the document is still the
version it was when the command started; otherwise nothing is applied and the user is told why. Derived
requirements are inserted as proper items after the source item's subtree; trace links and rebuttals as a
review block (see :mod:`safereq.agent.render`). Only verified citations are written into the document.

Returns to the client ``{"mode", "count", "applied", "message", "notes"}`` (``SuggestionSummary`` in
client-vscode/src/protocol.ts reads ``mode`` and ``count``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from .command_names import DERIVE_REQUIREMENTS, SUGGEST_REBUTTALS, SUGGEST_TRACE_LINKS
from .errors import failed, invalid
from .progress import Progress

if TYPE_CHECKING:
    from ..model.document import Item
    from .agent_client import AgentClient
    from .server import SafereqServer

log = logging.getLogger(__name__)

ACTION_KIND = "refactor.safereq"
TASKS = {DERIVE_REQUIREMENTS: "derive", SUGGEST_TRACE_LINKS: "links", SUGGEST_REBUTTALS: "rebut"}
TITLES = {"derive": "Derive requirements", "links": "Suggest trace links", "rebut": "Suggest rebuttals"}
CATEGORIES = {
    "derive": {"safety-goal", "safety-requirement", "requirement"},
    "links": {"safety-goal", "safety-requirement", "requirement", "claim"},
    "rebut": {"safety-goal", "safety-requirement", "requirement", "claim"},
}


def agent(ls: SafereqServer) -> AgentClient:
    """The server's agent worker client (created on first use; the process starts on first request)."""
    if ls.agent_client is None:
        from .agent_client import AgentClient

        ls.agent_client = AgentClient()
    return ls.agent_client


def stop(ls: SafereqServer) -> None:
    """Stop the worker (on shutdown)."""
    if ls.agent_client is not None:
        ls.agent_client.stop()


def code_actions(ls: SafereqServer, uri: str, line: int) -> list[types.CodeAction]:
    """The agent actions for the item at ``line`` (0-based, core lines) of ``uri``; cheap, no agent work."""
    session = ls.session
    session.sync()
    key = session.key(uri)
    item = session.workspace.item_at(key, line)
    if item is None:
        return []
    category = session.workspace.category(item)
    out = []
    for command, task in TASKS.items():
        if category in CATEGORIES[task]:
            title = f"{TITLES[task]} for {item.id}"
            out.append(types.CodeAction(title=title, kind=ACTION_KIND,
                                        command=types.Command(title=title, command=command, arguments=[uri, item.id])))
    return out


def _llm_settings(session: Any) -> dict[str, Any]:
    return {**session.file_config.llm.values(), **session.settings.llm.values()}


def _find(session: Any, key: str, item_id: str) -> Item:
    for item in session.workspace.definitions(item_id):
        if item.path == key:
            return item
    raise invalid(f"{item_id} is not defined in {session.uri(key)}")


async def run_agent_command(ls: SafereqServer, command: str, args: list[Any]) -> dict[str, Any]:
    """Carry out one agent command for ``[uri, itemId]``: compute in the worker, then apply a versioned edit."""
    from ..agent.context import not_modal_words
    from .agent_client import WorkerError
    from .status import index_path

    task = TASKS[command]
    if len(args) != 2 or not all(isinstance(a, str) and a for a in args):
        raise invalid(f"{command} expects two arguments: the document URI and the item ID")
    uri, item_id = args[0], args[1].strip()
    session = ls.session
    session.sync()
    key = session.key(uri)
    item = _find(session, key, item_id)
    version, text = session.version(key), session.workspace.documents[key].text
    client = agent(ls)
    client.configure(str(index_path(session)), _llm_settings(session), not_modal_words(session.config))
    await asyncio.wrap_future(client.sync({p: d.text for p, d in session.workspace.documents.items()}))

    progress = Progress(ls, f"{TITLES[task]} for {item_id}")
    msg_id, future = client.request("run", {"task": task, "path": key, "item": item_id, "drop_unverified": True},
                                    on_progress=lambda message, percentage: progress.report(percentage, message))
    await progress.begin(lambda: client.cancel(msg_id))
    try:
        result = await asyncio.wrap_future(future)
    except asyncio.CancelledError:
        client.cancel(msg_id)
        progress.end("cancelled")
        raise
    except WorkerError as exc:
        progress.end("cancelled" if exc.kind == "cancelled" else "failed")
        if exc.kind == "cancelled":
            return {"mode": "", "count": 0, "applied": False, "message": "cancelled", "notes": []}
        raise failed(f"{TITLES[task]} failed: {exc}") from None
    progress.end("done")
    return await _apply(ls, task, key, item_id, version, text, result)


async def _apply(ls: SafereqServer, task: str, key: str, item_id: str, version: int | None, text: str,
                 result: dict[str, Any]) -> dict[str, Any]:
    from ..agent.render import derived_items, insertion_line, review_block
    from ..agent.suggestions import from_json
    from ..checks.findings import Edit
    from ..model.ranges import Span
    from .edits import workspace_edit

    suggestions = from_json(result)
    summary = {"mode": suggestions.mode, "count": len(suggestions.suggestions), "applied": False,
               "notes": suggestions.notes}
    session = ls.session
    session.sync()
    doc = session.workspace.documents.get(key)
    if doc is None or session.version(key) != version or doc.text != text:
        message = (f"{TITLES[task]} for {item_id}: the document changed while the suggestions were computed, "
                   "so nothing was inserted. Run the action again.")
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=message))
        return {**summary, "message": message}
    item = _find(session, key, item_id)
    new_text = derived_items(suggestions, item.level) if task == "derive" else review_block(suggestions)
    if not new_text:
        message = f"{TITLES[task]} for {item_id}: nothing to suggest ({'; '.join(suggestions.notes) or 'no evidence'})"
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Info, message=message))
        return {**summary, "count": 0, "message": message}
    lines = doc.text.split("\n")
    at = insertion_line(lines, item.line, item.level)
    if at >= len(lines):
        last = len(lines) - 1
        span = Span(last, len(lines[last]), last, len(lines[last]))
        new_text = ("\n" if lines[last].strip() else "") + "\n" + new_text.rstrip("\n") + "\n"
    else:
        span = Span(at, 0, at, 0)
        if at > 0 and lines[at - 1].strip():
            new_text = "\n" + new_text
    edit = workspace_edit(session, ls.client_capabilities, [Edit(key, span, new_text)])
    response = await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
        edit=edit, label=f"safereq: {TITLES[task].lower()} for {item_id}"))
    applied = bool(response and response.applied)
    message = (f"{TITLES[task]} for {item_id}: {summary['count']} suggestion(s) inserted ({suggestions.mode})"
               if applied else f"{TITLES[task]} for {item_id}: the editor did not apply the edit"
               + (f" ({response.failure_reason})" if response and response.failure_reason else ""))
    return {**summary, "applied": applied, "message": message}
