"""Streamable HTTP on 127.0.0.1 by default, and the CLI's start-up does not import the MCP SDK."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

from .conftest import SERVER_DIR, call, server_env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_listening(proc: subprocess.Popen, port: int, timeout: float = 180.0) -> None:
    """Until the port accepts a connection (the server loads the workspace first), or the process ends."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read().decode(errors="replace")[-2000:]
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)  # polling a condition with a deadline, not a timed assertion
    raise AssertionError(f"the server did not listen on {port} within {timeout} s")


async def test_streamable_http_on_the_loopback(workspace):
    from mcp import Client

    port = _free_port()
    env = {**os.environ, **server_env(workspace.parent)}
    proc = subprocess.Popen([sys.executable, "-m", "safereq", "mcp", "--offline", "--http", "--port", str(port),
                             str(workspace)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_listening(proc, port)
        async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=180) as client:
            found = await call(client, "find_items", {"id": "SG-1"})
            assert found["total"] == 1
        listening = subprocess.run(["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True).stdout
        if listening:  # ss is there: the socket is bound to the loopback only
            assert {line.split()[3] for line in listening.splitlines()} == {f"127.0.0.1:{port}"}
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def test_the_cli_does_not_import_the_sdk_until_mcp_runs():
    code = ("import sys; from safereq.cli.main import build_parser; build_parser(); "
            "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'safereq.mcp'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": SERVER_DIR})
    assert done.stdout.strip() == "[]"


def test_a_missing_folder_is_a_usage_error(tmp_path):
    done = subprocess.run([sys.executable, "-m", "safereq", "mcp", str(tmp_path / "nope")], capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": SERVER_DIR}, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "not a folder" in done.stderr and "Traceback" not in done.stderr
