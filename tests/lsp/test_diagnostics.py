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


def _expected(system_dir: Path, edited: dict[str, str]) -> dict[str, set[tuple]]:
    """What a fresh check of the workspace (with ``edited`` texts) finds, as (code, range, related lines)."""
    from safereq.checks.config import load_config
    from safereq.checks.engine import Checker
    from safereq.workspace import Workspace

    ws = Workspace()
    for path in sorted(system_dir.glob("*.md")):
        ws.update(str(path), edited.get(path.name, path.read_text(encoding="utf-8")))
    out: dict[str, set[tuple]] = {}
    for f in Checker(load_config(system_dir)).check(ws):
        out.setdefault(Path(f.path).as_uri(), set()).add(
            (f.rule, f.span.start_line, f.span.start_col, f.span.end_line, f.span.end_col,
             tuple(r.span.start_line for r in f.related)))
    return out


def _published(client: LanguageClient, uri: str) -> set[tuple]:
    return {(d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character,
             tuple(r.location.range.start.line for r in d.related_information or ()))
            for d in client.diagnostics.get(uri, []) if d.source == "safereq"}


@pytest.mark.parametrize("name", ["goals.md", "fsr.md"])
async def test_inserting_lines_moves_diagnostics_here_and_related_places_elsewhere(
        client: LanguageClient, system_dir: Path, name: str):
    """Pressing Enter moves the findings below the cursor, and the places in other documents' findings
    that point below it, exactly where a fresh check puts them (goals.md: places in fsr.md's findings
    point into it; fsr.md: its own findings move)."""
    path = system_dir / name
    uris = [(system_dir / n).as_uri() for n in ("goals.md", "fsr.md")]
    uri = open_file(client, path, version=20)
    text = path.read_text(encoding="utf-8")

    async def published_as_fresh(edited: dict[str, str]) -> dict[str, set[tuple]]:
        expected = _expected(system_dir, edited)
        await wait_until(client, lambda: all(_published(client, u) == expected.get(u, set()) for u in uris))
        return expected

    before = await published_as_fresh({})
    at = text.index("\n## ") + 1  # the first item heading
    line = text.count("\n", 0, at)
    change(client, uri, 21, (line, 0), (line, 0), "Introductory prose.\n\n")
    after = await published_as_fresh({name: text[:at] + "Introductory prose.\n\n" + text[at:]})
    assert after != before  # something moved
    change(client, uri, 22, (line, 0), (line + 2, 0), "")
    await published_as_fresh({})
