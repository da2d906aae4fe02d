"""Change impact in the editor: a suspect link is a diagnostic with "Mark reviewed" actions, a lens on the
suspect item, a mark in the trace and a line in the changed item's hover; marking it reviewed writes the
review file and clears the finding."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from safereq.cli.main import main
from safereq.impact.review_state import FILE_NAME

from .conftest import FIXTURES, change, find, open_file, server_config, start, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")
RULE = "trace/suspect-link"
WORKSPACE = FIXTURES.parent.parent / "fixtures" / "impact-workspace"
GOALS = (WORKSPACE / "goals.md").read_text(encoding="utf-8")
FSR = (WORKSPACE / "fsr.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("impact")
    (root / "safereq.toml").write_text("", encoding="utf-8")
    (root / "goals.md").write_text(GOALS, encoding="utf-8")
    (root / "fsr.md").write_text(FSR, encoding="utf-8")
    assert main(["review", "--all", str(root)]) == 0
    return root


@pytest_lsp.fixture(scope="module", config=server_config())
async def client(lsp_client: LanguageClient, root: Path):
    await start(lsp_client, root)
    yield
    await lsp_client.shutdown_session()


def suspects(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    return [d for d in client.diagnostics.get(uri, []) if d.code == RULE]


async def test_changing_a_goal_makes_its_childrens_links_suspect(client: LanguageClient, root: Path):
    fsr = (root / "fsr.md").as_uri()
    goals = open_file(client, root / "goals.md")
    line, col = find(GOALS, "- ASIL: C")
    change(client, goals, 2, (line, col + len("- ASIL: ")), (line, col + len("- ASIL: C")), "D")
    await wait_until(client, lambda: len(suspects(client, fsr)) == 2)
    first = suspects(client, fsr)[0]
    assert first.message == "SG-1 changed since FSR-1 was last reviewed against it: ASIL: C → D"
    assert first.range.start.line == find(FSR, "- Derived from: SG-1")[0]


async def test_lens_hover_and_trace_say_what_changed(client: LanguageClient, root: Path):
    fsr = (root / "fsr.md").as_uri()
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=fsr)))
    titles = [lens.command.title for lens in lenses]
    assert "⚠ SG-1 changed: ASIL: C → D" in titles
    goals = (root / "goals.md").as_uri()
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=goals), position=types.Position(*find(GOALS, "SG-1"))))
    assert "**Changed since reviewed** (ASIL: C → D): puts in question **FSR-1**, **FSR-2**" in hover.contents.value
    trace = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="safereq.showTrace", arguments=[goals, "SG-1"]))
    assert "⚠ *suspect: ASIL: C → D*" in trace["markdown"]


async def test_mark_reviewed_from_a_code_action_clears_the_finding(client: LanguageClient, root: Path):
    fsr = (root / "fsr.md").as_uri()
    diag = suspects(client, fsr)[0]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=fsr), range=diag.range,
        context=types.CodeActionContext(diagnostics=[diag])))
    titles = [a.title for a in actions]
    assert titles[:3] == ["Mark reviewed: FSR-1 against SG-1", "Mark reviewed: every link of FSR-1",
                          "Mark reviewed: every link in this document"]
    mark = actions[0].command
    if isinstance(actions[0], types.Command):
        # pygls' client decodes `Command | CodeAction` as Command when "command" is an object, and turns that
        # object into its str() (editors decode the union correctly): read it back.
        mark = types.Command(**ast.literal_eval(mark))
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=mark.command, arguments=mark.arguments))
    assert result["reviewed"] == 1 and result["updated"] == 1
    await wait_until(client, lambda: len(suspects(client, fsr)) == 1)
    records = [json.loads(l) for l in (root / FILE_NAME).read_text().splitlines()]
    reviewed = {r["link"]: r["reviewed"] for r in records if "link" in r}
    snapshots = {r["snapshot"]: r for r in records if "snapshot" in r}
    assert snapshots[reviewed["FSR-1 -> SG-1"]]["asil"] == "D"
    assert snapshots[reviewed["FSR-2 -> SG-1"]]["asil"] == "C"


async def test_bad_arguments_are_an_error_not_a_crash(client: LanguageClient, root: Path):
    from pygls.exceptions import JsonRpcException

    with pytest.raises(JsonRpcException, match="expects \\[uri, scope, target\\]"):
        await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="safereq.markReviewed", arguments=[(root / "fsr.md").as_uri(), "everything", ""]))
    with pytest.raises(JsonRpcException, match="no trace link"):
        await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="safereq.markReviewed", arguments=[(root / "fsr.md").as_uri(), "link", "FSR-1:SG-2"]))
