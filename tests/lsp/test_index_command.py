"""safereq.indexKnowledgeBase end to end: a real server indexes the "shipped" corpora (a one-file stand-in via
SAFEREQ_CORPORA) plus the safereq.corpora.paths setting, with cancellable work-done progress, and clause hovers
read the new index afterwards. Full-text only (SAFEREQ_EMBEDDER=none) to stay fast; embedding is tested with
the knowledge base (tests/knowledge/).

To cancel deterministically, the server runs with one change: reading a file named ``gate.md`` waits until the
test writes to a FIFO, so the test knows the run is in progress, and releases it only once the server has
acknowledged the Cancel. Nothing sleeps: every wait is on a notification or a response, with a timeout.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from .conftest import SERVER_ENV, TIMEOUT, make_client, start, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")

FIXTURES = Path(__file__).resolve().parents[1] / "knowledge" / "fixtures"  # the knowledge tests' corpus
COMMAND = "safereq.indexKnowledgeBase"
TITLE = "Indexing the knowledge base"
PROGRESS = "$/progress"
TEXT = "## REQ-1: Supervise the widget\n\nThe controller shall be supervised (ISO 99999-2:2020 §5.2).\n"
URI_NAME = "reqs.md"

# `python -c` program: the real server, with reading gate.md held until the FIFO named by SAFEREQ_TEST_GATE
# is opened for writing and closed by the test.
GATED_SERVER = """
import os
import safereq.knowledge.indexer as indexer

_chunk_job = indexer.chunk_job

def gated(job, data, on_page=None):
    if job.path.name == "gate.md":
        with open(os.environ["SAFEREQ_TEST_GATE"], encoding="utf-8") as gate:
            gate.read()
    return _chunk_job(job, data, on_page)

indexer.chunk_job = gated
from safereq.lsp.server import serve
serve()
"""


@pytest.fixture(scope="module")
def dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("index-command")
    corpora = root / "corpora"  # stands in for the shipped corpora: the fixture clause catalogue only
    (corpora / "catalogue").mkdir(parents=True)
    shutil.copy(FIXTURES / "catalogue" / "iso-99999-2.yaml", corpora / "catalogue")
    (corpora / "manifest.yaml").write_text(
        "sources:\n  - id: catalogue\n    kind: catalogue\n    files: [\"catalogue/*.yaml\"]\n", encoding="utf-8")
    standards = root / "standards"
    standards.mkdir()
    shutil.copy(FIXTURES / "corpus" / "widget-standard.txt", standards)
    gated = root / "gated"
    gated.mkdir()
    (gated / "gate.md").write_text("# Gate\n\n1 Scope\n\nA file the test server waits on.\n", encoding="utf-8")
    ws = root / "ws"
    ws.mkdir()
    (ws / URI_NAME).write_text(TEXT, encoding="utf-8")
    gate = root / "gate.fifo"
    os.mkfifo(gate)
    return {"corpora": corpora, "standards": standards, "gated": gated, "ws": ws, "gate": gate,
            "index": ws / ".safereq" / "index"}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(dirs: dict[str, Path]):
    env = {k: v for k, v in SERVER_ENV.items() if k != "SAFEREQ_INDEX"}
    env.update(SAFEREQ_EMBEDDER="none", SAFEREQ_CORPORA=str(dirs["corpora"]), SAFEREQ_TEST_GATE=str(dirs["gate"]))
    config = ClientServerConfig(server_command=[sys.executable, "-c", GATED_SERVER], server_env=env,
                                client_factory=make_client)
    lsp_client = await config.start()
    lsp_client.set_configuration({"corpora": {"paths": [str(dirs["standards"])]}}, section="safereq")
    await start(lsp_client, dirs["ws"])
    yield lsp_client
    await lsp_client.shutdown_session()
    await lsp_client.stop()


async def execute(client: LanguageClient, *args: Any) -> dict[str, Any]:
    return await asyncio.wait_for(client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=COMMAND, arguments=list(args))), TIMEOUT)


async def clause_hover(client: LanguageClient, ws: Path) -> str:
    column = TEXT.split("\n")[2].index("99999")
    hover = await asyncio.wait_for(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=(ws / URI_NAME).as_uri()),
        position=types.Position(2, column))), TIMEOUT)
    return hover.contents.value


def index_runs(client: LanguageClient) -> list[list[Any]]:
    """The values of every indexing progress so far, oldest run first."""
    return [values for values in client.progress_reports.values()
            if values and isinstance(values[0], types.WorkDoneProgressBegin) and values[0].title == TITLE]


async def configure(client: LanguageClient, settings: dict[str, Any]) -> None:
    """New settings; the server pulls them and then sends its status."""
    seen = len(client.statuses)
    client.set_configuration(settings, section="safereq")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await wait_until(client, lambda: len(client.statuses) > seen, method="safereq/status")


async def wait_for_open_index(client: LanguageClient, since: int) -> None:
    """Until the server says, after status number ``since``, that it has (re)opened the index for hovers."""
    await wait_until(client, lambda: any("knowledge base open" in s["message"] for s in client.statuses[since:]),
                     method="safereq/status")


async def test_index_reports_progress_and_hovers_read_the_new_index(client: LanguageClient, dirs: dict[str, Path]):
    before = await clause_hover(client, dirs["ws"])
    assert before.startswith("**ISO 99999-2:2020 §5.2 — Watchdog supervision**")
    assert "From safereq's clause catalogue" in before  # no index yet

    since = len(client.statuses)
    result = await execute(client)
    assert result["cancelled"] is False and result["failed"] == []
    assert result["index"] == str(dirs["index"])
    assert result["files"] == 2 and result["chunks"] > 2  # the catalogue and widget-standard.txt
    assert result["message"].startswith("2 file(s) indexed")

    (run,) = index_runs(client)
    begin, *reports, end = run
    assert begin.cancellable is True
    assert all(isinstance(r, types.WorkDoneProgressReport) for r in reports) and reports
    percentages = [r.percentage for r in reports]
    assert percentages == sorted(percentages) and all(0 <= p <= 100 for p in percentages)
    assert any("widget-standard.txt" in (r.message or "") for r in reports)
    assert isinstance(end, types.WorkDoneProgressEnd) and end.message == result["message"]

    states = [s["state"] for s in client.statuses[since:]]
    assert "indexing" in states and states[-1] == "ready"
    await wait_for_open_index(client, since)
    assert client.statuses[-1]["index"] == str(dirs["index"])
    after = await clause_hover(client, dirs["ws"])
    assert after.startswith("**ISO 99999-2:2020 §5.2 — Watchdog supervision**")
    assert "A watchdog shall supervise the widget controller." in after
    assert "*From the knowledge base: widget-standard.txt, page 2.*" in after


async def release_gate(gate: Path) -> None:
    def write() -> None:
        with open(gate, "w", encoding="utf-8") as fifo:  # blocks until the server opens it to read
            fifo.write("go")

    await asyncio.wait_for(asyncio.to_thread(write), TIMEOUT)


async def test_cancel_stops_the_run_and_the_previous_index_answers(client: LanguageClient, dirs: dict[str, Path]):
    standard = dirs["standards"] / "widget-standard.txt"
    standard.write_text(standard.read_text(encoding="utf-8").replace(
        "A watchdog shall supervise", "A revised watchdog shall supervise"), encoding="utf-8")
    await configure(client, {"corpora": {"paths": [str(dirs["gated"]), str(dirs["standards"])]}})
    runs = len(index_runs(client))
    since = len(client.statuses)

    first = asyncio.ensure_future(execute(client))
    await wait_until(client, lambda: len(index_runs(client)) > runs and any(
        "gate.md" in (v.message or "") for v in index_runs(client)[-1][1:]), method=PROGRESS)
    # The run is held on gate.md: requests are still answered, and a second request joins the run.
    second = asyncio.ensure_future(execute(client))
    during = await clause_hover(client, dirs["ws"])  # answered after the second request has joined
    assert "A watchdog shall supervise the widget controller." in during
    assert client.statuses[-1]["state"] == "indexing"

    token = next(t for t, v in reversed(client.progress_reports.items()) if v is index_runs(client)[-1])
    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    await wait_until(client, lambda: any(getattr(v, "message", "") == "cancelling…"
                                         for v in client.progress_reports[token]), method=PROGRESS)
    await release_gate(dirs["gate"])
    result, joined = await asyncio.gather(first, second)

    assert result["cancelled"] is True and result["files"] == 1  # gate.md landed; the standard was not reached
    assert result["message"].startswith("cancelled after 1 file(s)")
    assert joined == {**result, "joined": True}
    assert isinstance(client.progress_reports[token][-1], types.WorkDoneProgressEnd)
    await wait_for_open_index(client, since)
    assert client.statuses[-1]["state"] == "ready"
    after = await clause_hover(client, dirs["ws"])
    assert "A watchdog shall supervise the widget controller." in after  # the previous version of the file


async def test_the_next_run_indexes_what_the_cancelled_one_left(client: LanguageClient, dirs: dict[str, Path]):
    since = len(client.statuses)
    result = await execute(client)  # gate.md is unchanged now, so the server does not wait on it again
    assert result["cancelled"] is False and result["files"] == 1 and result["skipped"] == 2
    await wait_for_open_index(client, since)
    assert "A revised watchdog shall supervise the widget controller." in await clause_hover(client, dirs["ws"])


async def test_bad_requests_and_settings_get_clear_errors(client: LanguageClient, dirs: dict[str, Path]):
    with pytest.raises(JsonRpcException, match="takes no arguments"):
        await execute(client, "extra")
    await configure(client, {"corpora": {"paths": 5}})  # refused where settings arrive, with the reason
    assert any("safereq.corpora: 'corpora.paths' must be a list" in m.message for m in client.messages)
    not_a_folder = dirs["ws"] / "index-file"
    not_a_folder.write_text("not an index", encoding="utf-8")
    await configure(client, {"index": {"path": str(not_a_folder)}})
    with pytest.raises(JsonRpcException, match="indexing the knowledge base failed: .*index-file") as caught:
        await execute(client)
    assert "Traceback" not in str(caught.value)
    assert client.statuses[-1]["state"] == "ready"  # not stuck in "indexing"
    await configure(client, {})  # back to the default index: the server carries on with it
    since = len(client.statuses)
    await clause_hover(client, dirs["ws"])  # the first hover on another index opens it, the catalogue answers
    await wait_for_open_index(client, since)
    assert "From the knowledge base" in await clause_hover(client, dirs["ws"])


async def test_a_damaged_index_is_in_the_status_and_the_command_rebuilds_it(client: LanguageClient,
                                                                             dirs: dict[str, Path]):
    damaged = dirs["ws"] / "damaged-index"
    shutil.copytree(dirs["index"], damaged)
    for manifest in (damaged / "chunks.lance" / "_versions").glob("*.manifest"):
        manifest.write_bytes(b"junk")  # no version left to go back to
    await configure(client, {"index": {"path": str(damaged)}, "corpora": {"paths": [str(dirs["standards"])]}})
    since = len(client.statuses)
    await clause_hover(client, dirs["ws"])  # opens the index for hovers, which finds the damage
    await wait_until(client, lambda: any(s.get("indexProblem") for s in client.statuses[since:]),
                     method="safereq/status")
    problem = next(s["indexProblem"] for s in client.statuses[since:] if s.get("indexProblem"))
    assert "is damaged" in problem and "cannot be read" in problem and "Traceback" not in problem

    since = len(client.statuses)
    result = await execute(client)
    assert result["cancelled"] is False and "rebuilt the index" in result["message"], result
    await wait_for_open_index(client, since)
    assert client.statuses[-1]["indexProblem"] is None and client.statuses[-1]["index"] == str(damaged)
    assert "A revised watchdog shall supervise the widget controller." in await clause_hover(client, dirs["ws"])
