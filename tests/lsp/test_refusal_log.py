"""A refused request (rename onto an existing ID, rename of something that is not an ID) is an ordinary user
error: the client gets the message, the server log gets one line for it, not a traceback. The log's lines
carry no time stamp of their own when the editor stamps them (SAFEREQ_LOG_TIMESTAMPS=0, set by the VS Code
extension), so the output channel does not show two."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from safereq.cli.serve import log_format

from .conftest import SERVER_ENV, TIMEOUT, copy_fixture, make_client, pos, start


async def logged_server(tmp_path: Path) -> tuple[Path, Path, LanguageClient]:
    """A copy of the ``system`` fixture, the server's log file (no time stamps) and a started client."""
    ws = copy_fixture("system", tmp_path)
    log = tmp_path / "server.log"
    config = ClientServerConfig(
        server_command=[sys.executable, "-m", "safereq", "serve", "--log-file", str(log)],
        server_env={**SERVER_ENV, "SAFEREQ_LOG_TIMESTAMPS": "0"}, client_factory=make_client)
    return ws, log, await config.start()


@pytest.mark.asyncio
async def test_refusals_are_one_log_line_without_traceback(tmp_path: Path):
    ws, log, client = await logged_server(tmp_path)
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


MALFORMED = [
    ("textDocument/hover", {"textDocument": {"uri": "URI"}}),
    ("textDocument/hover", {"textDocument": {"uri": "URI"}, "position": {"line": "x", "character": 0}}),
    ("textDocument/hover", {"textDocument": {"uri": "URI"}, "position": {"line": 2, "character": -5}}),
    ("textDocument/codeLens", []),
    ("textDocument/didOpen", None),
    ("textDocument/didChange", {"textDocument": {"uri": "URI"}, "contentChanges": [{"text": 5}]}),
]


@pytest.mark.asyncio
async def test_a_malformed_message_is_one_log_line_without_traceback(tmp_path: Path):
    """Issue 25, item 14: pygls logged a full traceback for every message that does not fit its method's
    type (868 in a fuzz run of 2,000 operations); the rejection was right, the log is now one line each."""
    from concurrent.futures import Future

    ws, log, client = await logged_server(tmp_path)
    uri = (ws / "goals.md").as_uri()
    answered: list[Future] = []
    try:
        await start(client, ws)
        for n, (method, params) in enumerate(MALFORMED):
            params = json.loads(json.dumps(params).replace('"URI"', json.dumps(uri)))
            message = {"jsonrpc": "2.0", "method": method, "params": params}
            if not method.startswith("textDocument/did"):
                message["id"] = f"malformed-{n}"
                answered.append(future := Future())
                client.protocol._request_futures[message["id"]] = future
            client.protocol._send_data(message)
        for future in answered:
            with pytest.raises(JsonRpcException):
                await asyncio.wait_for(asyncio.wrap_future(future), TIMEOUT)
        text = (ws / "goals.md").read_text(encoding="utf-8")
        assert await client.text_document_hover_async(types.HoverParams(  # the server is still answering
            text_document=types.TextDocumentIdentifier(uri=uri), position=pos(text, "SG-1"))) is not None
    finally:
        await client.shutdown_session()
        await client.stop()
    lines = log.read_text(encoding="utf-8").splitlines()
    assert "Traceback" not in "\n".join(lines), lines
    assert not [line for line in lines if "Unable to deserialize" in line]
    assert len([line for line in lines if line.startswith("WARNING safereq.lsp.server: malformed ")]) == len(MALFORMED)


def test_a_failure_to_read_a_message_that_is_not_a_validation_error_keeps_its_traceback():
    import logging

    from safereq.lsp.errors import OneLineMalformed, reading_a_call

    record = logging.LogRecord("pygls.protocol.json_rpc", logging.ERROR, __file__, 1,
                               "Unable to deserialize message\n%s", ("Traceback ...",), None)
    token = reading_a_call.set(True)
    try:
        try:
            raise TypeError("a bug in reading")
        except TypeError:
            assert OneLineMalformed().filter(record)  # kept: an internal error
    finally:
        reading_a_call.reset(token)
