"""Test double: a local OpenAI-compatible server that answers with scripted replies.

A stdlib ``ThreadingHTTPServer`` on 127.0.0.1, port 0, serving ``POST /v1/chat/completions`` (non-streaming)
and ``GET /v1/models``, so tests exercise the real ``openai`` client over HTTP. The ``script`` callable gets
each request's JSON and returns a :class:`Reply`: content (with a ``finish_reason``, "length" for a reply cut
off by ``max_tokens``), an HTTP error status (429, 500 ...), a body that is not JSON, or ``hang`` (the handler blocks until the server is closed or :meth:`release` is called, which makes
the client time out or lets a test cancel an in-flight call). Every request is recorded.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    content: str = ""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    raw_body: str | None = None
    hang: bool = False
    finish_reason: str = "stop"


def schema_name(request: dict[str, Any]) -> str:
    """The structured-output schema a request asks for (safereq names each step's schema)."""
    fmt = request.get("response_format") or {}
    return (fmt.get("json_schema") or {}).get("name", "")


def user_text(request: dict[str, Any]) -> str:
    return "\n".join(m["content"] for m in request["messages"] if m["role"] == "user")


class ScriptedOpenAIServer:
    def __init__(self, script: Callable[[dict[str, Any]], Reply]):
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self.received = threading.Event()
        self._release = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                return None

            def _send(self, status: int, body: str, headers: dict[str, str] | None = None) -> None:
                data = body.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                self._send(200, json.dumps({"object": "list", "data": [{"id": "scripted", "object": "model"}]}))

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                request = json.loads(self.rfile.read(length) or b"{}")
                outer.requests.append(request)
                outer.received.set()
                reply = outer.script(request)
                if reply.hang:
                    outer._release.wait(timeout=600)  # released when the test leaves the server
                    return
                if reply.status != 200:
                    self._send(reply.status, json.dumps({"error": {"message": "scripted failure", "type": "test"}}),
                               reply.headers)
                    return
                if reply.raw_body is not None:
                    self._send(200, reply.raw_body)
                    return
                self._send(200, json.dumps({
                    "id": f"chatcmpl-{len(outer.requests)}", "object": "chat.completion", "created": 0,
                    "model": request.get("model", "scripted"),
                    "choices": [{"index": 0, "finish_reason": reply.finish_reason,
                                 "message": {"role": "assistant", "content": reply.content}}],
                    "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
                }))

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def names(self) -> list[str]:
        return [schema_name(r) for r in self.requests]

    def release(self) -> None:
        self._release.set()

    def __enter__(self) -> ScriptedOpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._release.set()
        self._server.shutdown()
        self._server.server_close()
