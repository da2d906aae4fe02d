"""The agent in the editor: code actions listed cheaply, commands computed in the worker with progress, the
result applied as a versioned WorkspaceEdit — and not applied when the document changed meanwhile.

The server runs its agent worker offline over the clause catalogue (no index, no endpoint). To change the
document while a command runs, without sleeping, the client sends a didChange from its handler of the
server's ``window/workDoneProgress/create`` request: the server started the command before that, and checks
the version only after it, so the change is always in between.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from pygls.protocol import default_converter
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from .conftest import SERVER_COMMAND, SERVER_ENV, change, execute, field, open_file, record_statuses, start

pytestmark = pytest.mark.asyncio(loop_scope="module")


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    record_statuses(client)
    client.edits = []  # type: ignore[attr-defined]
    client.shown = []  # type: ignore[attr-defined]
    client.change_on_progress = None  # type: ignore[attr-defined]
    features = {k: v for k, v in DEFAULT_CLIENT_FEATURES.items()
                if k not in (types.WINDOW_WORK_DONE_PROGRESS_CREATE, types.WINDOW_SHOW_MESSAGE)}
    register_lsp_features(client, features)

    @client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
    def _create(client: LanguageClient, params: types.WorkDoneProgressCreateParams) -> None:
        client.progress_reports.setdefault(params.token, [])
        if client.change_on_progress is not None:
            client.change_on_progress()
            client.change_on_progress = None

    @client.feature(types.WINDOW_SHOW_MESSAGE)
    def _show(client: LanguageClient, params: types.ShowMessageParams) -> None:
        client.shown.append(params.message)

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def _apply(client: LanguageClient, params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        client.edits.append(params)
        return types.ApplyWorkspaceEditResult(applied=True)

    return client


CONFIG = ClientServerConfig(server_command=SERVER_COMMAND, server_env=dict(SERVER_ENV),
                            client_factory=make_client)


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, system_dir: Path):
    await start(lsp_client, system_dir)
    yield
    await lsp_client.shutdown_session()


async def test_agent_code_actions_are_listed_on_an_item(client: LanguageClient, system_dir: Path):
    uri = open_file(client, system_dir / "fsr.md", version=1)
    found = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=types.Range(types.Position(4, 5), types.Position(4, 5)),
        context=types.CodeActionContext(diagnostics=[], only=["refactor"])))
    titles = {a.title: a for a in found or []}
    assert set(titles) == {"Derive requirements for FSR-1", "Suggest trace links for FSR-1", "Suggest rebuttals for FSR-1"}
    derive = titles["Derive requirements for FSR-1"]
    command = derive.command
    if isinstance(derive, types.Command):
        # pygls' client decodes `Command | CodeAction` as Command when "command" is an object and turns that
        # object into its str(); read it back (editors decode the union correctly).
        command = types.Command(**ast.literal_eval(command))
    else:
        assert derive.kind == "refactor.safereq" and derive.edit is None
    assert command.command == "safereq.deriveRequirements" and list(command.arguments) == [uri, "FSR-1"]


async def test_derive_applies_a_versioned_edit_with_progress(client: LanguageClient, system_dir: Path):
    uri = (system_dir / "fsr.md").as_uri()
    client.edits.clear()
    # FSR-2 (FSR-1 loses its 40 m limit in every offline pattern, so nothing is derived from it)
    result = await execute(client, "safereq.deriveRequirements", uri, "FSR-2")
    assert field(result, "mode") == "offline" and field(result, "applied") is True and field(result, "count") > 0
    (params,) = client.edits
    (doc_edit,) = params.edit.document_changes
    assert doc_edit.text_document.uri == uri and doc_edit.text_document.version == 1
    (edit,) = doc_edit.edits
    text = (system_dir / "fsr.md").read_text(encoding="utf-8")
    # No document holds TSRs yet: they are proposed after FSR-2, at its level, as a review block.
    assert edit.range.start.line == next(i for i, line in enumerate(text.split("\n")) if line.startswith("## FSR-3:"))
    assert edit.new_text.startswith("> **safereq review: derived requirements from FSR-2** — ")
    assert "> - Derived from: FSR-2" in edit.new_text and "> - Status: proposed" in edit.new_text
    assert edit.new_text.count("> ## TSR-") == field(result, "count")
    assert "proposed for review in fsr.md" in field(result, "message")
    (reports,) = [rs for rs in client.progress_reports.values()
                  if rs and getattr(rs[0], "title", "") == "Derive requirements for FSR-2"]
    kinds = [r.kind for r in reports]
    assert kinds[0] == "begin" and kinds[-1] == "end" and "report" in kinds
    assert reports[0].cancellable is True


async def test_edit_is_not_applied_when_the_document_changed_meanwhile(client: LanguageClient, system_dir: Path):
    uri = (system_dir / "fsr.md").as_uri()
    client.edits.clear()
    client.shown.clear()
    client.change_on_progress = lambda: change(client, uri, 2, (2, 0), (2, 0), "<!-- edited -->\n")
    result = await execute(client, "safereq.suggestRebuttals", uri, "FSR-2")
    assert field(result, "applied") is False and client.edits == []
    assert "changed while the suggestions were computed" in field(result, "message")
    assert any("nothing was proposed" in m for m in client.shown)


async def test_bad_arguments_get_an_error(client: LanguageClient, system_dir: Path):
    from pygls.exceptions import JsonRpcException

    with pytest.raises(JsonRpcException, match="FSR-99 is not defined"):
        await execute(client, "safereq.suggestTraceLinks", (system_dir / "fsr.md").as_uri(), "FSR-99")


@pytest.mark.parametrize("command", ["safereq.deriveRequirements", "safereq.suggestTraceLinks",
                                     "safereq.suggestRebuttals"])
async def test_each_action_reports_exactly_one_progress(client: LanguageClient, system_dir: Path, command: str):
    """One progress per action: the editor shows it as the one notification with a Cancel button."""
    uri = open_file(client, system_dir / "fsr.md", version=1)
    before = set(client.progress_reports)
    await execute(client, command, uri, "FSR-1")
    new = [client.progress_reports[t] for t in client.progress_reports if t not in before]
    assert len(new) == 1, new
    kinds = [r.kind for r in new[0]]
    assert kinds.count("begin") == 1 and kinds[-1] == "end" and kinds.count("end") == 1, kinds
    assert new[0][0].cancellable is True
