"""The agent in the editor: the "Derive requirements", "Suggest trace links", "Suggest rebuttals" code actions
and the commands behind them.

Listing is cheap: the item under the cursor, three actions, each carrying its command
(``[uri, itemId]``); nothing is computed until one is chosen. The command then runs in the background in the
agent worker (:mod:`.agent_client`) with work-done progress that the user can cancel (cancelling the
command request works too). When the worker answers, the edit is applied only if the document is still the
version it was when the command started; otherwise nothing is applied and the user is told why.

Nothing is written into an item: the suggestions are proposed as a review block (:mod:`safereq.agent.proposing.review`)
that the user accepts or rejects one suggestion at a time (:mod:`.review`). Trace links and rebuttals are
proposed under the item; derived requirements where items of their kind live (:mod:`safereq.agent.proposing.placement`;
``window/showMessageRequest`` asks when documents tie), written like their neighbours, and that document is
shown (``window/showDocument``). The worker runs the request exactly as ``safereq derive|links|rebut`` does,
so the editor offers the same suggestions with the same citations.

Returns to the client ``{"mode", "count", "proposed", "applied", "document", "message", "notes", "worker"}``
(``SuggestionSummary`` in client-vscode/src/protocol.ts); ``count`` is the number proposed in the document,
``worker`` whether the worker was warm and which modules the request had to import.
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


def _configure(ls: SafereqServer) -> AgentClient:
    """The worker client, configured from the session (index folder, LLM settings, not-modal words)."""
    from ..agent.item.context import not_modal_words
    from .status import index_path

    session = ls.session
    client = agent(ls)
    client.configure(str(index_path(session)), _llm_settings(session), not_modal_words(session.config))
    return client


def warm(ls: SafereqServer) -> None:
    """Start the worker in the background, configured as the first command will be, and have it load what
    that command needs (the knowledge source, the pipeline's modules, openai and LlamaIndex when an endpoint
    is configured), so the first code action is as fast as the next. Not awaited: typing never waits for it."""
    future = _configure(ls).warm()
    future.add_done_callback(lambda f: f.exception() and log.info("agent warm-up failed: %s", f.exception()))


def stop(ls: SafereqServer) -> None:
    """Stop the worker (on shutdown)."""
    if ls.agent_client is not None:
        ls.agent_client.stop()


def code_actions(ls: SafereqServer, uri: str, line: int) -> list[types.CodeAction]:
    """The agent actions for the item at ``line`` (0-based, core lines) of ``uri``, and Accept / Reject on a
    line of a review block; cheap, no agent work."""
    from .review import code_actions as review_actions

    session = ls.session
    session.sync()
    key = session.key(uri)
    out = review_actions(ls, key, line)
    item = session.workspace.item_at(key, line)
    if item is None:
        return out
    category = session.workspace.category(item)
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
    from .agent_client import WorkerError

    task = TASKS[command]
    if len(args) != 2 or not all(isinstance(a, str) and a for a in args):
        raise invalid(f"{command} expects two arguments: the document URI and the item ID")
    uri, item_id = args[0], args[1].strip()
    session = ls.session
    session.sync()
    key = session.key(uri)
    _find(session, key, item_id)  # an unknown item is an invalid request, before any work starts
    version, text = session.version(key), session.workspace.documents[key].text
    client = _configure(ls)
    await asyncio.wrap_future(client.sync({p: d.text for p, d in session.workspace.documents.items()}))

    progress = Progress(ls, f"{TITLES[task]} for {item_id}")
    msg_id, future = client.request("run", {"task": task, "path": key, "item": item_id},
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


def _changed(session: Any, key: str, version: int | None, text: str) -> bool:
    doc = session.workspace.documents.get(key)
    return doc is None or session.version(key) != version or doc.text != text


def _name(session: Any, path: str, among: list[str]) -> str:
    """A document as the user knows it: its file name, or its path from the folder the candidates share."""
    import os

    names = [os.path.basename(p) for p in among]
    if names.count(os.path.basename(path)) == 1:
        return os.path.basename(path)
    try:
        return os.path.relpath(path, os.path.commonpath(among))
    except ValueError:
        return session.uri(path)


async def _ask_document(ls: SafereqServer, kind: str, tied: list[str]) -> str | None:
    """Ask which document the derived items go to when several hold equally many items of their kind."""
    names = {_name(ls.session, p, tied): p for p in tied}
    choice = await ls.window_show_message_request_async(types.ShowMessageRequestParams(
        type=types.MessageType.Info,
        message=f"safereq: {len(tied)} documents hold equally many {kind} items. Where should the derived "
                f"{kind} items be proposed?",
        actions=[types.MessageActionItem(title=n) for n in names]))
    return names.get(choice.title) if choice is not None else None


async def _apply(ls: SafereqServer, task: str, key: str, item_id: str, version: int | None, text: str,
                 result: dict[str, Any]) -> dict[str, Any]:
    """Propose the suggestions as a review block: for trace links and rebuttals under the item, for derived
    requirements where items of their kind live (asking when that is not clear), in that document's style."""
    from ..agent.proposing.placement import choose_document, kind_of, place, section_end
    from ..agent.proposing.review import propose
    from ..agent.writing.suggestions import DerivedRequirement, from_json
    from .edits import workspace_edit

    suggestions = from_json(result)
    summary = {"mode": suggestions.mode, "count": 0, "applied": False, "notes": suggestions.notes,
               "worker": result.get("worker", {})}
    session = ls.session
    session.sync()
    stale = (f"{TITLES[task]} for {item_id}: the document changed while the suggestions were computed, "
             "so nothing was proposed. Run the action again.")
    if _changed(session, key, version, text):
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=stale))
        return {**summary, "message": stale}
    item = _find(session, key, item_id)
    path, where = key, ""
    if task == "derive":
        kind = kind_of([s for s in suggestions.suggestions if isinstance(s, DerivedRequirement)])
        target, tied = choose_document(session.workspace, kind, key)
        if target is None:
            target = await _ask_document(ls, kind, tied)
            if target is None:
                message = f"{TITLES[task]} for {item_id}: no document chosen, so nothing was proposed."
                return {**summary, "message": message}
            session.sync()
            if _changed(session, key, version, text) or target not in session.workspace.documents:
                ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=stale))
                return {**summary, "message": stale}
            item = _find(session, key, item_id)
        placement = place(session.workspace, target, item, kind)
        path = target
        where = f" for {_name(session, target, [target])}, {placement.reason}"
        block, count = propose(suggestions, placement.style, where)
        lines = session.workspace.documents[path].text.split("\n")
        at = placement.line
    else:
        block, count = propose(suggestions)
        lines = session.workspace.documents[path].text.split("\n")
        at = section_end(lines, item.line)
    if not count:
        message = f"{TITLES[task]} for {item_id}: nothing to suggest ({'; '.join(suggestions.notes) or 'no evidence'})"
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Info, message=message))
        return {**summary, "message": message}
    edit, block_line = _block_edit(path, lines, at, block, task, item_id)
    response = await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
        edit=workspace_edit(session, ls.client_capabilities, [edit]),
        label=f"safereq: {TITLES[task].lower()} for {item_id}"))
    applied = bool(response and response.applied)
    noun = "suggestion" if count == 1 else "suggestions"
    where_doc = _name(session, path, [path])
    if applied:
        message = (f"{TITLES[task]} for {item_id}: {count} {noun} proposed for review in {where_doc} "
                   f"({suggestions.mode}); accept or reject each one there.")
        if path != key:
            await _reveal(ls, path, block_line)
    else:
        message = (f"{TITLES[task]} for {item_id}: the editor did not apply the edit"
                   + (f" ({response.failure_reason})" if response and response.failure_reason else ""))
    return {**summary, "count": count if applied else 0, "proposed": count, "applied": applied,
            "document": session.uri(path), "message": message}


def _block_edit(path: str, lines: list[str], at: int, block: str, task: str, item_id: str) -> tuple[Any, int]:
    """Insert ``block`` before line ``at`` — or replace an earlier review block of the same task and item,
    whose proposals the new ones supersede. Returns the edit and the line the block will start at."""
    from ..agent.proposing.review import blocks
    from ..checks.findings import Edit
    from ..model.ranges import Span

    old = next((b for b in blocks(lines) if b.task == task and b.item_id == item_id), None)
    if old is not None:
        end, last = old.end, len(lines) - 1
        if end < last and not lines[end].strip():
            return Edit(path, Span(old.start, 0, end + 1, 0), block), old.start
        if end < last:  # something follows right after the old block
            return Edit(path, Span(old.start, 0, end, 0), block), old.start
        if end == last and not lines[last]:  # the old block ends the document
            return Edit(path, Span(old.start, 0, last, 0), block.rstrip("\n") + "\n"), old.start
        return Edit(path, Span(old.start, 0, last, len(lines[last])), block.rstrip("\n")), old.start
    if at >= len(lines):
        last = len(lines) - 1
        if not lines[last]:  # the document ends with a newline: insert on its last, empty line
            lead = "\n" if last > 0 and lines[last - 1].strip() else ""
            return Edit(path, Span(last, 0, last, 0), lead + block.rstrip("\n") + "\n"), last + len(lead)
        end = Span(last, len(lines[last]), last, len(lines[last]))
        return Edit(path, end, "\n\n" + block.rstrip("\n") + "\n"), last + 2
    if at > 0 and lines[at - 1].strip():
        return Edit(path, Span(at, 0, at, 0), "\n" + block), at + 1
    return Edit(path, Span(at, 0, at, 0), block), at


async def _reveal(ls: SafereqServer, path: str, line: int) -> None:
    """Show the block to the user when it went into another document (if the client can show documents)."""
    caps = ls.client_capabilities
    if not (caps and caps.window and caps.window.show_document and caps.window.show_document.support):
        return
    try:
        await ls.window_show_document_async(types.ShowDocumentParams(
            uri=ls.session.uri(path), take_focus=True,
            selection=types.Range(types.Position(line, 0), types.Position(line, 0))))
    except Exception as exc:  # the client could not show it: the message still names the document
        log.info("showDocument failed: %s", exc)
