"""Core edits → a WorkspaceEdit: versioned ``documentChanges`` when the client supports them, so an edit made
for version N of a buffer is refused by the client if the buffer has moved on; plain ``changes`` otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from lsprotocol import types

from ..checks.findings import Edit

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
