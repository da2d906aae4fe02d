"""The agent worker is warmed in the background after ``initialized``: the first agent code action runs in a
worker that has already imported and opened what it needs, so it is as fast as the next one.

Checked without timing: the worker reports, with each result, whether it was warm and which modules the
request had to import itself. (Speed is measured in benchmarks/agent/run.py.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from .conftest import SERVER_COMMAND, SERVER_ENV, field, make_client as base_client, open_file, start

pytestmark = pytest.mark.asyncio(loop_scope="module")


def make_client() -> LanguageClient:
    client = base_client()

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def _apply(client: LanguageClient, params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        return types.ApplyWorkspaceEditResult(applied=True)

    return client


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER_COMMAND,
                                                              server_env=dict(SERVER_ENV), client_factory=make_client))
async def client(lsp_client: LanguageClient, system_dir: Path):
    await start(lsp_client, system_dir)
    yield
    await lsp_client.shutdown_session()


async def test_the_first_agent_action_pays_no_imports(client: LanguageClient, system_dir: Path):
    uri = open_file(client, system_dir / "fsr.md", version=1)
    for task, command in (("links", "safereq.suggestTraceLinks"), ("derive", "safereq.deriveRequirements")):
        result = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=command, arguments=[uri, "FSR-1"]))
        worker = field(result, "worker")
        worker = worker if isinstance(worker, dict) else vars(worker)
        assert worker["warm"] is True, task
        imported = list(worker["imported"])
        assert not [m for m in imported if m.split(".")[0] in ("lancedb", "llama_index", "openai", "pyarrow",
                                                                "rapidfuzz", "pydantic", "numpy")], imported
        assert not [m for m in imported if m.startswith("safereq.agent")], imported
