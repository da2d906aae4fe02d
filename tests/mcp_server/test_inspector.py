"""The MCP Inspector's CLI (``@modelcontextprotocol/inspector --cli``, from npm) lists and calls the tools.

An independent client, written by the protocol's maintainers in TypeScript: what it accepts, other clients
accept. scripts/install_mcp_inspector.sh installs it under .cache/ (scripts/test.sh runs that); this test
runs the same script when the tool is missing, and skips only when npm itself is not there.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from .conftest import ROOT, server_env

INSPECTOR = ROOT / ".cache" / "mcp-inspector" / "node_modules" / ".bin" / "mcp-inspector"


@pytest.fixture(scope="module")
def inspector():
    if not INSPECTOR.exists():
        if shutil.which("npm") is None:
            pytest.skip("npm is not available, so the MCP Inspector CLI cannot be installed")
        subprocess.run(["bash", str(ROOT / "scripts" / "install_mcp_inspector.sh")], check=True, timeout=900)
    return INSPECTOR


def _run(inspector, workspace, *method: str, status: int = 0) -> dict:
    env = server_env(workspace.parent)
    server = [sys.executable, "-m", "safereq", "mcp", "--offline", str(workspace)]
    flags = [f for key, value in env.items() if value for f in ("-e", f"{key}={value}")]  # --offline: no LLM
    done = subprocess.run([str(inspector), "--cli", *flags, *server, *method], capture_output=True, text=True,
                          timeout=300, cwd=workspace)
    assert done.returncode == status, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_the_inspector_lists_and_calls_the_tools(inspector, workspace):
    listed = _run(inspector, workspace, "--method", "tools/list")
    names = {t["name"] for t in listed["tools"]}
    assert {"find_items", "get_item", "check", "coverage", "change_impact", "suggest_links"} <= names
    assert all(t["annotations"]["readOnlyHint"] for t in listed["tools"])

    item = _run(inspector, workspace, "--method", "tools/call", "--tool-name", "get_item", "--tool-arg", "id=FSR-1")
    assert item["isError"] is False and item["structuredContent"]["safety_goals"] == ["SG-1"]

    found = _run(inspector, workspace, "--method", "tools/call", "--tool-name", "find_items",
                 "--tool-arg", "kind=FSR", "limit=2")
    assert len(found["structuredContent"]["items"]) == 2 and found["structuredContent"]["next_offset"] == 2

    bad = _run(inspector, workspace, "--method", "tools/call", "--tool-name", "check", "--tool-arg", "path=../x.md",
               status=5)  # the CLI's status for a tool that answered with an error
    assert bad["isError"] is True and "'..' is not allowed" in bad["content"][0]["text"]


def test_the_inspector_reads_resources_and_prompts(inspector, workspace):
    item = _run(inspector, workspace, "--method", "resources/read", "--uri", "safereq://item/SG-1")
    assert json.loads(item["contents"][0]["text"])["id"] == "SG-1"
    prompts = _run(inspector, workspace, "--method", "prompts/list")
    assert {p["name"] for p in prompts["prompts"]} == {"review_requirement", "change_questions", "trace_item"}
