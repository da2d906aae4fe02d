"""The MCP tests talk to a real ``safereq mcp`` process through the SDK's own client over stdio.

``workspace`` is a copy of examples/ in a fresh git repository (one commit), so change impact has a
revision to compare with; ``serve(folder)`` starts the server there and yields a connected client.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

import safereq

ROOT = Path(__file__).resolve().parents[2]
SERVER_DIR = str(Path(safereq.__file__).resolve().parents[1])
TIMEOUT = 180  # seconds for one request: generous, the CI machine is busy


def git(root: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True,
                          env=env).stdout


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(ROOT / "examples", ws)
    git(ws, "init", "-q", "-b", "main")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "requirements")
    return ws


def server_env(tmp: Path) -> dict[str, str]:
    """No index (the clause catalogue is used), no LLM, this checkout's package first."""
    return {"PYTHONPATH": SERVER_DIR, "SAFEREQ_INDEX": str(tmp / "no-index"), "SAFEREQ_LLM_BASE_URL": "",
            "SAFEREQ_LLM_MODEL": "", "HOME": str(tmp)}


@asynccontextmanager
async def serve(folder: Path, *extra: str):
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "safereq", "mcp", "--offline", *extra, str(folder)],
                                   cwd=str(folder.parent), env=server_env(folder.parent))
    async with Client(params, read_timeout_seconds=TIMEOUT) as client:
        yield client


async def call(client, name: str, arguments: dict | None = None) -> dict:
    """The structured result of a tool call that must succeed."""
    result = await client.call_tool(name, arguments or {})
    assert not result.is_error, result.content[0].text
    assert result.structured_content is not None
    # The text content mirrors the structured content (for clients that read only text).
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


async def refused(client, name: str, arguments: dict) -> str:
    """The message of a tool call that must fail as a tool error (not a protocol failure or a crash)."""
    result = await client.call_tool(name, arguments)
    assert result.is_error, result.structured_content
    text = result.content[0].text
    assert "Traceback" not in text and "internal error" not in text, text
    return text
