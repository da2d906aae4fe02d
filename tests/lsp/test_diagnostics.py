"""Diagnostics: published for the whole workspace after loading, with the rule id as code, a link to the
rule's page and related places; updated after edits, including in *other* documents."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import change, codes, find, open_file, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_workspace_diagnostics_after_load(client: LanguageClient, system_dir: Path):
    fsr = (system_dir / "fsr.md").as_uri()
    await wait_until(client, lambda: "trace/dangling-link" in codes(client, fsr))
    dangling = next(d for d in client.diagnostics[fsr] if d.code == "trace/dangling-link")
    text = (system_dir / "fsr.md").read_text(encoding="utf-8")
    line, col = find(text, "SG-9")
    assert dangling.range == types.Range(types.Position(line, col), types.Position(line, col + 4))
    assert dangling.severity == types.DiagnosticSeverity.Error
    assert dangling.source == "safereq"
    assert dangling.code_description is not None and dangling.code_description.href.endswith("trace-dangling-link.md")
    ready = [s for s in client.statuses if s["state"] == "ready"]
    assert ready and "4 documents" in ready[-1]["message"]


async def test_related_information_points_at_the_other_party(client: LanguageClient, system_dir: Path):
    fsr = (system_dir / "fsr.md").as_uri()
    await wait_until(client, lambda: "asil/decomposition-partner" in codes(client, fsr))
    diag = next(d for d in client.diagnostics[fsr] if d.code == "asil/decomposition-partner")
    assert diag.related_information
    related = diag.related_information[0]
    goals = (system_dir / "goals.md")
    assert related.location.uri == goals.as_uri()
    line, col = find(goals.read_text(encoding="utf-8"), "ASIL: D")
    assert related.location.range.start.line == line


async def test_fixing_an_id_in_one_file_clears_the_error_in_another(client: LanguageClient, system_dir: Path):
    fsr = (system_dir / "fsr.md").as_uri()
    goals_path = system_dir / "goals.md"
    goals = open_file(client, goals_path)
    await wait_until(client, lambda: goals in client.diagnostics)
    assert "trace/dangling-link" in codes(client, fsr)
    text = goals_path.read_text(encoding="utf-8")
    line, col = find(text, "SG-2")
    change(client, goals, 2, (line, col), (line, col + 4), "SG-9")
    # SG-9 now exists, SG-2 does not: the dangling link in fsr.md moves from SG-9 to SG-2.
    await wait_until(client, lambda: any(d.code == "trace/dangling-link" and "names SG-2" in d.message
                                         for d in client.diagnostics.get(fsr, [])))
    assert not any("names SG-9" in d.message for d in client.diagnostics[fsr] if d.code == "trace/dangling-link")
    change(client, goals, 3, (line, col), (line, col + 4), "SG-2")
    await wait_until(client, lambda: any("names SG-9" in d.message for d in client.diagnostics.get(fsr, [])
                                         if d.code == "trace/dangling-link"))


async def test_edit_publishes_for_the_edited_document_with_its_version(client: LanguageClient, system_dir: Path):
    tests_path = system_dir / "tests.md"
    uri = open_file(client, tests_path, version=7)
    await wait_until(client, lambda: uri in client.diagnostics)
    change(client, uri, 8, (2, 0), (2, 0), "## tc-9: lower-case id\n\n")
    await wait_until(client, lambda: "format/malformed-id" in codes(client, uri))
    diag = next(d for d in client.diagnostics[uri] if d.code == "format/malformed-id")
    assert diag.range.start == types.Position(2, 3)
    change(client, uri, 9, (2, 0), (4, 0), "")
    await wait_until(client, lambda: "format/malformed-id" not in codes(client, uri))
