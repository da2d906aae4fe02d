"""The workspace model stays current: buffers override the disk until closed; files created, changed, renamed
or deleted on disk (watched-file events and file operations) and new workspace folders update the findings of
every document, including ASIL findings in other files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import change, codes, copy_fixture, find, open_file, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")


def dangling(client: LanguageClient, uri: str) -> list[str]:
    return sorted(d.message.split(" names ")[1].split(",")[0] for d in client.diagnostics.get(uri, [])
                  if d.code == "trace/dangling-link")


def watched(client: LanguageClient, path: Path, kind: types.FileChangeType) -> None:
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=path.as_uri(), type=kind)]))


async def test_raising_a_goal_asil_flags_its_children_in_another_file(client: LanguageClient, system_dir: Path):
    goals_path = system_dir / "goals.md"
    fsr = (system_dir / "fsr.md").as_uri()
    goals = open_file(client, goals_path)
    await wait_until(client, lambda: goals in client.diagnostics)
    assert "asil/lower-than-parent" not in codes(client, fsr)
    line, col = find(goals_path.read_text(encoding="utf-8"), "ASIL: C")
    change(client, goals, 2, (line, col + 6), (line, col + 7), "D")
    await wait_until(client, lambda: "asil/lower-than-parent" in codes(client, fsr))
    diag = next(d for d in client.diagnostics[fsr] if d.code == "asil/lower-than-parent")
    assert "FSR-3" in diag.message
    assert any(r.location.uri == goals for r in diag.related_information or [])


async def test_closing_a_buffer_reverts_to_the_disk(client: LanguageClient, system_dir: Path):
    goals = (system_dir / "goals.md").as_uri()
    fsr = (system_dir / "fsr.md").as_uri()
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=goals)))
    await wait_until(client, lambda: "asil/lower-than-parent" not in codes(client, fsr))


async def test_files_created_and_deleted_on_disk(client: LanguageClient, system_dir: Path):
    fsr = (system_dir / "fsr.md").as_uri()
    await wait_until(client, lambda: dangling(client, fsr) == ["SG-9"])
    extra = system_dir / "more-goals.md"
    extra.write_text("# More goals\n\n## SG-9: Warn before degraded braking\n\nThe driver shall be warned.\n\n"
                     "- ASIL: C\n", encoding="utf-8")
    watched(client, extra, types.FileChangeType.Created)
    await wait_until(client, lambda: dangling(client, fsr) == [])
    extra.unlink()
    watched(client, extra, types.FileChangeType.Deleted)
    await wait_until(client, lambda: dangling(client, fsr) == ["SG-9"])


async def test_file_operations_rename_and_delete(client: LanguageClient, system_dir: Path):
    fsr = system_dir / "fsr.md"
    old, new = system_dir / "tests.md", system_dir / "verification.md"
    shutil.move(old, new)
    client.workspace_did_rename_files(types.RenameFilesParams(
        files=[types.FileRename(old_uri=old.as_uri(), new_uri=new.as_uri())]))
    text = fsr.read_text(encoding="utf-8")
    line, col = find(text, "TC-1")

    async def target() -> str:
        result = await client.text_document_definition_async(types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=fsr.as_uri()), position=types.Position(line, col)))
        return result[0].uri if result else ""

    assert await target() == new.as_uri()
    new.unlink()
    client.workspace_did_delete_files(types.DeleteFilesParams(files=[types.FileDelete(uri=new.as_uri())]))
    await wait_until(client, lambda: "TC-1" in dangling(client, fsr.as_uri()))
    assert await target() == ""


async def test_a_new_workspace_folder_is_loaded(client: LanguageClient, system_dir: Path,
                                               tmp_path_factory: pytest.TempPathFactory):
    second = copy_fixture("configured", tmp_path_factory.mktemp("second"))
    client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
        event=types.WorkspaceFoldersChangeEvent(
            added=[types.WorkspaceFolder(uri=second.as_uri(), name="second")], removed=[])))
    other = (second / "fsr.md").as_uri()
    await wait_until(client, lambda: "trace/dangling-link" in codes(client, other))
    assert dangling(client, other) == ["SG-7"]


async def test_unreadable_files_get_an_io_diagnostic(client: LanguageClient, system_dir: Path):
    binary = system_dir / "scan.md"
    binary.write_bytes(b"# Scan\n\x00\x01\x02")
    watched(client, binary, types.FileChangeType.Created)
    await wait_until(client, lambda: codes(client, binary.as_uri()) == ["io/binary"])
    binary.write_text("# Scan\n\nNow text.\n", encoding="utf-8")
    watched(client, binary, types.FileChangeType.Changed)
    await wait_until(client, lambda: codes(client, binary.as_uri()) == [])
