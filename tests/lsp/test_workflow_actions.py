"""Accept a finding as a deviation, and fix all safe findings of a document, through a real LSP client.

The client behaves like an editor: it applies the server's WorkspaceEdits (refusing one made for another
version) and sends the result back as didChange, so each next request sees what the user would see.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient

from .conftest import SERVER_COMMAND, SERVER_ENV, start, wait_until
from .editor import apply_edits, make_editor_client, open_text, set_text

pytestmark = pytest.mark.asyncio(loop_scope="module")

DOC = """# Functional safety requirements

## SG-1: Avoid unintended steering
The steering system shall not apply unintended torque.

- ASIL: B
- Verified by: TC-1

### FSR-1: Warn the driver
The ECU should warn the driver within 200 ms.

- ASIL: B
- Derived from: SG-1
- Verified by: TC-1

### FSR-2: Limit the torque
The ECU must limit the torque to 3 Nm within 50 ms.

- ASIL: B
- Derived from: SG-1
- Verified by: TC-1

## TC-1: Torque test
The test shall apply a torque request of 5 Nm and check the limit.
"""


def _converter():
    """pygls' converter, reading a code action that runs a command as a CodeAction: lsprotocol's own hook takes
    every object with a ``command`` field for a bare Command (whose ``command`` is a string), losing the
    action's kind, diagnostics and the command's arguments. Editors read the JSON as the protocol says."""
    from typing import Union

    converter = default_converter()

    def hook(obj, _type):
        bare = isinstance(obj.get("command"), str)
        return converter.structure(obj, types.Command if bare else types.CodeAction)

    converter.register_structure_hook(Union[types.Command, types.CodeAction], hook)
    return converter


PASSED = '<testsuite><testcase classname="hil" name="test_TC_1_torque"/></testsuite>'
FAILED = ('<testsuite><testcase classname="hil" name="test_TC_1_torque"><failure message="torque 4.2 Nm"/>'
          '</testcase></testsuite>')


CONFIG = ClientServerConfig(server_command=SERVER_COMMAND, server_env=dict(SERVER_ENV), client_factory=lambda: make_editor_client(_converter, versioned_only=True))


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("ws")
    (folder / "fsr.md").write_text(DOC, encoding="utf-8")
    # fsr.md's findings of today are the baseline (the other documents are opened as new ones).
    (folder / "safereq.toml").write_text('baseline = "baseline.json"\ntest-results = ["results.xml"]\n', encoding="utf-8")
    (folder / "results.xml").write_text(PASSED, encoding="utf-8")
    subprocess.run([sys.executable, "-m", "safereq", "check", "-q", "fsr.md"], cwd=folder, env=SERVER_ENV,
                   capture_output=True, timeout=120, check=True)
    assert (folder / "baseline.json").is_file()
    return folder


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, root: Path):
    await start(lsp_client, root)
    yield
    await lsp_client.shutdown_session()


def rules_of(client: LanguageClient, uri: str) -> list[str]:
    return sorted(str(d.code) for d in client.diagnostics.get(uri, []))


async def fresh(client: LanguageClient, uri: str, name: str, text: str) -> None:
    """Open ``text`` as a new document and wait for its first diagnostics."""
    open_text(client, Path(uri.removeprefix("file://")), text)
    await wait_until(client, lambda: uri in client.diagnostics)


async def actions(client: LanguageClient, uri: str, rng: types.Range, only=None, diagnostics=()):
    return await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri=uri), rng, types.CodeActionContext(list(diagnostics), only=only))) or []


def diagnostic(client: LanguageClient, uri: str, rule: str) -> types.Diagnostic:
    return next(d for d in client.diagnostics[uri] if d.code == rule)


async def test_accept_this_finding_writes_a_deviation_with_the_reason(client: LanguageClient, root: Path):
    uri = (root / "accept.md").as_uri()
    await fresh(client, uri, "accept.md", DOC)
    assert "modal/non-binding-verb" in rules_of(client, uri)
    d = diagnostic(client, uri, "modal/non-binding-verb")
    found = await actions(client, uri, d.range, diagnostics=[d])
    accept = [a for a in found if a.title == "Accept this finding… (modal/non-binding-verb)"]
    assert len(accept) == 1 and accept[0].kind == types.CodeActionKind.QuickFix and accept[0].edit is None
    command = accept[0].command
    assert command.command == "safereq.acceptFinding"
    # Without a reason (an editor that does not ask for one): refused, nothing written.
    with pytest.raises(JsonRpcException, match="needs a reason"):
        await client.workspace_execute_command_async(types.ExecuteCommandParams(command.command, command.arguments))
    before = client.texts[uri][1]
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command.command, [*command.arguments, "quoted from\nthe customer's specification CS-4"]))
    assert result["applied"] is True
    text = client.texts[uri][1]
    assert text == before.replace(
        "- Derived from: SG-1\n- Verified by: TC-1\n\n### FSR-2",
        "- Derived from: SG-1\n- Verified by: TC-1\n"
        "- Deviation: modal/non-binding-verb \"should\": quoted from the customer's specification CS-4\n\n### FSR-2")
    await wait_until(client, lambda: "modal/non-binding-verb" not in rules_of(client, uri))
    assert not any(r.startswith("deviation/") for r in rules_of(client, uri))
    # The same command with the old version is refused: the finding it named may have moved.
    with pytest.raises(JsonRpcException, match="changed since"):
        await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command.command, [*command.arguments, "again"]))


async def test_fix_all_is_one_versioned_edit_of_the_safe_fixes_check_fix_applies(client: LanguageClient, root: Path,
                                                                                 tmp_path: Path):
    uri = (root / "fixall.md").as_uri()
    await fresh(client, uri, "fixall.md", DOC)
    whole = types.Range(types.Position(0, 0), types.Position(0, 0))
    (action,) = await actions(client, uri, whole, only=[types.CodeActionKind.SourceFixAll])
    assert action.kind == "source.fixAll.safereq" and action.command is None
    (change,) = action.edit.document_changes
    assert change.text_document.uri == uri and change.text_document.version == client.texts[uri][0]
    fixed = apply_edits(client.texts[uri][1], change.edits)
    # The same fixes `safereq check --fix` applies (one source of truth for what is safe).
    copy = tmp_path / "fsr.md"
    copy.write_text(DOC, encoding="utf-8")
    subprocess.run([sys.executable, "-m", "safereq", "check", "--fix", "-q", str(copy)], capture_output=True,
                   env=SERVER_ENV, timeout=120)
    assert fixed == copy.read_text(encoding="utf-8") != DOC
    assert (await actions(client, uri, whole, only=["source.fixAll.safereq"]))[0].edit == action.edit
    assert await actions(client, uri, whole, only=["source.organizeImports"]) == []


async def test_the_fix_all_command_applies_the_edit_and_says_how_many(client: LanguageClient, root: Path):
    uri = (root / "command.md").as_uri()
    await fresh(client, uri, "command.md", DOC)
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams("safereq.fixAll", [uri]))
    assert result == {"applied": True, "fixed": 1, "message": "Applied 1 safe fix."}
    text = client.texts[uri][1]
    assert "The ECU shall limit the torque" in text and "The ECU should warn" in text  # 'should': no safe fix
    await wait_until(client, lambda: "modal/non-standard-verb" not in rules_of(client, uri))
    again = await client.workspace_execute_command_async(types.ExecuteCommandParams("safereq.fixAll", [uri]))
    assert again["applied"] is False and again["fixed"] == 0
    with pytest.raises(JsonRpcException, match="expects one argument"):
        await client.workspace_execute_command_async(types.ExecuteCommandParams("safereq.fixAll", []))


async def test_baselined_findings_are_hints_and_new_ones_are_not(client: LanguageClient, root: Path):
    uri = (root / "fsr.md").as_uri()
    await fresh(client, uri, "fsr.md", DOC)
    # (The other tests' documents repeat fsr.md's IDs: trace/duplicate-id is new here and left out.)
    shown = {d.code: d for d in client.diagnostics[uri] if d.code != "trace/duplicate-id"}
    assert set(shown) == {"modal/non-binding-verb", "modal/non-standard-verb"}
    assert all(d.severity == types.DiagnosticSeverity.Hint and d.message.endswith(" (in the baseline)")
               for d in shown.values())
    set_text(client, uri, DOC.replace("\n### FSR-2", "\n\n\n### FSR-2").replace("within 200 ms", "quickly"))
    await wait_until(client, lambda: any(d.code == "wording/vague-term" for d in client.diagnostics[uri]))
    severity = {d.code: d.severity for d in client.diagnostics[uri] if d.code != "trace/duplicate-id"}
    assert severity == {"modal/non-binding-verb": types.DiagnosticSeverity.Hint,  # moved, still baselined
                        "modal/non-standard-verb": types.DiagnosticSeverity.Hint,
                        "wording/vague-term": types.DiagnosticSeverity.Warning}  # new


async def test_hovers_show_the_last_result_and_a_failure_is_a_finding(client: LanguageClient, root: Path):
    uri = (root / "hover.md").as_uri()
    await fresh(client, uri, "hover.md", DOC)
    at = DOC.split("\n").index("### FSR-1: Warn the driver")
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri=uri), types.Position(at, 6)))
    assert "**Verified by:** **TC-1** Torque test — *passed*" in hover.contents.value
    assert not any(str(d.code).startswith("evidence/") for d in client.diagnostics[uri])
    (root / "results.xml").write_text(FAILED, encoding="utf-8")
    set_text(client, uri, client.texts[uri][1] + "\n")  # the next check reads the changed file
    await wait_until(client, lambda: any(d.code == "evidence/failed-test" for d in client.diagnostics[uri]))
    failed = [d for d in client.diagnostics[uri] if d.code == "evidence/failed-test"]
    assert any(d.message == "FSR-1 is not verified: TC-1 failed on the last run: hil::test_TC_1_torque: torque 4.2 Nm"
               for d in failed)
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri=uri), types.Position(at, 6)))
    assert "**TC-1** Torque test — **failed**: `hil::test_TC_1_torque`: torque 4.2 Nm" in hover.contents.value
    (root / "results.xml").write_text(PASSED, encoding="utf-8")
