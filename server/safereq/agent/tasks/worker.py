"""The agent's worker process: ``python -m safereq.agent.tasks.worker``, spoken to in JSON lines over stdin/stdout.

The language server starts it so that LlamaIndex, LanceDB and LLM calls never run on its request path. The
worker keeps a mirror of the workspace (the server sends changed documents before each request), one
:class:`Assistant` per index folder, and runs requests one at a time on a job thread while its main thread
keeps reading, so a cancel arrives while a request runs.

Messages to the worker (one JSON object per line)::

    {"id": 1, "method": "configure", "params": {"index_dir": "...", "llm": {"baseUrl": "...", "model": "..."}}}
    {"id": 2, "method": "sync", "params": {"documents": {"path": "text"}, "removed": ["path"]}}
    {"id": 3, "method": "run", "params": {"task": "derive", "path": "...", "item": "FSR-1", "question": ""}}
    {"method": "cancel", "params": {"id": 3}}
    {"id": 4, "method": "ping"}            {"id": 5, "method": "warm"}            {"method": "shutdown"}

Messages from the worker::

    {"id": 3, "progress": {"message": "reading ISO 26262-9", "percentage": 20}}
    {"id": 3, "result": {...SuggestionSet.to_json()..., "worker": {"warm": true, "imported": []}}}
    {"id": 3, "error": {"kind": "cancelled" | "invalid" | "failed", "message": "..."}}

``warm`` loads, before the first request, what a request needs: the knowledge source, every module of the
pipeline (and openai and LlamaIndex when an endpoint is configured), the rule files, the embedding model
the link ranking compares meanings with, and caches, by running each task once offline on a small synthetic
item that has unlinked candidates. A run's ``worker.imported`` lists the modules it had to
import itself: after ``warm``, none (the language server's tests check this).

The API key is read from the worker's environment (inherited from the server), never from a message.
Anything a library prints goes to stderr: the protocol owns the real stdout.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import sys
import threading
from typing import Any, TextIO

from ...knowledge.location import IndexLocation, index_location

log = logging.getLogger("safereq.agent.tasks.worker")

MAX_LINE = 64 * 1024 * 1024
WORKER_NICENESS = 5
WARM_UP_DOCUMENT = """# Warm-up

## SG-1: Avoid unintended braking
The vehicle shall not brake without a driver request.

- ASIL: D

## SG-2: Avoid a loss of braking
The vehicle shall brake when the driver requests it.

- ASIL: D

## FSR-1: Monitor the brake request
If the brake request is implausible, then the brake controller shall reject it within 20 ms.

- ASIL: D
- Derived from: SG-1
- Cites: ISO 26262-4:2018 §6.4

## TSR-1: Check the brake request range
The brake software shall reject a brake request outside 0 to 100 %.

- ASIL: D
"""


class Worker:
    """Protocol state: workspace mirror, settings, the job queue and the cancel tokens of queued/running jobs."""

    def __init__(self, out: TextIO):
        from ...workspace import Workspace

        self._out = out
        self._out_lock = threading.Lock()
        self._ws_lock = threading.Lock()
        self.workspace = Workspace()
        self.index_dir: IndexLocation | None = None
        self.llm_config: dict[str, Any] = {}
        self.not_modal: dict[str, tuple[str, ...]] = {}  # the project's extra not-modal words by language
        self._assistants: dict[str, Any] = {}
        self.warm = False
        self._tokens: dict[Any, Any] = {}
        self._jobs: queue.Queue[tuple[Any, dict[str, Any]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._job_loop, name="safereq-agent-job", daemon=True)
        self._thread.start()

    # -- output ----------------------------------------------------------------------------------------
    def send(self, message: dict[str, Any]) -> None:
        line = json.dumps(message, ensure_ascii=False)
        with self._out_lock:
            self._out.write(line + "\n")
            self._out.flush()

    def error(self, msg_id: Any, kind: str, message: str) -> None:
        self.send({"id": msg_id, "error": {"kind": kind, "message": message}})

    # -- input -----------------------------------------------------------------------------------------
    def handle_line(self, line: str) -> bool:
        """Handle one message; False when the worker should exit."""
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            log.warning("ignored a line that is not JSON")
            return True
        if not isinstance(msg, dict):
            return True
        method, msg_id, params = msg.get("method"), msg.get("id"), msg.get("params") or {}
        if not isinstance(params, dict):
            self.error(msg_id, "invalid", "params must be an object")
            return True
        if method == "shutdown":
            return False
        if method == "cancel":
            token = self._tokens.get(params.get("id"))
            if token is not None:
                token.cancel()
            return True
        if method == "ping":
            self.send({"id": msg_id, "result": {"pong": True, "pid": os.getpid(), "warm": self.warm}})
        elif method == "configure":
            self.configure(params)
            self.send({"id": msg_id, "result": {"ok": True}})
        elif method == "sync":
            self.sync(params)
            self.send({"id": msg_id, "result": {"documents": len(self.workspace.documents)}})
        elif method == "run":
            from ..writing.generate import CancelToken

            self._tokens[msg_id] = CancelToken()
            self._jobs.put((msg_id, params))
        elif method == "warm":
            self._jobs.put((msg_id, {"task": "warm"}))
        else:
            self.error(msg_id, "invalid", f"unknown method {method!r}")
        return True

    def configure(self, params: dict[str, Any]) -> None:
        index = params.get("index_dir")
        self.index_dir = index_location(index) if isinstance(index, str) and index else None
        llm = params.get("llm")
        self.llm_config = dict(llm) if isinstance(llm, dict) else {}
        words = params.get("not_modal")
        self.not_modal = {str(k): tuple(map(str, v)) for k, v in words.items() if isinstance(v, list)} if isinstance(
            words, dict) else {}
        self._assistants.clear()
        self.warm = False

    def sync(self, params: dict[str, Any]) -> None:
        documents = params.get("documents") or {}
        removed = params.get("removed") or []
        with self._ws_lock:
            for path in removed if isinstance(removed, list) else []:
                if isinstance(path, str):
                    self.workspace.remove(path)
            for path, text in documents.items() if isinstance(documents, dict) else []:
                if isinstance(path, str) and isinstance(text, str):
                    self.workspace.update(path, text)

    # -- jobs ------------------------------------------------------------------------------------------
    def assistant(self) -> Any:
        key = str(self.index_dir or "")
        if key not in self._assistants:
            from ..writing.generate import LLMSettings
            from ..retrieval.knowledge import open_source
            from .pipeline import Assistant

            source, note = open_source(self.index_dir)
            self._assistants[key] = Assistant(source, LLMSettings.resolve(self.llm_config), note)
        return self._assistants[key]

    def _job_loop(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            msg_id, params = job
            try:
                if params.get("task") == "warm":
                    self._warm()
                    self.send({"id": msg_id, "result": {"ok": True, "warm": self.warm}})
                else:
                    self.send({"id": msg_id, "result": self._run(msg_id, params)})
            except Exception as exc:
                self._report(msg_id, exc)
            finally:
                self._tokens.pop(msg_id, None)

    def _warm(self) -> None:
        """Load what the first request needs (see the module docstring); never calls the model."""
        from ...workspace import Workspace
        from ..item.context import workspace_view
        from ..writing.generate import LLMSettings
        from .pipeline import TASKS, AgentRequest, Assistant

        assistant = self.assistant()
        if assistant.llm.enabled:
            import openai  # noqa: F401  (the LLM path's client, loaded now rather than on the first request)

            from ..retrieval.documents import _li

            _li()
        from .linking import warm_meaning

        warm_meaning()  # the rehearsal's texts may all be in the vector cache already
        rehearsal = Assistant(assistant.source, LLMSettings(), assistant.source_note)
        ws = Workspace()
        ws.update("<warm-up>", WARM_UP_DOCUMENT)
        for task in TASKS:
            item = ws.item("FSR-1") if task != "ask" else None
            rehearsal.run(AgentRequest(task, workspace_view(ws, item, self.not_modal), "What is a safe state?"))
        self.warm = True

    def _report(self, msg_id: Any, exc: Exception) -> None:
        from ..writing.generate import Cancelled

        if isinstance(exc, Cancelled):
            self.error(msg_id, "cancelled", "cancelled")
        elif isinstance(exc, (ValueError, LookupError)):
            self.error(msg_id, "invalid", str(exc))
        else:
            log.exception("request %s failed", msg_id)
            self.error(msg_id, "failed", f"{type(exc).__name__}: {exc}")

    def _run(self, msg_id: Any, params: dict[str, Any]) -> dict[str, Any]:
        from ..item.context import workspace_view
        from .pipeline import AgentRequest

        token = self._tokens[msg_id]
        token.raise_if_cancelled()
        task = str(params.get("task", ""))
        item_id = str(params.get("item", "") or "")
        with self._ws_lock:
            item = None
            if item_id:
                path = params.get("path")
                defs = [d for d in self.workspace.definitions(item_id) if not path or d.path == path]
                if not defs:
                    raise LookupError(f"{item_id} is not defined in {path or 'the workspace'}")
                item = defs[0]
            view = workspace_view(self.workspace, item, self.not_modal)
        request = AgentRequest(task, view, str(params.get("question", "") or ""),
                               max_hops=int(params.get("max_hops", 8)))

        def progress(message: str, percentage: int) -> None:
            self.send({"id": msg_id, "progress": {"message": message, "percentage": percentage}})

        before = set(sys.modules)
        result = self.assistant().run(request, cancel=token, progress=progress)
        out = result.to_json(with_trace=True)
        out["worker"] = {"warm": self.warm, "imported": sorted(set(sys.modules) - before)[:100]}
        return out

    def close(self) -> None:
        for token in list(self._tokens.values()):
            token.cancel()
        self._jobs.put(None)


def main() -> int:
    """Own the real stdout for the protocol; route fd 1 to stderr so stray prints cannot corrupt it."""
    os.environ.setdefault("LANCE_LOG", "error")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    if hasattr(os, "nice"):  # background work (the warm-up above all) yields the CPU to the server and the user
        try:
            os.nice(WORKER_NICENESS)
        except OSError:
            pass
    proto = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", buffering=1)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    logging.basicConfig(level=os.environ.get("SAFEREQ_AGENT_LOG", "INFO"), stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    worker = Worker(proto)
    stdin = sys.stdin.buffer
    try:
        while True:
            raw = stdin.readline(MAX_LINE)
            if not raw:
                break
            if not worker.handle_line(raw.decode("utf-8", errors="replace")):
                break
    finally:
        worker.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
