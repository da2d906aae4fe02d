"""Code lenses on item headings and inlay hints with the ASIL that S/E/C gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import find

IN_MODULE_LOOP = pytest.mark.asyncio(loop_scope="module")


@IN_MODULE_LOOP
async def test_code_lens_summarises_each_item(client: LanguageClient, system_dir: Path):
    goals = system_dir / "goals.md"
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=goals.as_uri())))
    assert [lens.command.title for lens in lenses] == [
        "0 parents · 2 children · not verified · ASIL D",
        "0 parents · 1 child · not verified · ASIL C",
    ]
    first = lenses[0]
    assert first.range.start.line == find(goals.read_text(encoding="utf-8"), "## SG-1")[0]
    assert first.command.command == "safereq.showTrace"
    assert list(first.command.arguments) == [goals.as_uri(), "SG-1"]


@IN_MODULE_LOOP
async def test_code_lens_counts_verification(client: LanguageClient, system_dir: Path):
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=(system_dir / "fsr.md").as_uri())))
    assert lenses[0].command.title == "1 parent · 0 children · 1 verification · ASIL D"
    assert lenses[2].command.title == "2 parents · 0 children · 1 verification · ASIL C"


@IN_MODULE_LOOP
async def test_inlay_hints_show_the_asil_sec_gives(client: LanguageClient, system_dir: Path):
    hara = system_dir / "hara.md"
    text = hara.read_text(encoding="utf-8")
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=hara.as_uri()),
        range=types.Range(types.Position(0, 0), types.Position(len(text.split("\n")), 0))))
    labels = [(h.position.line, h.label) for h in hints]
    row1 = find(text, "| HZ-1")[0]
    assert (row1, "→ D") in labels
    assert (find(text, "| HZ-3")[0], "→ QM") in labels
    item_hint = next(h for h in hints if h.label == "→ ASIL A")
    line, col = find(text, "Controllability: C2")
    assert item_hint.position == types.Position(line, col + len("Controllability: C2"))
    only_first_rows = await client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=hara.as_uri()),
        range=types.Range(types.Position(row1, 0), types.Position(row1, 10))))
    assert [h.label for h in only_first_rows] == ["→ D"]


def test_vscode_family_clients_get_the_extension_command():
    from types import SimpleNamespace

    from safereq.lsp.lens import _show_trace_command

    assert _show_trace_command(SimpleNamespace(client_name="Visual Studio Code")) == "safereq.item.showTrace"
    assert _show_trace_command(SimpleNamespace(client_name="code-server")) == "safereq.item.showTrace"
    assert _show_trace_command(SimpleNamespace(client_name="Neovim")) == "safereq.showTrace"
