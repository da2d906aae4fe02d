"""Error paths: unknown URIs, positions past the end, out-of-order versions, impossible change ranges,
malformed parameters and a failing feature all get an error (or a logged message for notifications), and
the server keeps running with its state intact."""

from __future__ import annotations

import asyncio
import sys
from concurrent.futures import Future
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from .conftest import SERVER_ENV, TIMEOUT, change, codes, make_client, start, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")

FAULTY = [sys.executable, str(Path(__file__).with_name("faulty_server.py"))]
URI = "untitled:errors"
TEXT = "# Errors\n\n## REQ-1: A requirement\n\nThe system shall respond.\n\n- Derived from: REQ-404\n"


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=FAULTY, server_env=SERVER_ENV,
                                                              client_factory=make_client))
async def client(lsp_client: LanguageClient, system_dir: Path):
    await start(lsp_client, system_dir)
    lsp_client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=URI, language_id="markdown", version=1, text=TEXT)))
    await wait_until(lsp_client, lambda: "trace/dangling-link" in codes(lsp_client, URI))
    yield
    await lsp_client.shutdown_session()


def definition(client: LanguageClient, uri: str, line: int, character: int):
    return client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line, character)))


async def logged_error(client: LanguageClient, needle: str) -> str:
    def found() -> bool:
        return any(needle in m.message and m.type == types.MessageType.Error for m in client.log_messages)

    await wait_until(client, found, method=types.WINDOW_LOG_MESSAGE)
    return next(m.message for m in client.log_messages if needle in m.message)


async def test_a_failing_request_is_answered_with_an_error_and_the_server_goes_on(client: LanguageClient):
    with pytest.raises(JsonRpcException, match="injected hover failure"):
        await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=URI), position=types.Position(2, 4)))
    result = await definition(client, URI, 6, 17)
    assert result is None  # REQ-404 is not defined: no location, but an answer
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=URI)))
    assert [s.name for s in symbols] == ["REQ-1: A requirement"]


async def test_unknown_uri_and_position_past_the_end(client: LanguageClient):
    with pytest.raises(JsonRpcException, match="unknown document file:///nowhere/missing.md"):
        await definition(client, "file:///nowhere/missing.md", 0, 0)
    with pytest.raises(JsonRpcException, match="past the end of the document"):
        await definition(client, URI, 99, 0)


def replace_all(client: LanguageClient, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


async def test_out_of_order_version_is_refused_and_the_document_withheld_until_resent(client: LanguageClient):
    """Issue 12: refusing a change and carrying on with the old text was a silent divergence."""
    change(client, URI, 1, (6, 16), (6, 23), "REQ-1")  # version 1 again: stale
    message = await logged_error(client, "arrived after version 1")
    assert "no longer has the editor's text" in message
    await wait_until(client, lambda: codes(client, URI) == ["io/out-of-sync"])
    change(client, URI, 2, (6, 16), (6, 23), "REQ-1")  # an incremental change cannot repair it
    replace_all(client, 3, TEXT.replace("REQ-404", "REQ-1"))  # the whole text can
    await wait_until(client, lambda: codes(client, URI) != ["io/out-of-sync"]
                     and "trace/dangling-link" not in codes(client, URI))


async def test_change_range_past_the_end_is_refused(client: LanguageClient):
    change(client, URI, 4, (40, 0), (41, 0), "junk")
    await logged_error(client, "past the end of the document")
    with pytest.raises(JsonRpcException, match="no longer knows this document's text"):
        await client.text_document_document_symbol_async(types.DocumentSymbolParams(
            text_document=types.TextDocumentIdentifier(uri=URI)))
    replace_all(client, 5, TEXT)
    await wait_until(client, lambda: "trace/dangling-link" in codes(client, URI))
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=URI)))
    assert [s.name for s in symbols] == ["REQ-1: A requirement"]


async def test_change_to_a_document_that_is_not_open(client: LanguageClient):
    change(client, "untitled:never-opened", 2, (0, 0), (0, 0), "x")
    await logged_error(client, "is not open")


async def test_malformed_parameters_get_invalid_params(client: LanguageClient):
    future: Future = Future()
    client.protocol._request_futures["malformed-1"] = future
    client.protocol._send_data({"jsonrpc": "2.0", "id": "malformed-1", "method": types.TEXT_DOCUMENT_HOVER,
                                "params": {"textDocument": {"uri": URI}}})
    with pytest.raises(JsonRpcException, match=r"required field missing @ \$\.params\.position") as err:
        await asyncio.wait_for(asyncio.wrap_future(future), TIMEOUT)
    assert err.value.code == -32602
    assert (await definition(client, URI, 2, 4))[0].range.start.line == 2


async def test_non_markdown_buffers_are_not_checked(client: LanguageClient):
    uri = "untitled:notes.py"
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="python", version=1, text="## fsr-1: not a requirement\n")))
    with pytest.raises(JsonRpcException, match="not a Markdown document"):
        await definition(client, uri, 0, 4)
    assert uri not in client.diagnostics
