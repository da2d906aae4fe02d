"""Clause hovers read the knowledge base once an index exists: it is opened in the background on the first
clause hover (the catalogue answers meanwhile), never at start-up. The server runs with a stand-in knowledge
base (fake_kb_server.py); the real index is tested in tests/knowledge/."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from .conftest import SERVER_ENV, make_client, start, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")

FAKE = [sys.executable, str(Path(__file__).with_name("fake_kb_server.py"))]
URI = "untitled:clauses"
TEXT = "## REQ-1: Supervise the widget\n\nThe controller shall be supervised (ISO 99999-2:2020 §5.2).\n"


@pytest.fixture(scope="module")
def indexed_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("kb")
    (root / "reqs.md").write_text(TEXT, encoding="utf-8")
    index = root / ".safereq" / "index"
    index.mkdir(parents=True)
    for part in ("_versions/1.manifest", "data/0.lance"):  # the shape the status calls an index (has data)
        (index / "chunks.lance" / part).parent.mkdir(parents=True, exist_ok=True)
        (index / "chunks.lance" / part).write_text("stand-in", encoding="utf-8")
    return root


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=FAKE, server_env=SERVER_ENV,
                                                              client_factory=make_client))
async def client(lsp_client: LanguageClient, indexed_dir: Path):
    await start(lsp_client, indexed_dir)
    lsp_client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=URI, language_id="markdown", version=1, text=TEXT)))
    yield
    await lsp_client.shutdown_session()


async def clause_hover(client: LanguageClient) -> str:
    column = TEXT.split("\n")[2].index("99999")
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=URI), position=types.Position(2, column)))
    return hover.contents.value


async def test_status_names_the_index_but_start_up_does_not_open_it(client: LanguageClient, indexed_dir: Path):
    ready = [s for s in client.statuses if s["state"] == "ready"]
    assert ready[-1]["index"] == str(indexed_dir / ".safereq" / "index")
    assert "knowledge base open" not in ready[-1]["message"]


async def test_first_hover_uses_the_catalogue_then_the_index_answers(client: LanguageClient, indexed_dir: Path):
    first = await clause_hover(client)
    assert first.startswith("**ISO 99999-2:2020 §5.2** — document ISO 99999-2, edition 2020, clause 5.2")
    (indexed_dir / ".safereq" / "index" / "release").touch()  # let the stand-in finish opening
    await wait_until(client, lambda: "knowledge base open" in client.statuses[-1]["message"], method="safereq/status")
    second = await clause_hover(client)
    assert second.startswith("**ISO 99999-2:2020 §5.2 — Watchdog supervision**")
    assert "A watchdog shall supervise the widget controller." in second
    assert "Subclauses: 5.2.1 Watchdog timeout" in second
    assert "*From the knowledge base: widget-standard.txt, page 2.*" in second
