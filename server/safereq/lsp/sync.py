"""Keeping the workspace model current: buffers (open/change/close/save), files on disk (watched-file events,
create/rename/delete file operations) and workspace folders. Every handler updates the session and schedules
diagnostics; none computes anything itself.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from .documents import ChangeError
from .uris import is_path, key_of

if TYPE_CHECKING:
    from .server import SafereqServer

_CONFIG_NAMES = ("safereq.toml", "pyproject.toml")
_REVIEW_NAME = "safereq-review.jsonl"  # impact.review_state.FILE_NAME, without importing the core here


def did_open(ls: SafereqServer, params: types.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    key = ls.session.open_document(doc.uri, doc.text, doc.version, doc.language_id)
    ls.publisher.schedule({key})


def did_change(ls: SafereqServer, params: types.DidChangeTextDocumentParams) -> None:
    """Apply the change; one that cannot be applied leaves the document diverged, and the user is told."""
    uri = params.text_document.uri
    try:
        key = ls.session.change_document(uri, params.text_document.version, params.content_changes)
    except ChangeError as exc:
        ls.log_error(f"safereq: {exc}")
        ls.window_show_message(types.ShowMessageParams(
            type=types.MessageType.Warning,
            message=f"safereq lost track of {os.path.basename(key_of(uri)) or uri}: close and reopen it to check it "
                    "again (until then it gets no findings and no fixes)."))
        key = key_of(uri)
    ls.publisher.schedule({key})


def did_close(ls: SafereqServer, params: types.DidCloseTextDocumentParams) -> None:
    key = ls.session.close_document(params.text_document.uri)
    ls.publisher.schedule({key})


def did_save(ls: SafereqServer, params: types.DidSaveTextDocumentParams) -> None:
    """The buffer already holds what was saved; a saved configuration file is re-read."""
    if os.path.basename(key_of(params.text_document.uri)) in _CONFIG_NAMES:
        _reload_configuration(ls)


def _reload_configuration(ls: SafereqServer) -> None:
    session = ls.session
    session.load_configuration()
    ls.publisher.publish_config_error()
    ls.report_setting_problems()
    # Excludes may have changed which files belong to the workspace: drop what is now excluded.
    for key in list(session.workspace.documents):
        if is_path(key) and key not in session.open and not session.in_scope(Path(key)):
            session.remove_path(key)
    ls.publisher.schedule(now=True)
    ls.send_status()


def did_change_watched_files(ls: SafereqServer, params: types.DidChangeWatchedFilesParams) -> None:
    session = ls.session
    config_changed = review_changed = False
    touched: set[str] = set()
    for change in params.changes:
        key = key_of(change.uri)
        if not is_path(key):
            continue
        if os.path.basename(key) in _CONFIG_NAMES:
            config_changed = True
            continue
        if os.path.basename(key) == _REVIEW_NAME:
            review_changed = True
            continue
        if change.type == types.FileChangeType.Deleted:
            session.remove_path(key)
            touched.add(key)
        elif session.in_scope(Path(key)) and os.path.isfile(key):
            session.load_from_disk(key)
            touched.add(key)
    if config_changed:
        _reload_configuration(ls)  # reads the review file too
        return
    if review_changed:
        session.reload_review()
    if touched or review_changed:
        ls.publisher.schedule()


def did_create_files(ls: SafereqServer, params: types.CreateFilesParams) -> None:
    for f in params.files:
        key = key_of(f.uri)
        if is_path(key) and _readable(ls, key):
            ls.session.load_from_disk(key)
    ls.publisher.schedule()


def did_delete_files(ls: SafereqServer, params: types.DeleteFilesParams) -> None:
    for f in params.files:
        key = key_of(f.uri)
        if is_path(key):
            ls.session.remove_path(key)
    ls.publisher.schedule()


def did_rename_files(ls: SafereqServer, params: types.RenameFilesParams) -> None:
    """A rename is a delete plus a create; folders are handled by walking what moved."""
    session = ls.session
    for f in params.files:
        old, new = key_of(f.old_uri), key_of(f.new_uri)
        if is_path(old):
            session.remove_path(old)
        if not is_path(new):
            continue
        if os.path.isdir(new):
            from ..workspace.loader import discover

            for path in discover([new], excluder=session.excluder()).files:
                if session.in_scope(path):
                    session.load_from_disk(os.path.normpath(str(path)))
        elif _readable(ls, new):
            session.load_from_disk(new)
    ls.publisher.schedule()


def _readable(ls: SafereqServer, key: str) -> bool:
    """True for a Markdown file on disk that belongs to the workspace (not hidden, skipped or excluded)."""
    return ls.session.in_scope(Path(key)) and os.path.isfile(key)


async def did_change_workspace_folders(ls: SafereqServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    from .loading import load_folders

    session = ls.session
    for folder in params.event.removed:
        path = key_of(folder.uri)
        if is_path(path):
            session.folders = [f for f in session.folders if str(f) != path]
            session.remove_path(path)
    added = [Path(key_of(f.uri)) for f in params.event.added if is_path(key_of(f.uri))]
    session.folders.extend(added)
    if added:
        await load_folders(ls, added)
    if added or params.event.removed:  # each folder has its own configuration (folders.py)
        _reload_configuration(ls)
    else:
        ls.publisher.schedule()
