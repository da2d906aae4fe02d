"""Start-up after ``initialized``: pull the client's settings, read the configuration, load every requirement
document under the workspace folders in the background (with work-done progress), then publish diagnostics.

Files are listed and read in a worker thread; parsing happens on the event loop in small slices, so requests
are answered while a large workspace loads. Diagnostics wait until the load is complete, because a half-loaded
workspace would report links to documents not read yet as dangling.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from .progress import Progress

if TYPE_CHECKING:
    from .server import SafereqServer

log = logging.getLogger(__name__)

_READ_BATCH = 64
_SLICE_SECONDS = 0.02
WATCHERS = ("**/*.md", "**/*.markdown", "**/safereq.toml", "**/pyproject.toml", "**/safereq-review.jsonl")


async def initialized(ls: SafereqServer, params: types.InitializedParams) -> None:
    ls.send_status("starting", "loading the workspace")
    _register_watchers(ls)
    from . import config_sync

    try:
        config_sync.from_initialization_options(ls, ls.initialization_options)
        await config_sync.pull(ls)
        session = ls.session
        session.load_configuration()
        ls.publisher.publish_config_error()
        ls.report_setting_problems()
        await load_folders(ls, session.folders)
        await _warm_up_checks(ls)
    except Exception as exc:
        # Carry on with what was loaded: open buffers are still checked and navigable.
        log.exception("loading the workspace failed")
        ls.session.loaded = True
        ls.send_status("error", f"loading the workspace failed: {exc}; see the server log")
        ls.publisher.schedule(now=True)
        return
    session.loaded = True
    ls.publisher.schedule(now=True)
    ls.send_status()
    _warm_up_agent(ls)


def _warm_up_agent(ls: SafereqServer) -> None:
    """Start the agent worker in the background so that the first agent code action pays no imports."""
    from .agent_actions import warm

    try:
        warm(ls)
    except Exception as exc:  # the checks work without the agent
        log.info("could not start the agent worker: %s", exc)


async def _warm_up_checks(ls: SafereqServer) -> None:
    """Run the checks document by document, yielding in between, so requests are answered during the first
    check of a large workspace; the full check that follows then reuses every document's results.
    (The workspace-wide rules still run in one piece, on the first document.)"""
    session = ls.session
    for path in sorted(session.workspace.documents):
        if path in session.workspace.documents:
            session.checker.check(session.workspace, [path])
        await asyncio.sleep(0)


def _register_watchers(ls: SafereqServer) -> None:
    """Ask the client to report changes to Markdown and configuration files, when it supports that."""
    caps = ls.client_capabilities.workspace
    watched = caps.did_change_watched_files if caps else None
    if not (watched and watched.dynamic_registration):
        return
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern=glob) for glob in WATCHERS]
    )
    registration = types.Registration(id=str(uuid.uuid4()), method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                                      register_options=options)
    future = ls.client_register_capability(types.RegistrationParams(registrations=[registration]))
    future.add_done_callback(_log_registration)


def _log_registration(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.info("the client refused the file watcher registration: %s", future.exception())


def _percent(done: int, total: int) -> int:
    return int(100 * done / total) if total else 100


async def load_folders(ls: SafereqServer, folders: list[Path]) -> None:
    """Read every requirement document under ``folders`` into the workspace (open buffers win)."""
    from ..workspace.loader import discover, read_source

    session = ls.session
    if not folders:
        return
    progress = Progress(ls, "safereq: loading requirements", min_interval=0.2)
    await progress.begin()
    loop = asyncio.get_running_loop()
    started = time.perf_counter()
    found = await loop.run_in_executor(None, lambda: discover(folders, excluder=session.excluder()))
    for problem in found.problems:
        log.warning("%s: %s", problem.path, problem.message)
    files = [os.path.normpath(str(p)) for p in found.files]
    total = len(files)
    done = 0
    for start in range(0, total, _READ_BATCH):
        batch = files[start:start + _READ_BATCH]
        results = await loop.run_in_executor(
            None, lambda b=batch: [read_source(Path(k), max_bytes=session.max_bytes, display=k) for k in b])
        slice_start = time.perf_counter()
        for key, result in zip(batch, results, strict=True):
            session.add_source(key, result)
            done += 1
            if time.perf_counter() - slice_start > _SLICE_SECONDS:
                progress.report(_percent(done, total), f"{done}/{total} documents")
                await asyncio.sleep(0)  # let requests and cancellations through
                slice_start = time.perf_counter()
        progress.report(_percent(done, total), f"{done}/{total} documents")
    seconds = time.perf_counter() - started
    items = sum(len(d.items) for d in session.workspace.documents.values())
    message = f"{total} documents, {items} items loaded in {seconds:.1f} s"
    log.info(message)
    progress.end(message)
