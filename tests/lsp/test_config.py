"""Configuration: the file (safereq.toml: rules, exclude) and the client's settings on top, applied live;
invalid settings are reported and left out; a broken configuration file becomes a diagnostic on that file."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import capabilities, codes, copy_fixture, server_config, start, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def configured_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_fixture("configured", tmp_path_factory.mktemp("ws"))


@pytest_lsp.fixture(scope="module", config=server_config())
async def client(lsp_client: LanguageClient, configured_dir: Path):
    lsp_client.set_configuration({"rules": {"trace/dangling-link": "info"}}, section="safereq")
    await start(lsp_client, configured_dir)
    yield
    await lsp_client.shutdown_session()


def severities(client: LanguageClient, uri: str, code: str) -> list[types.DiagnosticSeverity]:
    return [d.severity for d in client.diagnostics.get(uri, []) if d.code == code]


async def test_file_configuration_and_client_settings_apply(client: LanguageClient, configured_dir: Path):
    fsr = (configured_dir / "fsr.md").as_uri()
    await wait_until(client, lambda: "trace/dangling-link" in codes(client, fsr))
    assert severities(client, fsr, "trace/dangling-link") == [types.DiagnosticSeverity.Information]
    goals = (configured_dir / "goals.md").as_uri()
    assert "trace/goal-without-children" not in codes(client, goals)  # off in safereq.toml
    assert (configured_dir / "drafts" / "ideas.md").as_uri() not in client.diagnostics  # excluded


async def test_changed_settings_apply_live(client: LanguageClient, configured_dir: Path):
    fsr = (configured_dir / "fsr.md").as_uri()
    client.set_configuration({"rules": {"trace/dangling-link": "off", "no-such/rule": "error"}}, section="safereq")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await wait_until(client, lambda: "trace/dangling-link" not in codes(client, fsr))
    await wait_until(client, lambda: client.messages, method=types.WINDOW_SHOW_MESSAGE)
    assert "no-such/rule" in client.messages[-1].message and client.messages[-1].type == types.MessageType.Warning
    client.set_configuration({"rules": {"trace/dangling-link": "warning"}}, section="safereq")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await wait_until(client, lambda: severities(client, fsr, "trace/dangling-link") == [types.DiagnosticSeverity.Warning])


async def test_broken_configuration_file_is_reported_on_its_line(client: LanguageClient, configured_dir: Path):
    config = configured_dir / "safereq.toml"
    good = config.read_text(encoding="utf-8")
    config.write_text(good + '"trace/no-such-rule" = "error"\n', encoding="utf-8")
    event = types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Changed)
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[event]))
    await wait_until(client, lambda: client.diagnostics.get(config.as_uri()))
    (diag,) = client.diagnostics[config.as_uri()]
    assert "unknown rule 'trace/no-such-rule'" in diag.message
    assert diag.range.start.line == len(good.split("\n")) - 1
    await wait_until(client, lambda: client.statuses[-1]["state"] == "error", method="safereq/status")
    config.write_text(good, encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[event]))
    await wait_until(client, lambda: not client.diagnostics.get(config.as_uri()))
    await wait_until(client, lambda: client.statuses[-1]["state"] == "ready", method="safereq/status")


@pytest_lsp.fixture(scope="module", config=server_config())
async def pushing_client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    """A client that cannot answer workspace/configuration: settings come as initializationOptions, then pushed."""
    root = copy_fixture("configured", tmp_path_factory.mktemp("push"))
    caps = capabilities()
    caps.workspace.configuration = False
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=caps, root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="push")],
        initialization_options={"safereq": {"rules": {"trace/dangling-link": "hint"}}}))
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_initialization_options_then_pushed_settings(pushing_client: LanguageClient):
    fsr = (pushing_client.root / "fsr.md").as_uri()
    await wait_until(pushing_client, lambda: severities(pushing_client, fsr, "trace/dangling-link") == [types.DiagnosticSeverity.Hint])
    pushing_client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"safereq": {"rules": {"trace/dangling-link": "error"}}}))
    await wait_until(pushing_client, lambda: severities(pushing_client, fsr, "trace/dangling-link") == [types.DiagnosticSeverity.Error])
