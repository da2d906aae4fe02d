"""Random edit sequences sent to the real server (pytest-lsp) in each position encoding: its diagnostics must
be those of a fresh check of the editor's text (issue 12, robustness suite).

The editor is modelled independently of the server's conversion code: a Python string split into lines as
LSP splits them, positions counted per code point in the negotiated encoding's units (``surrogatepass``, so a
lone surrogate is one UTF-16 unit and three UTF-8 bytes, as an editor would count it).
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
from .fuzzers import DOCS, fresh_check, random_splice

pytestmark = pytest.mark.asyncio(loop_scope="module")

_BREAK = re.compile(r"\r\n|\r|\n")
ENCODINGS = ["utf-16", "utf-8", "utf-32"]


def units(ch: str, encoding: str) -> int:
    if encoding == "utf-32":
        return 1
    return len(ch.encode("utf-16-le" if encoding == "utf-16" else "utf-8", errors="surrogatepass")) // \
        (2 if encoding == "utf-16" else 1)


class Editor:
    def __init__(self, text: str, encoding: str) -> None:
        self.text, self.encoding = text, encoding

    def _line_starts(self) -> list[int]:
        return [0] + [m.end() for m in _BREAK.finditer(self.text)]

    def position(self, offset: int) -> types.Position:
        starts = self._line_starts()
        line = max(i for i, s in enumerate(starts) if s <= offset)
        return types.Position(line, sum(units(c, self.encoding) for c in self.text[starts[line]:offset]))

    def change(self, start: int, end: int, new: str) -> types.TextDocumentContentChangePartial:
        """The LSP change for replacing text[start:end] (a CRLF is never cut in two: LSP has no position there)."""
        rng = types.Range(self.position(start), self.position(end))
        self.text = self.text[:start] + new + self.text[end:]
        return types.TextDocumentContentChangePartial(range=rng, text=new)


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
    editor = Editor(DOCS["reqs.md"], encoding)
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="markdown", version=1, text=editor.text)))
    version = 1
    for step in range(scale(18, 60)):
        changes = []
        for _ in range(rng.choice((1, 1, 2, 3))):  # several changes in one notification, applied in order
            splice = random_splice(rng, editor.text)
            start, end = splice.start, splice.end
            # A position between CR and LF does not exist in LSP; an editor never sends one.
            if 0 < start < len(editor.text) and editor.text[start - 1:start + 1] == "\r\n":
                start -= 1
            if 0 < end < len(editor.text) and editor.text[end - 1:end + 1] == "\r\n":
                end += 1
            end = max(start, end)
            changes.append(editor.change(start, end, splice.new))
        version += 1
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version), content_changes=changes))
        if step % 6 == 5:
            want = expected(str(path), editor.text, encoding)
            try:
                await wait_until(client, lambda: shown(client, uri) == want, timeout=30)
            except TimeoutError:
                got = shown(client, uri)
                pytest.fail(f"{encoding} seed {seed} step {step}: server only {sorted(got - want)[:4]}; "
                            f"fresh only {sorted(want - got)[:4]}")
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
    await wait_until(client, lambda: not client.diagnostics.get(uri))
