"""The server's text is the editor's, or the disk's, or nothing is done with it (issue 12, items 2 and 3).

The editor is modelled here as what it is for LSP: a sequence of UTF-16 code units, edited by unit offsets
(bytes of ``utf-16-le`` with ``surrogatepass``), independent of the server's own conversion code.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from .conftest import change, codes, find, open_file, pos, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")


class Editor:
    """A buffer as an LSP client holds it: lines of UTF-16 code units, positions in code units."""

    def __init__(self, text: str) -> None:
        self.text = text

    def _offset(self, p: types.Position) -> int:
        lines = self.text.split("\n")
        before = sum(len(_units(line)) // 2 + 1 for line in lines[:p.line])
        return before + min(p.character, len(_units(lines[p.line])) // 2)

    def apply(self, rng: types.Range, new: str) -> None:
        data = _units(self.text)
        start, end = 2 * self._offset(rng.start), 2 * self._offset(rng.end)
        self.text = (data[:start] + _units(new) + data[end:]).decode("utf-16-le", errors="surrogatepass")

    def line(self, n: int) -> str:
        return self.text.split("\n")[n]


def _units(text: str) -> bytes:
    return text.encode("utf-16-le", errors="surrogatepass")


def _rng(sl: int, sc: int, el: int, ec: int) -> types.Range:
    return types.Range(types.Position(sl, sc), types.Position(el, ec))


async def _fixes(client: LanguageClient, uri: str, at: types.Position) -> list[types.CodeAction]:
    return await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=types.Range(at, at),
        context=types.CodeActionContext(diagnostics=list(client.diagnostics.get(uri, []))))) or []


async def test_a_lone_surrogate_is_kept_and_a_quick_fix_edits_the_right_characters(
        client: LanguageClient, system_dir: Path):
    """A lone ``\\ud83d`` used to make the server drop every change on its line; a fix at the editor's
    version then turned ``- Derived from: SG-1`` into ``- FSR-8ed from: SG-1``."""
    path = system_dir / "fsr.md"
    editor = Editor(path.read_text(encoding="utf-8"))
    uri = open_file(client, path, editor.text, version=1)
    await wait_until(client, lambda: "trace/dangling-link" in codes(client, uri))
    line, _ = find(editor.text, "- Derived from: SG-2, SG-9")
    end = len("- Derived from: SG-2, SG-9")
    for version, (rng, new) in enumerate([(_rng(line, end, line, end), " \ud83d"),  # a legal JSON escape
                                          (_rng(line, 20, line, 20), "2")], start=2):  # on the same line
        editor.apply(rng, new)
        change(client, uri, version, (rng.start.line, rng.start.character), (rng.end.line, rng.end.character), new)
    assert editor.line(line) == "- Derived from: SG-22, SG-9 \ud83d"
    at = pos(editor.text, "SG-22", shift=1)

    def fix_at_new_position() -> bool:
        return any(d.code == "trace/dangling-link" and d.range.start == pos(editor.text, "SG-22")
                   for d in client.diagnostics.get(uri, []))

    await wait_until(client, fix_at_new_position)
    (fix,) = [a for a in await _fixes(client, uri, at) if a.title == "Change to SG-2"]
    (doc_edit,) = fix.edit.document_changes
    assert doc_edit.text_document.version == 3
    for edit in doc_edit.edits:
        editor.apply(edit.range, edit.new_text)
    assert editor.line(line) == "- Derived from: SG-2, SG-9 \ud83d"
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))


async def test_a_change_that_cannot_be_applied_withholds_findings_and_fixes_until_reopened(
        client: LanguageClient, system_dir: Path):
    path = system_dir / "fsr.md"
    text = path.read_text(encoding="utf-8")
    uri = open_file(client, path, text, version=1)
    await wait_until(client, lambda: "trace/dangling-link" in codes(client, uri))
    change(client, uri, 2, (400, 0), (400, 1), "x")  # a range the document does not have
    await wait_until(client, lambda: codes(client, uri) == ["io/out-of-sync"])
    await wait_until(client, lambda: any("lost track of fsr.md" in m.message for m in client.messages),
                     method=types.WINDOW_SHOW_MESSAGE)
    with pytest.raises(JsonRpcException, match="no longer knows this document's text"):
        await _fixes(client, uri, pos(text, "SG-9"))
    goals = system_dir / "goals.md"
    with pytest.raises(JsonRpcException, match="no longer knows the editor's text of .*fsr.md"):
        await client.text_document_rename_async(types.RenameParams(
            text_document=types.TextDocumentIdentifier(goals.as_uri()),
            position=pos(goals.read_text(encoding="utf-8"), "SG-1"), new_name="SG-100"))
    change(client, uri, 3, (0, 0), (0, 0), "ignored ")  # incremental changes cannot bring it back
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=4),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    await wait_until(client, lambda: "trace/dangling-link" in codes(client, uri)
                     and "io/out-of-sync" not in codes(client, uri))
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))


async def test_rename_reads_a_closed_file_that_changed_on_disk_without_an_event(
        client: LanguageClient, system_dir: Path):
    """The edit used to be computed on the stale copy: ``SG-100`` landed on a blank line, the link stayed."""
    fsr, goals = system_dir / "fsr.md", system_dir / "goals.md"
    assert "- Derived from: SG-1\n" in fsr.read_text(encoding="utf-8")
    on_disk = "# Moved down\n\nTwo lines were added above by another program.\n\n" + fsr.read_text(encoding="utf-8")
    fsr.write_text(on_disk, encoding="utf-8")  # no didChangeWatchedFiles
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(goals.as_uri()),
        position=pos(goals.read_text(encoding="utf-8"), "SG-1"), new_name="SG-100"))
    (fsr_edit,) = [c for c in edit.document_changes if c.text_document.uri == fsr.as_uri()]
    assert fsr_edit.text_document.version is None
    editor = Editor(on_disk)
    for e in sorted(fsr_edit.edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        editor.apply(e.range, e.new_text)
    assert editor.text == on_disk.replace("Derived from: SG-1\n", "Derived from: SG-100\n")
