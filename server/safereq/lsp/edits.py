"""Core edits → a WorkspaceEdit: versioned ``documentChanges`` when the client supports them, so an edit made
for version N of a buffer is refused by the client if the buffer has moved on; plain ``changes`` otherwise.

An edit is only ever made for text the server knows to be the editor's or the disk's: never for an open
document that has diverged (see documents.py), and never for a closed file that changed on disk since it was
read (the file is read again and the request refused, so the user's next try works on the real text).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from lsprotocol import types

from ..checks.findings import Edit
from .errors import failed

if TYPE_CHECKING:
    from lsprotocol.types import ClientCapabilities

    from .session import Session


def _document_changes(capabilities: ClientCapabilities) -> bool:
    ws = capabilities.workspace
    return bool(ws and ws.workspace_edit and ws.workspace_edit.document_changes)


def workspace_edit(session: Session, capabilities: ClientCapabilities, edits: Iterable[Edit]) -> types.WorkspaceEdit:
    """The edits grouped by document, each document's edits in source order."""
    by_key: dict[str, list[Edit]] = {}
    for edit in edits:
        by_key.setdefault(edit.path, []).append(edit)
    _require_current(session, by_key)
    text_edits: dict[str, list[types.TextEdit]] = {}
    for key, group in sorted(by_key.items()):
        lines = session.lines(key)
        group.sort(key=lambda e: e.span)
        text_edits[key] = [types.TextEdit(session.codec.range(lines, e.span), e.new_text) for e in group]
    if _document_changes(capabilities):
        return types.WorkspaceEdit(document_changes=[
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(uri=session.uri(key), version=session.version(key)),
                edits=list(edits_),
            )
            for key, edits_ in text_edits.items()
        ])
    return types.WorkspaceEdit(changes={session.uri(key): edits_ for key, edits_ in text_edits.items()})


def _require_current(session: Session, keys: Iterable[str]) -> None:
    """Refuse (LSP RequestFailed) an edit of a diverged buffer or of a closed file that changed on disk."""
    keys = list(keys)
    diverged = session.diverged(keys)
    if diverged:
        raise failed(f"safereq no longer knows the editor's text of {', '.join(diverged)}: close and reopen it, "
                     "then try again")
    changed = session.reread_if_changed(keys)
    if changed:
        raise failed(f"{', '.join(changed)} changed on disk since safereq read it; it has been read again: "
                     "try again")
