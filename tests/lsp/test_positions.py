"""Positions are exact in UTF-16 (the default) and in UTF-8 / UTF-32 when the client offers them, on lines with
Chinese text and emoji: diagnostics, hovers and incremental edits all land on the right characters."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import capabilities, codes, server_config, start, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")

URI = "untitled:positions"
TEXT = """# 危害分析 😀

| 说明 | ID | S | E | C | ASIL | Safety goal |
|---|---|---|---|---|---|---|
| 行人 😀🚗 横穿 | HZ-9 | S3 | E4 | C3 | D | SG-404 |
"""
ROW = 4
ENCODINGS = {"utf-16": ["utf-16"], "utf-8": ["utf-8", "utf-16"], "utf-32": ["utf-32", "utf-16"]}


def column(encoding: str, line: str, needle: str) -> int:
    prefix = line[: line.index(needle)]
    if encoding == "utf-8":
        return len(prefix.encode("utf-8"))
    if encoding == "utf-16":
        return len(prefix.encode("utf-16-le")) // 2
    return len(prefix)


@pytest_lsp.fixture(scope="module", config=server_config(), params=sorted(ENCODINGS))
async def client(lsp_client: LanguageClient, system_dir: Path, request: pytest.FixtureRequest):
    result = await start(lsp_client, system_dir, capabilities(ENCODINGS[request.param]))
    lsp_client.requested = request.param  # type: ignore[attr-defined]
    lsp_client.negotiated = result.capabilities.position_encoding  # type: ignore[attr-defined]
    lsp_client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=URI, language_id="markdown", version=1, text=TEXT)))
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def encoding(client: LanguageClient) -> str:
    return client.requested


async def test_negotiated_encoding(client: LanguageClient, encoding: str):
    assert client.negotiated == encoding


async def test_diagnostic_range_after_emoji(client: LanguageClient, encoding: str):
    await wait_until(client, lambda: "trace/dangling-link" in codes(client, URI))
    diag = next(d for d in client.diagnostics[URI] if d.code == "trace/dangling-link")
    line = TEXT.split("\n")[ROW]
    start = column(encoding, line, "SG-404")
    assert diag.range == types.Range(types.Position(ROW, start), types.Position(ROW, start + 6))


async def test_hover_after_emoji(client: LanguageClient, encoding: str):
    line = TEXT.split("\n")[ROW]
    start = column(encoding, line, "HZ-9")
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=URI), position=types.Position(ROW, start + 2)))
    assert hover.contents.value.startswith("**HZ-9** · hazardous event")
    assert hover.range == types.Range(types.Position(ROW, start), types.Position(ROW, start + 4))


async def test_incremental_edit_after_emoji(client: LanguageClient, encoding: str):
    line = TEXT.split("\n")[ROW]
    start = column(encoding, line, "SG-404")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(ROW, start), types.Position(ROW, start + 6)), text="SG-1")]))
    await wait_until(client, lambda: "trace/dangling-link" not in codes(client, URI))
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=URI), position=types.Position(ROW, start + 1)))
    assert hover.contents.value.startswith("**SG-1** · safety goal")
