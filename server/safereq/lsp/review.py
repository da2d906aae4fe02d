"""Accept / Reject in the editor: code lenses and code actions on each suggestion of a review block, and the
``safereq.review.accept`` / ``safereq.review.reject`` commands behind them.

Both commands take ``[uri, version, line]``: the document, the version the lens or action was computed for,
and the line of a suggestion (the block's header line means every suggestion of the block). A command for a
version the document has left is refused (the lenses are recomputed for the new text; run it again). What
the decision changes is computed on the current text by :func:`safereq.agent.proposing.review.resolve` and applied as
one versioned WorkspaceEdit. Returns ``{"applied", "accepted", "rejected", "left", "message"}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

from .errors import invalid

if TYPE_CHECKING:
    from .server import SafereqServer

from .command_names import REVIEW_ACCEPT as ACCEPT, REVIEW_REJECT as REJECT
_MARK = "> **safereq review: "
_VSCODE_CLIENTS = ("visual studio code", "code - oss", "vscodium", "code-server", "cursor", "windsurf")


def _blocks(ls: SafereqServer, key: str):
    from ..agent.proposing.review import blocks

    doc = ls.session.workspace.documents.get(key)
    if doc is None or _MARK not in doc.text:
        return []
    return blocks(doc.text.split("\n"))


def _command(title: str, command: str, uri: str, version: int | None, line: int) -> types.Command:
    return types.Command(title=title, command=command, arguments=[uri, version, line])


def code_lenses(ls: SafereqServer, key: str) -> list[types.CodeLens]:
    """Accept all / Reject all on each block's header, Accept / Reject on each suggestion."""
    session = ls.session
    found = _blocks(ls, key)
    if not found:
        return []
    uri, version, lines = session.uri(key), session.version(key), session.lines(key)
    out = []

    def lens(line: int, title: str, command: str) -> None:
        rng = session.codec.range(lines, _line_span(line))
        out.append(types.CodeLens(range=rng, command=_command(title, command, uri, version, line)))

    for block in found:
        n = len(block.entries)
        if n > 1:
            lens(block.start, f"Accept all {n}", ACCEPT)
            lens(block.start, f"Reject all {n}", REJECT)
        for entry in block.entries:
            lens(entry.start, "Accept", ACCEPT)
            lens(entry.start, "Reject", REJECT)
    return out


def code_actions(ls: SafereqServer, key: str, line: int) -> list[types.CodeAction]:
    """The same decisions as code actions (for editors without code lenses) on a line of a review block."""
    session = ls.session
    block = next((b for b in _blocks(ls, key) if b.start <= line < b.end), None)
    if block is None:
        return []
    uri, version = session.uri(key), session.version(key)
    out = []
    entry = block.entry_at(line)
    if entry is not None:
        what = _brief(entry.first)
        for title, command in ((f"Accept suggestion: {what}", ACCEPT), (f"Reject suggestion: {what}", REJECT)):
            out.append(types.CodeAction(title=title, kind="refactor.safereq",
                                        command=_command(title, command, uri, version, entry.start)))
    n = len(block.entries)
    for title, command in ((f"Accept all {n} suggestions for {block.item_id}", ACCEPT),
                           (f"Reject all {n} suggestions for {block.item_id}", REJECT)):
        out.append(types.CodeAction(title=title, kind="refactor.safereq",
                                    command=_command(title, command, uri, version, block.start)))
    return out


def _brief(first: str) -> str:
    """A suggestion named in a few words: "Derived from SG-1", "TSR-5: Monitor the torque", "*timing*: …"."""
    text = first.lstrip("#- ").replace("`", "").split(" — ")[0]
    return text if len(text) <= 60 else text[:59] + "…"


def _line_span(line: int):
    from ..model.ranges import Span

    return Span(line, 0, line, 0)


async def run_review_command(ls: SafereqServer, command: str, args: list[Any]) -> dict[str, Any]:
    """Accept or reject the suggestion(s) at ``[uri, version, line]``."""
    from ..agent.proposing.review import ReviewError, resolve
    from .edits import workspace_edit

    if (len(args) != 3 or not isinstance(args[0], str) or not (args[1] is None or isinstance(args[1], int))
            or not isinstance(args[2], int) or isinstance(args[2], bool) or args[2] < 0):
        raise invalid(f"{command} expects [uri, version, line], e.g. [\"file:///project/fsr.md\", 7, 12]")
    uri, version, line = args
    accept = command == ACCEPT
    session = ls.session
    session.sync()
    key = session.key(uri)
    result = {"applied": False, "accepted": 0, "rejected": 0, "left": 0}
    if session.version(key) != version:
        message = ("The document changed since this suggestion was shown, so nothing was "
                   f"{'accepted' if accept else 'rejected'}. Use the refreshed Accept / Reject.")
        _tell(ls, types.MessageType.Warning, message)
        return {**result, "message": message}
    try:
        outcome = resolve(session.workspace, key, line, accept)
    except ReviewError as exc:
        raise invalid(str(exc)) from None
    edit = workspace_edit(session, ls.client_capabilities, outcome.edits)
    response = await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
        edit=edit, label=f"safereq: {'accept' if accept else 'reject'} suggestion"))
    if not (response and response.applied):
        reason = f" ({response.failure_reason})" if response and response.failure_reason else ""
        message = f"The editor did not apply the edit{reason}; nothing was {'accepted' if accept else 'rejected'}."
        _tell(ls, types.MessageType.Warning, message)
        return {**result, "message": message}
    _tell(ls, types.MessageType.Info, outcome.message)
    return {"applied": True, "accepted": outcome.accepted, "rejected": outcome.rejected, "left": outcome.left,
            "message": outcome.message}


def _tell(ls: SafereqServer, kind: types.MessageType, message: str) -> None:
    """Say what happened — except to VS Code, whose extension shows the command's returned message."""
    if not any(c in ls.client_name.casefold() for c in _VSCODE_CLIENTS):
        ls.window_show_message(types.ShowMessageParams(type=kind, message=f"safereq: {message}"))
