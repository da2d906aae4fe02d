"""End-to-end helpers: a real LSP client (pytest-lsp) talking over stdio to ``python -m safereq serve``.

Each test module gets one server on its own copy of a fixture workspace (tests/lsp/fixtures/<name>/), so
tests may edit files on disk. Nothing sleeps: tests wait for the server's notifications (publishDiagnostics,
safereq/status) with a timeout. The debounce is shortened through ``SAFEREQ_LSP_DEBOUNCE_MS`` only to keep
the suite quick; the waiting logic does not depend on it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import make_test_lsp_client

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TIMEOUT = 120.0  # generous: only a hang reaches it, and the CI machine is busy
SERVER_COMMAND = [sys.executable, "-m", "safereq", "serve", "--log-level", "warning"]
SERVER_ENV = {**os.environ, "SAFEREQ_LSP_DEBOUNCE_MS": "20", "PYTHONUNBUFFERED": "1"}


def make_client() -> LanguageClient:
    """The pytest-lsp client plus records of ``safereq/status`` notifications and capability registrations."""
    client = make_test_lsp_client()
    record_statuses(client)
    client.registrations = []  # type: ignore[attr-defined]

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def _register(client: LanguageClient, params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    return client


def record_statuses(client: LanguageClient) -> None:
    """Keep every ``safereq/status`` notification the server sends in ``client.statuses``, as a dict."""
    client.statuses = []  # type: ignore[attr-defined]

    @client.feature("safereq/status")
    def _status(client: LanguageClient, params: Any) -> None:
        client.statuses.append(params if isinstance(params, dict) else  # type: ignore[attr-defined]
                               params._asdict() if hasattr(params, "_asdict") else vars(params))


def server_config(**env: str) -> ClientServerConfig:
    return ClientServerConfig(server_command=SERVER_COMMAND, server_env={**SERVER_ENV, **env},
                              client_factory=make_client)


def copy_fixture(name: str, tmp: Path) -> Path:
    target = tmp / name
    shutil.copytree(FIXTURES / name, target)
    return target


def capabilities(encodings: list[str] | None = None) -> types.ClientCapabilities:
    """VS Code's capabilities (as pytest-lsp records them), optionally offering other position encodings."""
    caps = client_capabilities("visual-studio-code")
    if encodings is not None:
        caps.general = caps.general or types.GeneralClientCapabilities()
        caps.general.position_encodings = encodings
    return caps


async def start(client: LanguageClient, root: Path, caps: types.ClientCapabilities | None = None,
                client_name: str = "pytest-lsp") -> types.InitializeResult:
    """initialize + initialized, then wait until the server says it has loaded the workspace."""
    result = await client.initialize_session(types.InitializeParams(
        capabilities=caps or capabilities(),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
        client_info=types.ClientInfo(name=client_name),
    ))
    await wait_until(client, lambda: any(s.get("state") in ("ready", "error") for s in client.statuses),
                     method="safereq/status")
    return result


async def wait_until(client: LanguageClient, predicate: Callable[[], bool],
                     method: str = types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, timeout: float = TIMEOUT) -> None:
    """Wait for notifications of ``method`` until ``predicate()`` holds (checked before each wait)."""

    async def loop() -> None:
        while not predicate():
            await client.wait_for_notification(method)

    await asyncio.wait_for(loop(), timeout)


def codes(client: LanguageClient, uri: str) -> list[str]:
    return sorted(str(d.code) for d in client.diagnostics.get(uri, []))


def open_file(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="markdown", version=version,
        text=path.read_text(encoding="utf-8") if text is None else text)))
    return uri


def change(client: LanguageClient, uri: str, version: int, start: tuple[int, int], end: tuple[int, int],
           text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(*start), types.Position(*end)), text=text)],
    ))


def find(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """(line, UTF-16 column) of the ``nth`` occurrence of ``needle`` in ``text``."""
    offset = -1
    for _ in range(nth + 1):
        offset = text.index(needle, offset + 1)
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return line, len(text[start:offset].encode("utf-16-le", errors="surrogatepass")) // 2


def pos(text: str, needle: str, nth: int = 0, shift: int = 0) -> types.Position:
    line, col = find(text, needle, nth)
    return types.Position(line, col + shift)


@pytest.fixture(scope="module")
def system_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_fixture("system", tmp_path_factory.mktemp("ws"))


@pytest_lsp.fixture(scope="module", config=server_config())
async def client(lsp_client: LanguageClient, system_dir: Path):
    """The server on a copy of the ``system`` workspace, initialised and loaded, one per test module.

    A module that needs another start (other settings, documents opened first, a different server)
    defines its own ``client``.
    """
    await start(lsp_client, system_dir)
    yield
    await lsp_client.shutdown_session()


async def execute(client: LanguageClient, command: str, *args: Any) -> Any:
    """Run a workspace command of the server and return its result."""
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command=command, arguments=list(args)))


def field(result: Any, name: str) -> Any:
    """A field of a command's result, whether the client decoded it as a dict or an object."""
    return result[name] if isinstance(result, dict) else getattr(result, name)
