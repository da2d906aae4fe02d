"""safereq.coverage and safereq.writeReport over LSP: the figures of the live workspace (unsaved edits
included), and the report page written where the editor opens it."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from .conftest import change, open_file, server_config, start, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=server_config())
async def client(lsp_client: LanguageClient, system_dir: Path):
    await start(lsp_client, system_dir)
    yield
    await lsp_client.shutdown_session()


async def execute(client: LanguageClient, command: str, *args):
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(command=command, arguments=list(args)))
    return result if isinstance(result, dict) else result._asdict()


def _by_measure(result: dict) -> dict[str, tuple[int, int]]:
    return {row["measure"]: (row["covered"], row["total"]) for row in result["coverage"]}


async def test_coverage_follows_unsaved_edits(client: LanguageClient, system_dir: Path):
    from safereq.exchange.records import collect
    from safereq.report.coverage import compute
    from safereq.workspace import Workspace
    from safereq.workspace.loader import load

    loaded = load([str(system_dir)])
    ws = Workspace()
    ws.update_many((s.path, s.text) for s in loaded.sources)
    expected = compute(collect(ws))
    before = await execute(client, "safereq.coverage")
    assert before["items"] == len(expected.records) and before["holes"] == len(expected.holes)
    assert _by_measure(before) == {r.measure: (r.covered, r.total) for r in expected.overall}

    # A new FSR without verification or children, typed but not saved: one more item to verify, two holes.
    path = system_dir / "fsr.md"
    text = path.read_text(encoding="utf-8")
    uri = open_file(client, path, text)
    lines = text.split("\n")
    addition = "\n## FSR-900: Added in the editor\nThe thing must work.\n\n- ASIL: A\n- Derived from: SG-1\n"
    change(client, uri, 2, (len(lines) - 1, 0), (len(lines) - 1, 0), addition)
    new_line = len(lines) + 1  # the statement's line: its "must" gets a diagnostic once the edit is checked
    await wait_until(client, lambda: any(d.range.start.line == new_line for d in client.diagnostics.get(uri, [])))
    after = await execute(client, "safereq.coverage")
    covered, total = _by_measure(before)["verified"]
    assert _by_measure(after)["verified"] == (covered, total + 1)
    assert after["holes"] == before["holes"] + 2  # not verified, not refined


async def test_write_report_writes_the_page(client: LanguageClient, system_dir: Path):
    result = await execute(client, "safereq.writeReport")
    page = Path(result["path"])
    assert page == system_dir / ".safereq" / "report" / "index.html"
    assert result["uri"] == page.as_uri()
    html = page.read_text(encoding="utf-8")
    assert "FSR-900" in html and f'<span id="hole-count">{result["holes"]}</span>' in html


async def test_report_commands_take_no_arguments(client: LanguageClient):
    with pytest.raises(JsonRpcException, match="takes no arguments"):
        await execute(client, "safereq.coverage", "x")
