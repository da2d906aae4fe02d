"""Hover on item IDs (headings, links, HARA cells), ASIL values, S/E/C classes, clause references and flagged
spans (the rule's explanation)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import pos, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def hover_at(client: LanguageClient, path: Path, needle: str, nth: int = 0, shift: int = 1):
    text = path.read_text(encoding="utf-8")
    return await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=pos(text, needle, nth, shift)))


async def test_hover_on_a_link_shows_the_item_its_asil_and_trace(client: LanguageClient, system_dir: Path):
    hover = await hover_at(client, system_dir / "fsr.md", "SG-1")  # "Derived from: SG-1" of FSR-1
    value = hover.contents.value
    assert value.startswith("**SG-1** · safety goal · ASIL D")
    assert "The vehicle shall brake automatically" in value
    assert "**Children:** **FSR-1** Detect pedestrians in the path; **FSR-2** Confirm a braking request" in value
    assert "**Hazards:** **HZ-1** (hazardous event)" in value
    assert "**EARS:** ubiquitous" in value
    assert "*Defined in*" in value and "goals.md" in value
    text = (system_dir / "fsr.md").read_text(encoding="utf-8")
    start = pos(text, "SG-1")
    assert hover.range == types.Range(start, types.Position(start.line, start.character + 4))


async def test_hover_on_a_heading_explains_a_decomposed_asil(client: LanguageClient, system_dir: Path):
    hover = await hover_at(client, system_dir / "fsr.md", "FSR-2")
    value = hover.contents.value
    assert "**FSR-2** · functional safety requirement · ASIL B(D)" in value
    assert "decomposed from ASIL D" in value and "inherits ASIL D from SG-1" in value
    assert "**Verified by:** **TC-2** Sensor disagreement injection" in value


async def test_hover_on_a_dangling_link_says_so_and_explains_the_rule(client: LanguageClient, system_dir: Path):
    value = (await hover_at(client, system_dir / "fsr.md", "SG-9")).contents.value
    assert "**SG-9** is not defined anywhere in the workspace." in value
    assert "**trace/dangling-link** (error)" in value


async def test_hover_on_hara_cells(client: LanguageClient, system_dir: Path):
    hara = system_dir / "hara.md"
    event = (await hover_at(client, hara, "HZ-2")).contents.value
    assert "**HZ-2** · hazardous event" in event and "S/E/C gives ASIL **C**" in event
    assert "**SG-2** Avoid unintended full braking" in event
    asil = (await hover_at(client, hara, "| C |", nth=1, shift=2)).contents.value
    assert "S/E/C S3/E4/C2 gives ASIL C" in asil and "agrees" in asil


async def test_hover_on_an_asil_value_gives_its_derivation(client: LanguageClient, system_dir: Path):
    value = (await hover_at(client, system_dir / "fsr.md", "B(D)")).contents.value
    assert value.startswith("**ASIL B(D)**")
    assert "decomposition schemes of ASIL D: C(D) + A(D), B(D) + B(D), D(D) + QM(D)" in value


async def test_hover_on_a_clause_reference_uses_the_catalogue(client: LanguageClient, system_dir: Path):
    value = (await hover_at(client, system_dir / "goals.md", "ISO 26262-3:2018 §7.4.2", shift=5)).contents.value
    assert value.startswith("**ISO 26262-3:2018 §7.4.2 — ")
    assert "clause catalogue" in value


async def test_no_hover_on_plain_prose(client: LanguageClient, system_dir: Path):
    assert await hover_at(client, system_dir / "tests.md", "dummy") is None


async def test_hover_names_the_ears_pattern_and_its_conditions(client: LanguageClient, system_dir: Path):
    """The statement's EARS pattern, as ears/no-pattern reads it, with the trigger or precondition."""
    path = system_dir / "event.md"
    path.write_text("## FSR-40: Stop on a fault\n\nWhile the LCA is active, when a fault is detected, the ECU "
                    "shall stop.\n\n## FSR-41: Upon\n\nUpon a fault, the ECU shall stop.\n", encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=path.as_uri(), type=types.FileChangeType.Created)]))
    await wait_until(client, lambda: path.as_uri() in client.diagnostics)
    value = (await hover_at(client, path, "FSR-40")).contents.value
    assert "**EARS:** complex; precondition: the LCA is active; trigger: a fault is detected" in value
    value = (await hover_at(client, path, "FSR-41")).contents.value
    assert "**EARS:** no EARS pattern: it opens with 'Upon'" in value
