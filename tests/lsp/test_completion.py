"""Completion of IDs in link attributes, attribute keys, ASIL values (with the decompositions the parent
allows), S/E/C classes and clause references, in an unsaved buffer that is part of the workspace."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import server_config, start

pytestmark = pytest.mark.asyncio(loop_scope="module")

URI = "untitled:Untitled-1"
DRAFT = """# Draft

## TSR-1: Limit the braking request

The brake controller shall limit the braking request to 10 m/s².

- Derived from: FSR-1, SG
- ASIL: 
- Verified by: 
- Severity: 
- 
See ISO 26262-9:2018 §5.4.1
"""


@pytest_lsp.fixture(scope="module", config=server_config())
async def client(lsp_client: LanguageClient, system_dir: Path):
    await start(lsp_client, system_dir)
    lsp_client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=URI, language_id="markdown", version=1, text=DRAFT)))
    yield
    await lsp_client.shutdown_session()


async def complete(client: LanguageClient, needle: str) -> types.CompletionList:
    """Completion at the end of the line that is ``needle`` or, failing that, starts with it."""
    lines = DRAFT.split("\n")
    line = lines.index(needle) if needle in lines else next(i for i, t in enumerate(lines) if t.startswith(needle))
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=URI),
        position=types.Position(line, len(lines[line]))))
    return result


async def test_ids_in_a_link_attribute_match_fuzzily_with_title_and_asil(client: LanguageClient):
    result = await complete(client, "- Derived from")
    labels = [i.label for i in result.items]
    assert labels[:2] == ["SG-1", "SG-2"]
    assert "FSR-1" not in labels  # already linked
    first = result.items[0]
    assert first.detail == "Avoid a collision with a pedestrian caused by a missed detection · ASIL D"
    line = DRAFT.split("\n").index("- Derived from: FSR-1, SG")
    assert first.text_edit.range == types.Range(types.Position(line, 23), types.Position(line, 25))


async def test_verified_by_offers_verification_items(client: LanguageClient):
    result = await complete(client, "- Verified by")
    assert [i.label for i in result.items] == ["TC-1", "TC-2"]


async def test_asil_values_include_the_decompositions_the_parent_allows(client: LanguageClient):
    result = await complete(client, "- ASIL")
    labels = [i.label for i in result.items]
    assert labels[0] == "D" and result.items[0].preselect and result.items[0].detail == "inherited from FSR-1"
    assert {"C(D)", "A(D)", "B(D)", "D(D)", "QM(D)"} <= set(labels)
    assert set(labels) >= {"QM", "A", "B", "C"} and len(labels) == len(set(labels))


async def test_severity_classes(client: LanguageClient):
    result = await complete(client, "- Severity")
    assert [i.label for i in result.items] == ["S0", "S1", "S2", "S3"]


async def test_attribute_keys_at_the_start_of_a_list_item(client: LanguageClient):
    result = await complete(client, "- ")
    labels = [i.label for i in result.items]
    assert labels[0] == "Hazard" and "ASIL" in labels and "Controllability" in labels
    assert result.items[0].text_edit.new_text == "Hazard: "


async def test_clause_references_from_the_catalogue(client: LanguageClient):
    result = await complete(client, "See ISO")
    labels = [i.label for i in result.items]
    assert "ISO 26262-9:2018 §5.4.10" in labels and "ISO 26262-9:2018 §5.4.11" in labels
    item = next(i for i in result.items if i.label == "ISO 26262-9:2018 §5.4.10")
    assert item.detail == "Permitted decomposition schemes"
    assert item.text_edit.range.start.character == 4


async def test_no_completion_in_prose(client: LanguageClient):
    lines = DRAFT.split("\n")
    line = lines.index("The brake controller shall limit the braking request to 10 m/s².")
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=URI), position=types.Position(line, 20)))
    assert result is None
