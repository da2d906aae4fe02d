"""Object stores that fail the way real ones do, on 127.0.0.1, for the store-fault tests.

- :func:`silent_store`: accepts connections and never answers (a paused server, a black-holed proxy);
- :func:`refusing_store`: answers every request as S3 does for an unknown access key (HTTP 403,
  ``InvalidAccessKeyId``);
- :func:`closed_port`: a port nothing listens on (a stopped server).

The real S3-compatible server (moto) comes from ``tests/knowledge/s3_server.py``.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REFUSAL = (b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InvalidAccessKeyId</Code><Message>The AWS Access '
           b"Key Id you provided does not exist in our records.</Message><RequestId>4442587FB7D0A2F9</RequestId>"
           b"</Error>")


@contextlib.contextmanager
def silent_store() -> Iterator[str]:
    """The URL of a listener that accepts every connection, reads nothing and answers nothing."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(128)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                return
            accepted.append(conn)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        server.close()
        for conn in accepted:
            conn.close()


class _Refuse(BaseHTTPRequestHandler):
    def _refuse(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.send_response(403)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(REFUSAL)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(REFUSAL)

    do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = _refuse

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass


@contextlib.contextmanager
def refusing_store() -> Iterator[str]:
    """The URL of an HTTP server that refuses every request as S3 refuses an unknown access key."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Refuse)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def closed_port() -> str:
    """The URL of a loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"
