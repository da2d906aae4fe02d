"""A pytest-lsp client that behaves like an editor, for the tests of features that edit documents.

It keeps its own copy of every document it opened, applies the server's WorkspaceEdits to that copy (refusing
one made for another version, as VS Code does) and sends the result back as didChange, so each next request
sees what the user would see. It also records what the server shows and asks, and answers a question with
``client.choose`` when that is one of the offered titles.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from .conftest import record_statuses

_OWN = (types.WINDOW_SHOW_MESSAGE, types.WINDOW_SHOW_DOCUMENT)  # features this client answers itself


def make_editor_client(converter_factory: Callable[[], Any] = default_converter, *,
                       versioned_only: bool = False) -> LanguageClient:
    """The editor client. ``versioned_only`` refuses an edit that names no version (fix-all and deviations
    must always be versioned); otherwise an edit of a document the client has not opened opens it from disk."""
    client = LanguageClient(converter_factory=converter_factory)
    record_statuses(client)
    client.texts = {}  # type: ignore[attr-defined]  # uri → [version, text] of the documents it has open
    client.shown = []  # type: ignore[attr-defined]
    client.asked = []  # type: ignore[attr-defined]
    client.revealed = []  # type: ignore[attr-defined]
    client.choose = None  # type: ignore[attr-defined]
    client.edits = []  # type: ignore[attr-defined]
    register_lsp_features(client, {k: v for k, v in DEFAULT_CLIENT_FEATURES.items() if k not in _OWN})

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def _register(client: LanguageClient, params: types.RegistrationParams) -> None:
        return None

    @client.feature(types.WINDOW_SHOW_MESSAGE)
    def _show(client: LanguageClient, params: types.ShowMessageParams) -> None:
        client.shown.append(params.message)

    @client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)
    def _ask(client: LanguageClient, params: types.ShowMessageRequestParams):
        client.asked.append(params)
        titles = [a.title for a in params.actions or []]
        return types.MessageActionItem(title=client.choose) if client.choose in titles else None

    @client.feature(types.WINDOW_SHOW_DOCUMENT)
    def _reveal(client: LanguageClient, params: types.ShowDocumentParams) -> types.ShowDocumentResult:
        client.revealed.append(params)
        return types.ShowDocumentResult(success=True)

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def _apply(client: LanguageClient, params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        client.edits.append(params)
        for change in params.edit.document_changes or []:
            uri, version = change.text_document.uri, change.text_document.version
            if uri not in client.texts and not versioned_only:
                open_doc(client, Path(uri.removeprefix("file://")))
            current, text = client.texts[uri]
            if version != current and (versioned_only or version is not None):
                return types.ApplyWorkspaceEditResult(applied=False, failure_reason="version mismatch")
            set_text(client, uri, apply_edits(text, change.edits))
        return types.ApplyWorkspaceEditResult(applied=True)

    return client


def apply_edits(text: str, edits) -> str:
    """The text after the edits (the fixtures are ASCII and BMP characters, so UTF-16 offsets = code points)."""
    lines = text.split("\n")

    def offset(pos: types.Position) -> int:
        return sum(len(x) + 1 for x in lines[:pos.line]) + pos.character

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:offset(e.range.start)] + e.new_text + text[offset(e.range.end):]
    return text


def open_text(client: LanguageClient, path: Path, text: str) -> str:
    """Open ``text`` as the document at ``path`` (version 1)."""
    uri = path.as_uri()
    client.texts[uri] = [1, text]
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="markdown", version=1, text=text)))
    return uri


def open_doc(client: LanguageClient, path: Path) -> str:
    """Open the document at ``path`` with its text on disk."""
    return open_text(client, path, path.read_text(encoding="utf-8"))


def set_text(client: LanguageClient, uri: str, text: str) -> None:
    """Replace the client's copy of ``uri`` and send it as the next version."""
    version = client.texts[uri][0] + 1
    client.texts[uri] = [version, text]
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

