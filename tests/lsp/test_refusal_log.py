"""A refused request (rename onto an existing ID, rename of something that is not an ID) is an ordinary user
error: the client gets the message, the server log gets one line for it, not a traceback. The log's lines
carry no time stamp of their own when the editor stamps them (SAFEREQ_LOG_TIMESTAMPS=0, set by the VS Code
extension), so the output channel does not show two."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from safereq.cli.serve import log_format

from .conftest import SERVER_ENV, copy_fixture, make_client, pos, start

@pytest.mark.asyncio
async def test_refusals_are_one_log_line_without_traceback(tmp_path: Path):
    ws = copy_fixture("system", tmp_path)
    log = tmp_path / "server.log"
    config = ClientServerConfig(
        server_command=[sys.executable, "-m", "safereq", "serve", "--log-file", str(log)],
        server_env={**SERVER_ENV, "SAFEREQ_LOG_TIMESTAMPS": "0"}, client_factory=make_client)
    client: LanguageClient = await config.start()
    try:
        await start(client, ws)
        goals = ws / "goals.md"
        text = goals.read_text(encoding="utf-8")
        doc = types.TextDocumentIdentifier(uri=goals.as_uri())
        with pytest.raises(JsonRpcException, match="SG-2 is already defined"):
            await client.text_document_rename_async(types.RenameParams(
                text_document=doc, position=pos(text, "SG-1"), new_name="SG-2"))
        with pytest.raises(JsonRpcException, match="Only item IDs can be renamed"):
            await client.text_document_prepare_rename_async(types.PrepareRenameParams(
                text_document=doc, position=pos(text, "Avoid")))
    finally:
        await client.shutdown_session()
        await client.stop()
    lines = log.read_text(encoding="utf-8").splitlines()
    assert "Traceback" not in "\n".join(lines)
    refused = [line for line in lines if "refused" in line]
    assert any("SG-2 is already defined" in line for line in refused), lines
    assert any("Only item IDs can be renamed" in line for line in refused), lines
    assert all(line.startswith("INFO ") for line in refused), refused
    assert not any(re.match(r"\d{4}-\d\d-\d\d", line) for line in lines), lines[:3]


def test_log_lines_are_stamped_unless_the_editor_stamps_them():
    assert log_format({}).startswith("%(asctime)s ")
    assert log_format({"SAFEREQ_LOG_TIMESTAMPS": "1"}).startswith("%(asctime)s ")
    assert log_format({"SAFEREQ_LOG_TIMESTAMPS": "0"}) == "%(levelname)s %(name)s: %(message)s"


def test_agent_lines_keep_their_level_and_carry_one():
    import logging

    from safereq.lsp.agent_client import relayed

    assert relayed("INFO safereq.agent.tasks.worker: ready\n") == (logging.INFO, "safereq.agent.tasks.worker: ready")
    assert relayed("WARNING safereq.agent.llm: retrying") == (logging.WARNING, "safereq.agent.llm: retrying")
    assert relayed("a library printed this") == (logging.INFO, "a library printed this")
    assert relayed("INFO") == (logging.INFO, "INFO")
