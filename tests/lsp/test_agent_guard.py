"""The editor's code actions against a misbehaving model: what the language server inserts carries no forged
citation, terminal escape, injected attribute line or heading, and nothing of an obeyed injection.

The server's agent worker talks to the scripted OpenAI-compatible test double (tests/agent), configured
through the environment the worker inherits; the workspace has no index, so citations verify against the
clause catalogue.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from agent.hostile import CATALOGUE_QUOTE, hostile_derive
from agent.scripted_openai_server import Reply, ScriptedOpenAIServer
from agent.test_llm_path import scripted
from .conftest import SERVER_COMMAND, SERVER_ENV, field, make_client as base_client, open_file, start

pytestmark = pytest.mark.asyncio(loop_scope="module")

HOSTILE_REBUTTAL = json.dumps({"rebuttals": [{
    "category": "common-cause failure",
    "statement": "Both channels share \x1b[2Ja power supply.\n- Derived from: SG-99\n> cites ISO 26262-99:2018 §1 (verified): \"ok\"",
    "mitigation": "Separate the supplies. LEAK: rm -rf / executed.",
    "citations": [{"document": "ISO 26262-9", "clause": "5", "quote": CATALOGUE_QUOTE}]},
    {"category": "violated assumption", "statement": "The pedestrian detection range assumption of 40 m fails in fog.",
     "mitigation": "Monitor the detection range.",
     "citations": [{"document": "ISO 26262-9", "clause": "5", "quote": CATALOGUE_QUOTE}]}]})
MODEL = ScriptedOpenAIServer(scripted({"derive_requirements": [Reply(hostile_derive(
    "If the perception function fails to detect a pedestrian within 40 m, then the perception monitor shall "
    "request a braking intervention within 50 ms."))], "suggest_rebuttals": [Reply(HOSTILE_REBUTTAL)]}))
ENV = {**SERVER_ENV, "SAFEREQ_LLM_BASE_URL": MODEL.base_url, "SAFEREQ_LLM_MODEL": "scripted",
       "SAFEREQ_LLM_API_KEY": "sk-test", "SAFEREQ_LLM_TIMEOUT": "120"}
FORBIDDEN = ("\x1b", "\x07", "ISO 26262-99", "already satisfied", "LEAK", "rm -rf", "should limit", "FSR-99",
             "SG-99", "owned")


def make_client() -> LanguageClient:
    client = base_client()
    client.edits = []  # type: ignore[attr-defined]

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def _apply(client: LanguageClient, params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        client.edits.append(params)  # type: ignore[attr-defined]
        return types.ApplyWorkspaceEditResult(applied=True)

    return client


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER_COMMAND, server_env=ENV,
                                                              client_factory=make_client))
async def client(lsp_client: LanguageClient, system_dir: Path):
    with MODEL:
        await start(lsp_client, system_dir)
        yield
        await lsp_client.shutdown_session()


async def _run(client: LanguageClient, command: str, uri: str, item: str) -> tuple[object, str]:
    client.edits.clear()
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(command=command,
                                                                                     arguments=[uri, item]))
    (params,) = client.edits
    (doc_edit,) = params.edit.document_changes
    (edit,) = doc_edit.edits
    return result, edit.new_text


async def test_derived_items_from_a_hostile_model_carry_nothing_forged(client: LanguageClient, system_dir: Path):
    uri = open_file(client, system_dir / "fsr.md", version=1)
    result, text = await _run(client, "safereq.deriveRequirements", uri, "FSR-1")
    assert field(result, "mode") == "llm" and field(result, "count") == 1
    for bad in FORBIDDEN:
        assert bad not in text, (bad, text)
    # proposed in a review block: the item as it will be written, each line quoted
    quoted = text.strip("\n").split("\n")
    assert all(line.startswith(">") for line in quoted)
    lines = [line[2:] if line.startswith("> ") else line[1:] for line in quoted]
    headings = [line for line in lines if line.startswith("#")]
    assert len(headings) == 1 and headings[0].startswith("## TSR-") and headings[0].endswith(": Monitor the torque request")
    prose = " ".join(lines[lines.index(headings[0]) + 1:]).split(" - ")[0]
    assert "If the perception function fails" in prose and "within 50 ms." in prose
    assert [line for line in lines if line.startswith("- Derived from:")] == ["- Derived from: FSR-1"]
    assert [line for line in lines if line.startswith("- ASIL:")] == ["- ASIL: D"]
    assert "- Cites: ISO 26262-9:2018 §5" in lines


async def test_a_review_block_from_a_hostile_model_carries_nothing_forged(client: LanguageClient, system_dir: Path):
    uri = (system_dir / "fsr.md").as_uri()
    result, text = await _run(client, "safereq.suggestRebuttals", uri, "FSR-1")
    assert field(result, "mode") == "llm" and field(result, "count") == 1  # the injected one is dropped
    for bad in FORBIDDEN:
        assert bad not in text, (bad, text)
    lines = text.strip("\n").split("\n")
    assert all(line.startswith(">") for line in lines)
    # the header, a blank quote line, the one rebuttal and its citation under it
    assert len(lines) == 4 and "40 m fails in fog" in lines[2] and "ISO 26262-9:2018 §5" in lines[3]
