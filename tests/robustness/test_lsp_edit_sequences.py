"""Random edit sequences sent to the real server (pytest-lsp) in each position encoding: its diagnostics must
be those of a fresh check of the editor's text (issue 12, robustness suite).

The editor is modelled independently of the server's conversion code (``fuzzers.EditorModel``): a Python
string split into lines as LSP splits them, positions counted per code point in the negotiated encoding's
units (``surrogatepass``, so a lone surrogate is one UTF-16 unit and three UTF-8 bytes, as an editor would
count it). ``test_buffer_fuzz.py`` runs the same changes against the server's buffer alone, much faster.
"""

from __future__ import annotations

import random
import re
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from lsp.conftest import SERVER_ENV, capabilities, make_client, start, wait_until
from .conftest import scale
from .fuzzers import DOCS, EditorModel, fresh_check, units

_BREAK = re.compile(r"\r\n|\r|\n")

pytestmark = pytest.mark.asyncio(loop_scope="module")

ENCODINGS = ["utf-16", "utf-8", "utf-32"]


def expected(path: str, text: str, encoding: str) -> set[tuple]:
    """(rule, line, column in the encoding's units, message) of a fresh check of ``text``."""
    normal = _BREAK.sub("\n", text)
    lines = normal.split("\n")
    return {(f.rule, f.span.start_line, sum(units(c, encoding) for c in lines[f.span.start_line][:f.span.start_col])
             if f.span.start_line < len(lines) else 0, f.message)
            for f in fresh_check({path: normal})}


def shown(client: LanguageClient, uri: str) -> set[tuple]:
    return {(str(d.code), d.range.start.line, d.range.start.character, d.message) for d in client.diagnostics.get(uri, [])}


@pytest_lsp.fixture(scope="module", params=ENCODINGS,
                    config=ClientServerConfig(server_command=[sys.executable, "-m", "safereq", "serve"],
                                              server_env=SERVER_ENV, client_factory=make_client))
async def client(lsp_client: LanguageClient, request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    result = await start(lsp_client, folder, caps=capabilities([request.param]))
    assert str(getattr(result.capabilities.position_encoding, "value", result.capabilities.position_encoding)) == \
        request.param
    lsp_client.encoding = request.param  # type: ignore[attr-defined]
    lsp_client.folder = folder  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.mark.parametrize("seed", range(scale(1, 40)))
async def test_random_edits_leave_the_servers_text_the_editors(client: LanguageClient, seed: int):
    encoding: str = client.encoding  # type: ignore[attr-defined]
    rng = random.Random(seed)
    path = client.folder / f"doc-{seed}.md"  # type: ignore[attr-defined]
    uri = path.as_uri()
    editor = EditorModel(DOCS["reqs.md"], encoding)
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="markdown", version=1, text=editor.text)))
    version = 1
    for step in range(scale(18, 60)):
        changes = [editor.random_change(rng) for _ in range(rng.choice((1, 1, 2, 3)))]  # applied in order
        version += 1
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version), content_changes=changes))
        if step % 6 == 5:
            want = expected(str(path), editor.text, encoding)
            try:
                await wait_until(client, lambda: shown(client, uri) == want)
            except TimeoutError:
                got = shown(client, uri)
                pytest.fail(f"{encoding} seed {seed} step {step}: server only {sorted(got - want)[:4]}; "
                            f"fresh only {sorted(want - got)[:4]}")
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
    await wait_until(client, lambda: not client.diagnostics.get(uri))
