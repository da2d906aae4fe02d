"""Server-initiated work-done progress (``window/workDoneProgress/create``), one helper for every long job:
loading the workspace, indexing the knowledge base, the agent's suggestions.

Silent when the client does not support it, refuses it, or does not answer within ``CREATE_TIMEOUT``
(a client that never answers must not stop the job). ``report`` may be called from any thread (indexing and
the agent report from theirs) and can be rate-limited (``min_interval``); ``on_cancel`` makes the progress
cancellable from the client's UI.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from .server import SafereqServer

log = logging.getLogger(__name__)

CREATE_TIMEOUT = 5.0  # seconds to wait for the client to accept a progress token


class Progress:
    """One job's progress bar: ``await begin()``, ``report(percentage, message)`` any number of times, ``end``."""

    def __init__(self, ls: SafereqServer, title: str, *, min_interval: float = 0.0) -> None:
        self.ls, self.title = ls, title
        self.token: str | None = None
        self.loop = asyncio.get_running_loop()
        self._min_interval = min_interval
        self._last = 0.0

    async def begin(self, on_cancel: Callable[[], None] | None = None, message: str | None = None) -> None:
        window = self.ls.client_capabilities.window
        if not (window and window.work_done_progress):
            return
        token = f"safereq-{uuid.uuid4().hex}"
        try:
            await asyncio.wait_for(self.ls.work_done_progress.create_async(token), timeout=CREATE_TIMEOUT)
        except Exception as exc:  # the client refused or did not answer: run without a progress bar
            log.info("no work-done progress: %s", exc)
            return
        self.token = token
        self.ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(
            title=self.title, cancellable=on_cancel is not None, message=message, percentage=0))
        future = self.ls.work_done_progress.tokens.get(token) if on_cancel is not None else None
        if future is not None:
            future.add_done_callback(lambda f: f.cancelled() and on_cancel())  # type: ignore[misc]

    def report(self, percentage: int | None, message: str) -> None:
        """Thread-safe; a report within ``min_interval`` of the last is dropped."""
        if self.token is None:
            return
        if self._min_interval:
            now = time.monotonic()
            if now - self._last < self._min_interval:
                return
            self._last = now
        self.loop.call_soon_threadsafe(self._send, percentage, message)

    def _send(self, percentage: int | None, message: str) -> None:
        if self.token is not None:
            self.ls.work_done_progress.report(self.token, types.WorkDoneProgressReport(
                message=message, percentage=None if percentage is None else max(0, min(100, percentage))))

    def end(self, message: str) -> None:
        if self.token is not None:
            self.ls.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))
            self.ls.work_done_progress.tokens.pop(self.token, None)
            self.token = None
