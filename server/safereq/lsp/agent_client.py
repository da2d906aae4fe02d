"""The language server's side of the agent worker (:mod:`safereq.agent.tasks.worker`): start, talk, cancel, restart.

The worker is a child process speaking JSON lines, started on first use (or by :meth:`AgentClient.warm`
after ``initialized``). A reader thread resolves each request's ``concurrent.futures.Future`` and forwards
progress messages to the request's callback; the event loop awaits with ``asyncio.wrap_future``. Documents
are mirrored incrementally: before each request only the documents whose text changed since the last sync
are sent. If the worker dies, pending requests fail with :class:`WorkerError` and the next request starts a
new one. Stdlib only: importing this costs nothing.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from typing import Any

log = logging.getLogger(__name__)

ProgressCallback = Callable[[str, int], None]


class WorkerError(Exception):
    """The worker failed a request (``kind``: cancelled, invalid, failed, crashed)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


class AgentClient:
    """One worker process and the requests in flight to it."""

    def __init__(self, command: list[str] | None = None, env: Mapping[str, str] | None = None):
        self.command = command or [sys.executable, "-m", "safereq.agent.tasks.worker"]
        self.env = dict(os.environ if env is None else env)
        self.env.setdefault("LANCE_LOG", "error")
        self.env.setdefault("HF_HUB_OFFLINE", "1")
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._pending: dict[int, tuple[Future, ProgressCallback | None]] = {}
        self._sent: dict[str, str] = {}
        self._config: dict[str, Any] | None = None

    # -- process ---------------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def _ensure(self) -> subprocess.Popen[bytes]:
        with self._lock:
            if self._proc is not None and self._proc.poll() is None:
                return self._proc
            self._sent.clear()
            proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, env=self.env)
            self._proc = proc
            threading.Thread(target=self._read, args=(proc,), name="safereq-agent-reader", daemon=True).start()
            threading.Thread(target=self._log_stderr, args=(proc,), name="safereq-agent-stderr", daemon=True).start()
        if self._config is not None:
            self._send({"id": next(self._ids), "method": "configure", "params": self._config})
        return proc

    def _send(self, message: dict[str, Any]) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise WorkerError("crashed", "the agent worker is not running")
        data = (json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            with self._lock:
                proc.stdin.write(data)
                proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise WorkerError("crashed", f"the agent worker stopped ({exc})") from None

    def _read(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            try:
                msg = json.loads(raw)
            except json.JSONDecodeError:
                log.warning("agent worker wrote a line that is not JSON; ignored")
                continue
            entry = self._pending.get(msg.get("id")) if isinstance(msg, dict) else None
            if entry is None:
                continue
            future, on_progress = entry
            if "progress" in msg:
                if on_progress is not None:
                    p = msg["progress"] or {}
                    on_progress(str(p.get("message", "")), int(p.get("percentage", 0) or 0))
                continue
            self._pending.pop(msg["id"], None)
            if "error" in msg:
                err = msg["error"] or {}
                future.set_exception(WorkerError(str(err.get("kind", "failed")), str(err.get("message", ""))))
            else:
                future.set_result(msg.get("result"))
        code = proc.wait()
        for msg_id, (future, _) in list(self._pending.items()):
            if not future.done():
                self._pending.pop(msg_id, None)
                future.set_exception(WorkerError("crashed", f"the agent worker exited (status {code})"))

    def _log_stderr(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stderr is not None
        for raw in proc.stderr:
            level, text = relayed(raw.decode("utf-8", errors="replace"))
            if text:
                log.log(level, "agent %s", text)

    # -- requests --------------------------------------------------------------------------------------
    def request(self, method: str, params: dict[str, Any] | None = None,
                on_progress: ProgressCallback | None = None) -> tuple[int, Future]:
        """Send one request; returns its id (for :meth:`cancel`) and the future of its result."""
        self._ensure()
        msg_id = next(self._ids)
        future: Future = Future()
        self._pending[msg_id] = (future, on_progress)
        try:
            self._send({"id": msg_id, "method": method, "params": params or {}})
        except WorkerError as exc:
            self._pending.pop(msg_id, None)
            future.set_exception(exc)
        return msg_id, future

    def cancel(self, msg_id: int) -> None:
        if msg_id in self._pending and self.running:
            try:
                self._send({"method": "cancel", "params": {"id": msg_id}})
            except WorkerError:
                pass

    def configure(self, index_dir: str | None, llm: Mapping[str, Any],
                  not_modal: Mapping[str, Any] | None = None) -> None:
        """Settings for the next requests (sent now if the worker runs, else when it starts); ``not_modal``:
        the project's extra not-modal words by language."""
        config = {"index_dir": index_dir, "llm": {k: v for k, v in llm.items() if k.lower() not in ("apikey", "api_key")},
                  "not_modal": {lang: list(words) for lang, words in (not_modal or {}).items()}}
        if config == self._config:
            return
        self._config = config
        if self.running:
            self._send({"id": next(self._ids), "method": "configure", "params": config})

    def sync(self, documents: Mapping[str, str]) -> Future:
        """Send the documents whose text changed since the last sync, and drop those that disappeared."""
        self._ensure()
        changed = {}
        digests = {}
        for path, text in documents.items():
            digest = hashlib.blake2b(text.encode("utf-8", errors="replace"), digest_size=16).hexdigest()
            digests[path] = digest
            if self._sent.get(path) != digest:
                changed[path] = text
        removed = [p for p in self._sent if p not in documents]
        self._sent = digests
        return self.request("sync", {"documents": changed, "removed": removed})[1]

    def warm(self) -> Future:
        """Start the worker and load its heavy modules in the background."""
        return self.request("warm")[1]

    def stop(self, timeout: float = 5.0) -> None:
        proc = self._proc
        if proc is None:
            return
        try:
            self._send({"method": "shutdown"})
        except WorkerError:
            pass
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=timeout)
        self._proc = None


_LEVELS = {"DEBUG": logging.DEBUG, "INFO": logging.INFO, "WARNING": logging.WARNING, "ERROR": logging.ERROR,
           "CRITICAL": logging.CRITICAL}


def relayed(line: str) -> tuple[int, str]:
    """A line of the worker's stderr as (level, text): the worker's own level word becomes the level of the
    server's log entry, so the entry does not carry two ("INFO …: agent: INFO safereq.agent…")."""
    text = line.rstrip()
    word, _sep, rest = text.partition(" ")
    if word in _LEVELS and rest:
        return _LEVELS[word], rest
    return logging.INFO, text
