"""workspace/executeCommand: safereq.showTrace returns the trace as Markdown; the agent commands are announced
(their behaviour is tested with the agent, tests/agent/); bad arguments get an error, not a crash."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from .conftest import execute, server_config, start

pytestmark = pytest.mark.asyncio(loop_scope="module")

AGENT_COMMANDS = ["safereq.indexKnowledgeBase", "safereq.deriveRequirements", "safereq.suggestTraceLinks",
                  "safereq.suggestRebuttals"]
REPORT_COMMANDS = ["safereq.coverage", "safereq.writeReport"]


@pytest.fixture(scope="module")
def init_result() -> dict:
    return {}


@pytest_lsp.fixture(scope="module", config=server_config())
async def client(lsp_client: LanguageClient, system_dir: Path, init_result: dict):
    init_result["value"] = await start(lsp_client, system_dir)
    yield
    await lsp_client.shutdown_session()


async def test_commands_are_announced(client: LanguageClient, init_result: dict):
    offered = init_result["value"].capabilities.execute_command_provider.commands
    assert sorted(offered) == sorted(["safereq.showTrace", "safereq.markReviewed", *AGENT_COMMANDS, *REPORT_COMMANDS,
                                      "safereq.review.accept", "safereq.review.reject", "safereq.acceptFinding",
                                      "safereq.fixAll"])


async def test_show_trace_returns_markdown(client: LanguageClient, system_dir: Path):
    result = await execute(client, "safereq.showTrace", (system_dir / "fsr.md").as_uri(), "FSR-2")
    markdown = result["markdown"] if isinstance(result, dict) else result.markdown
    assert markdown.startswith("# Trace of FSR-2\n")
    assert "- derived from: **SG-1**: Avoid a collision with a pedestrian caused by a missed detection (SG, ASIL D)" in markdown
    assert "  - hazard: **HZ-1** (hazardous event, ASIL D)" in markdown
    assert "- verified by: **TC-2**: Sensor disagreement injection (TC)" in markdown


async def test_show_trace_of_an_unknown_item_or_with_bad_arguments(client: LanguageClient, system_dir: Path):
    uri = (system_dir / "fsr.md").as_uri()
    with pytest.raises(JsonRpcException, match="FSR-99 is not defined"):
        await execute(client, "safereq.showTrace", uri, "FSR-99")
    with pytest.raises(JsonRpcException, match="expects two arguments"):
        await execute(client, "safereq.showTrace", uri)
    with pytest.raises(JsonRpcException, match="unknown document"):
        await execute(client, "safereq.showTrace", "file:///nowhere/x.md", "FSR-1")
