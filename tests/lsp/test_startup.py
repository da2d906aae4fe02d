"""Start-up: what ``initialize`` announces, the loading progress and status, the lazy imports that keep
``initialize`` fast, and the ``--tcp`` transport."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import SERVER_ENV, server_config, start

IN_MODULE_LOOP = pytest.mark.asyncio(loop_scope="module")

HEAVY = ("lancedb", "llama_index", "openai", "onnxruntime", "pyarrow", "pandas")


@pytest.fixture(scope="module")
def init_result() -> dict:
    return {}


@pytest_lsp.fixture(scope="module", config=server_config())
async def client(lsp_client: LanguageClient, system_dir: Path, init_result: dict):
    init_result["value"] = await start(lsp_client, system_dir)
    yield
    await lsp_client.shutdown_session()


@IN_MODULE_LOOP
async def test_initialize_announces_the_features(client: LanguageClient, init_result: dict):
    result: types.InitializeResult = init_result["value"]
    caps = result.capabilities
    assert result.server_info.name == "safereq"
    assert caps.position_encoding == "utf-16"
    assert caps.text_document_sync.change == types.TextDocumentSyncKind.Incremental
    assert caps.text_document_sync.open_close and caps.text_document_sync.save
    assert caps.hover_provider and caps.definition_provider and caps.references_provider
    assert caps.rename_provider.prepare_provider
    assert caps.document_symbol_provider and caps.workspace_symbol_provider
    assert "," in caps.completion_provider.trigger_characters
    assert caps.code_lens_provider and caps.inlay_hint_provider
    assert types.CodeActionKind.QuickFix in caps.code_action_provider.code_action_kinds
    assert "safereq.showTrace" in caps.execute_command_provider.commands
    assert caps.workspace.file_operations.did_rename is not None


@IN_MODULE_LOOP
async def test_file_watchers_are_registered(client: LanguageClient):
    (registration,) = client.registrations
    assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    globs = [w["globPattern"] for w in registration.register_options["watchers"]]  # untyped LSPAny
    assert "**/*.md" in globs and "**/safereq.toml" in globs


@IN_MODULE_LOOP
async def test_loading_reports_progress_and_status(client: LanguageClient):
    reports = [r for rs in client.progress_reports.values() for r in rs]
    assert isinstance(reports[0], types.WorkDoneProgressBegin) and "loading" in reports[0].title
    assert isinstance(reports[-1], types.WorkDoneProgressEnd) and "4 documents, 8 items" in reports[-1].message
    states = [s["state"] for s in client.statuses]
    assert states[0] == "starting" and states[-1] == "ready"
    assert client.statuses[-1]["index"] is None


def test_start_up_imports_no_heavy_or_optional_module():
    """The server module (what ``initialize`` needs) imports only pygls, lsprotocol and the standard library;
    no module of the language server imports the knowledge base's or the agent's dependencies."""
    code = (
        "import sys, importlib, pkgutil\n"
        "import safereq.lsp.server as s\n"
        "s.create_server()\n"
        "first = [m for m in ('yaml', 'markdown_it', 'rapidfuzz', 'safereq.checks', 'safereq.workspace') if m in sys.modules]\n"
        "import safereq.lsp as lsp\n"
        "for m in pkgutil.iter_modules(lsp.__path__):\n"
        "    importlib.import_module('safereq.lsp.' + m.name)\n"
        f"heavy = [m for m in {HEAVY!r} if m in sys.modules]\n"
        "print(first, heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "[] []"


def _message(payload: dict) -> bytes:
    body = json.dumps(payload).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def _read_message(sock: socket.socket) -> dict:
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(4096)
    head, rest = data.split(b"\r\n\r\n", 1)
    length = int(next(h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")).split(b":")[1])
    while len(rest) < length:
        rest += sock.recv(4096)
    return json.loads(rest[:length])


def test_tcp_transport(tmp_path: Path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "safereq", "serve", "--tcp", f"127.0.0.1:{port}"],
                              env={**SERVER_ENV}, stderr=subprocess.PIPE, text=True)
    try:
        line = ""
        while "Serving on" not in line:  # the server logs when it listens
            line = server.stderr.readline()
            assert line, "the server exited before listening"
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(_message({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                   "params": {"processId": os.getpid(), "rootUri": None, "capabilities": {}}}))
            reply = _read_message(sock)
            assert reply["id"] == 1 and reply["result"]["serverInfo"]["name"] == "safereq"
            sock.sendall(_message({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
            assert _read_message(sock)["id"] == 2
    finally:
        server.kill()
        server.wait(timeout=30)
