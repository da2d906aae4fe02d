"""A minimal LSP client over a child process's stdio, for timing servers from the outside.

Deliberately thin (bytes, ``json``, asyncio): a full client library would add its own parsing cost to every
measured round trip. It answers the server's requests that a real editor would answer (configuration,
progress tokens, capability registration) with empty results.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import time
from typing import Any

CAPABILITIES: dict[str, Any] = {
    "general": {"positionEncodings": ["utf-16"]},
    "window": {"workDoneProgress": True},
    "workspace": {"configuration": True, "workspaceEdit": {"documentChanges": True},
                  "didChangeWatchedFiles": {"dynamicRegistration": True}},
    "textDocument": {
        "publishDiagnostics": {"relatedInformation": True, "codeDescriptionSupport": True,
                               "tagSupport": {"valueSet": [1, 2]}, "versionSupport": True},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "completion": {"completionItem": {"documentationFormat": ["markdown", "plaintext"]}},
        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
    },
}


class Client:
    """One server process. ``notifications`` collects (arrival time, method, params)."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future] = {}
        self._waiters: list[tuple[str, Any, asyncio.Future]] = []
        self.notifications: list[tuple[float, str, Any]] = []
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def spawn(cls, *cmd: str, env: dict[str, str] | None = None) -> Client:
        proc = await asyncio.create_subprocess_exec(
            *cmd, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, env={**os.environ, **(env or {})}, limit=1 << 26)
        return cls(proc)

    def _write(self, payload: dict[str, Any]) -> None:
        body = json.dumps(payload).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def _read(self) -> None:
        reader = self.proc.stdout
        while True:
            length = 0
            while True:
                line = await reader.readline()
                if not line:
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                elif line in (b"\r\n", b"\n"):
                    break
            message = json.loads(await reader.readexactly(length))
            now = time.perf_counter()
            if "id" in message and "method" in message:  # a request from the server
                result = [None] * len(message["params"].get("items", [])) if message["method"] == "workspace/configuration" else None
                self._write({"jsonrpc": "2.0", "id": message["id"], "result": result})
            elif "id" in message:
                future = self._pending.pop(message["id"], None)
                if future is not None and not future.done():
                    future.set_result((now, message))
            else:
                self.notifications.append((now, message["method"], message.get("params")))
                for waiter in list(self._waiters):
                    method, predicate, future = waiter
                    if method == message["method"] and predicate(message.get("params")) and not future.done():
                        future.set_result(now)
                        self._waiters.remove(waiter)

    async def request(self, method: str, params: Any) -> tuple[float, dict[str, Any]]:
        """Send a request; return (arrival time of the answer, the answer)."""
        msg_id = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = future
        self._write({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return await asyncio.wait_for(future, 300)

    def notify(self, method: str, params: Any) -> None:
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    def expect(self, method: str, predicate=lambda params: True) -> asyncio.Future:
        """A future for the arrival time of the next notification of ``method`` satisfying ``predicate``."""
        future = asyncio.get_running_loop().create_future()
        self._waiters.append((method, predicate, future))
        return future

    async def initialize(self, root_uri: str | None = None) -> dict[str, Any]:
        params = {"processId": os.getpid(), "rootUri": root_uri, "capabilities": CAPABILITIES,
                  "workspaceFolders": [{"uri": root_uri, "name": "bench"}] if root_uri else None}
        _, answer = await self.request("initialize", params)
        return answer

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.request("shutdown", None), 30)
            self.notify("exit", None)
            await asyncio.wait_for(self.proc.wait(), 30)
        except (asyncio.TimeoutError, ConnectionError, BrokenPipeError):
            self.proc.kill()
            await self.proc.wait()
        self._reader.cancel()

    def rss_mib(self) -> tuple[float, float]:
        """(current, peak) resident memory of the server process, from /proc."""
        values = {}
        with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as fh:
            for line in fh:
                key, _, rest = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    values[key] = int(rest.split()[0]) / 1024
        return values["VmRSS"], values["VmHWM"]
