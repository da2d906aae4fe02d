"""Definition, references, rename across files (prepareRename refuses non-IDs), document and workspace symbols."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from .conftest import find, pos

pytestmark = pytest.mark.asyncio(loop_scope="module")


def doc(path: Path) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=path.as_uri())


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


async def test_definition_of_a_link_is_the_heading_in_another_file(client: LanguageClient, system_dir: Path):
    fsr, goals = system_dir / "fsr.md", system_dir / "goals.md"
    result = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc(fsr), position=pos(text(fsr), "SG-1", shift=2)))
    line, col = find(text(goals), "SG-1")
    assert [(r.uri, r.range.start.line, r.range.start.character) for r in result] == [(goals.as_uri(), line, col)]


async def test_definition_of_a_hazardous_event_is_its_hara_row(client: LanguageClient, system_dir: Path):
    goals, hara = system_dir / "goals.md", system_dir / "hara.md"
    result = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc(goals), position=pos(text(goals), "HZ-1")))
    assert [r.uri for r in result] == [hara.as_uri()]
    assert result[0].range.start.line == find(text(hara), "HZ-1")[0]


async def test_references_across_files(client: LanguageClient, system_dir: Path):
    goals = system_dir / "goals.md"
    result = await client.text_document_references_async(types.ReferenceParams(
        text_document=doc(goals), position=pos(text(goals), "SG-1"),
        context=types.ReferenceContext(include_declaration=False)))
    places = sorted((Path(r.uri.removeprefix("file://")).name, r.range.start.line) for r in result)
    fsr = text(system_dir / "fsr.md")
    assert places == [("fsr.md", find(fsr, "SG-1")[0]), ("fsr.md", find(fsr, "SG-1", 1)[0]),
                      ("hara.md", find(text(system_dir / "hara.md"), "SG-1")[0])]
    with_decl = await client.text_document_references_async(types.ReferenceParams(
        text_document=doc(goals), position=pos(text(goals), "SG-1"),
        context=types.ReferenceContext(include_declaration=True)))
    assert len(with_decl) == 4


async def test_prepare_rename_accepts_ids_and_refuses_anything_else(client: LanguageClient, system_dir: Path):
    fsr = system_dir / "fsr.md"
    ok = await client.text_document_prepare_rename_async(types.PrepareRenameParams(
        text_document=doc(fsr), position=pos(text(fsr), "TC-2", shift=3)))
    assert ok.placeholder == "TC-2"
    line, col = find(text(fsr), "TC-2")
    assert ok.range == types.Range(types.Position(line, col), types.Position(line, col + 4))
    with pytest.raises(JsonRpcException, match="Only item IDs can be renamed"):
        await client.text_document_prepare_rename_async(types.PrepareRenameParams(
            text_document=doc(fsr), position=pos(text(fsr), "perception")))


async def test_rename_across_the_workspace_with_versioned_edits(client: LanguageClient, system_dir: Path):
    goals = system_dir / "goals.md"
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=doc(goals), position=pos(text(goals), "SG-1"), new_name="SG-100"))
    changes = {Path(c.text_document.uri.removeprefix("file://")).name: c for c in edit.document_changes}
    assert sorted(changes) == ["fsr.md", "goals.md", "hara.md"]
    assert all(e.new_text == "SG-100" for c in changes.values() for e in c.edits)
    assert [len(changes[n].edits) for n in ("fsr.md", "goals.md", "hara.md")] == [2, 1, 1]
    assert changes["goals.md"].text_document.version is None  # not open: the file on disk
    line, col = find(text(goals), "SG-1")
    assert changes["goals.md"].edits[0].range == types.Range(types.Position(line, col), types.Position(line, col + 4))


async def test_rename_refuses_an_existing_or_malformed_id(client: LanguageClient, system_dir: Path):
    goals = system_dir / "goals.md"
    for new_name, message in (("SG-2", "already defined"), ("sg-100", "is not an item ID")):
        with pytest.raises(JsonRpcException, match=message):
            await client.text_document_rename_async(types.RenameParams(
                text_document=doc(goals), position=pos(text(goals), "SG-1"), new_name=new_name))


async def test_document_symbols_nest_items_and_hara_rows(client: LanguageClient, system_dir: Path):
    goals = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=doc(system_dir / "goals.md")))
    assert [s.name for s in goals] == ["SG-1: Avoid a collision with a pedestrian caused by a missed detection",
                                       "SG-2: Avoid unintended full braking"]
    assert goals[0].kind == types.SymbolKind.Interface and goals[0].detail == "safety goal · ASIL D"
    hara = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=doc(system_dir / "hara.md")))
    assert [s.name.split(":")[0] for s in hara] == ["HZ-1", "HZ-2", "HZ-3", "HZ-4"]
    assert all(s.kind == types.SymbolKind.Event for s in hara)


async def test_workspace_symbols_are_fuzzy_on_id_and_title(client: LanguageClient, system_dir: Path):
    by_title = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="pedestrain detect"))
    assert by_title[0].name.startswith("FSR-1:")
    by_id = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="TC-"))
    assert [s.name.split(":")[0] for s in by_id[:2]] == ["TC-1", "TC-2"]
    assert by_id[0].location.uri == (system_dir / "tests.md").as_uri()
