"""Quick fixes: every fix of a finding becomes a code action with a versioned WorkspaceEdit; the first is preferred."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import change, codes, find, open_file, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def actions(client: LanguageClient, uri: str, rng: types.Range, only=None) -> list[types.CodeAction]:
    diagnostics = [d for d in client.diagnostics.get(uri, []) if d.range.start.line == rng.start.line]
    return await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=rng,
        context=types.CodeActionContext(diagnostics=diagnostics, only=only))) or []


async def test_dangling_link_offers_the_closest_ids_with_a_versioned_edit(client: LanguageClient, system_dir: Path):
    path = system_dir / "fsr.md"
    uri = open_file(client, path, version=3)
    await wait_until(client, lambda: "trace/dangling-link" in codes(client, uri))
    line, col = find(path.read_text(encoding="utf-8"), "SG-9")
    rng = types.Range(types.Position(line, col + 1), types.Position(line, col + 1))
    found = await actions(client, uri, rng)
    fixes = [a for a in found if a.title.startswith("Change to")]
    assert [a.title for a in fixes] == ["Change to SG-1", "Change to SG-2"]
    assert fixes[0].is_preferred and not fixes[1].is_preferred
    assert fixes[0].kind == types.CodeActionKind.QuickFix
    assert [d.code for d in fixes[0].diagnostics] == ["trace/dangling-link"]
    (doc_edit,) = fixes[0].edit.document_changes
    assert doc_edit.text_document.uri == uri and doc_edit.text_document.version == 3
    (edit,) = doc_edit.edits
    assert edit.new_text == "SG-1"
    assert edit.range == types.Range(types.Position(line, col), types.Position(line, col + 4))


async def test_fix_after_edits_carries_the_new_version(client: LanguageClient, system_dir: Path):
    uri = (system_dir / "fsr.md").as_uri()
    change(client, uri, 4, (0, 0), (0, 0), "## fsr-7: lower-case\n\n")
    await wait_until(client, lambda: "format/malformed-id" in codes(client, uri))
    found = await actions(client, uri, types.Range(types.Position(0, 4), types.Position(0, 4)))
    (action,) = found
    assert action.title == "Write the ID as FSR-7" and action.is_preferred
    (doc_edit,) = action.edit.document_changes
    assert doc_edit.text_document.version == 4
    assert doc_edit.edits[0].range == types.Range(types.Position(0, 3), types.Position(0, 8))


async def test_only_filter_and_ranges_without_findings(client: LanguageClient, system_dir: Path):
    uri = (system_dir / "fsr.md").as_uri()
    rng = types.Range(types.Position(0, 4), types.Position(0, 4))
    assert await actions(client, uri, rng, only=[types.CodeActionKind.Refactor]) == []
    assert len(await actions(client, uri, rng, only=[types.CodeActionKind.QuickFix])) == 1
    assert await actions(client, uri, types.Range(types.Position(2, 0), types.Position(2, 5))) == []
