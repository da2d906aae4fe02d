"""The worker process and the language server's client for it, over the real JSON-lines protocol."""

from __future__ import annotations

import pytest

from safereq.lsp.agent_client import AgentClient, WorkerError

from .conftest import FSC, SAFETY_GOALS

TIMEOUT = 120


@pytest.fixture(scope="module")
def client():
    c = AgentClient()
    c.configure("/nonexistent/index", {"baseUrl": "", "model": "", "apiKey": "never-sent"})
    yield c
    c.stop()


def test_run_derive_in_the_worker_with_progress(client):
    client.sync({"goals.md": SAFETY_GOALS, "fsc.md": FSC}).result(TIMEOUT)
    progress: list[tuple[str, int]] = []
    first_id, first = client.request("run", {"task": "derive", "path": "fsc.md", "item": "FSR-1"},
                                     on_progress=lambda m, p: progress.append((m, p)))
    queued_id, queued = client.request("run", {"task": "rebut", "path": "fsc.md", "item": "CLM-1"})
    client.cancel(queued_id)  # still queued behind the first job: it never starts
    result = first.result(TIMEOUT)
    assert result["mode"] == "offline" and result["item"] == "FSR-1"
    assert result["suggestions"] and all(s["derived_from"] == ["FSR-1"] for s in result["suggestions"])
    assert "clause catalogue" in result["notes"][0]
    assert progress and progress[0][0] == "planning" and progress[-1][1] == 95
    with pytest.raises(WorkerError) as err:
        queued.result(TIMEOUT)
    assert err.value.kind == "cancelled"


def test_incremental_sync_sends_only_changed_documents(client):
    client.sync({"goals.md": SAFETY_GOALS, "fsc.md": FSC}).result(TIMEOUT)
    changed = FSC.replace("FSR-2: Detect", "FSR-2: Report")
    assert client.sync({"goals.md": SAFETY_GOALS, "fsc.md": changed}).result(TIMEOUT) == {"documents": 2}
    assert client.sync({"fsc.md": changed}).result(TIMEOUT) == {"documents": 1}


def test_bad_requests_get_clear_errors(client):
    _, missing = client.request("run", {"task": "derive", "path": "fsc.md", "item": "FSR-99"})
    with pytest.raises(WorkerError, match="FSR-99 is not defined") as err:
        missing.result(TIMEOUT)
    assert err.value.kind == "invalid"
    _, unknown = client.request("frobnicate")
    with pytest.raises(WorkerError, match="unknown method"):
        unknown.result(TIMEOUT)


def test_a_dead_worker_fails_pending_requests_and_is_restarted():
    c = AgentClient()
    try:
        assert c.request("ping")[1].result(TIMEOUT)["pong"] is True
        first_pid = c._proc.pid
        _, pending = c.request("run", {"task": "ask", "question": "what is an ASIL?"})
        c._proc.kill()
        with pytest.raises(WorkerError) as err:
            pending.result(TIMEOUT)
        assert err.value.kind in ("crashed", "failed", "cancelled")
        assert c.request("ping")[1].result(TIMEOUT)["pid"] != first_pid
    finally:
        c.stop()


def test_the_worker_reads_ears_with_the_projects_not_modal_words(monkeypatch):
    """The language server passes the configuration's extra not-modal words; the worker's requests describe
    the item's EARS pattern with them, as the checks read it."""
    from .scripted_openai_server import ScriptedOpenAIServer, schema_name, user_text
    from .test_llm_path import scripted

    monkeypatch.setenv("SAFEREQ_LLM_API_KEY", "sk-test")
    doc = "## FSR-9: Stop\nWhen a fault is detected, the ECU will stop the motor.\n\n- ASIL: B\n- Derived from: SG-1\n"
    with ScriptedOpenAIServer(scripted()) as server:
        c = AgentClient()
        try:
            c.configure("/nonexistent/index", {"baseUrl": server.base_url, "model": "scripted", "timeout": 120},
                        {"en": ("will stop",)})
            c.sync({"goals.md": SAFETY_GOALS, "e.md": doc}).result(TIMEOUT)
            _, done = c.request("run", {"task": "derive", "path": "e.md", "item": "FSR-9"})
            assert done.result(TIMEOUT)["mode"] in ("llm", "offline")
        finally:
            c.stop()
    plans = [user_text(r) for r in server.requests if schema_name(r) == "plan_retrieval"]
    assert plans and '"ears": "no EARS pattern: it has no modal verb"' in plans[0]
