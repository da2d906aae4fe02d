"""A misbehaving model against the whole pipeline, the command line and the worker: forged citations,
terminal escapes, injected attribute lines and headings, an obeyed injection, non-binding modal verbs,
truncated replies, a model that is too slow for the task's deadline, and a circuit breaker across tasks.
Through the real ``openai`` client and the scripted OpenAI-compatible test double."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from safereq.agent.retrieval.knowledge import catalogue_source
from safereq.agent.tasks.pipeline import AgentRequest, Assistant
from safereq.agent.retrieval.plan import Aspect, ClauseTarget, RetrievalPlan, deterministic_plan, plan_from_llm

from .conftest import FSC, SAFETY_GOALS
from .hostile import CATALOGUE_QUOTE, hostile_derive
from .scripted_openai_server import Reply, ScriptedOpenAIServer, schema_name
from .test_llm_path import scripted, settings

FORBIDDEN = ("\x1b", "\x07", "ISO 26262-99", "already satisfied", "LEAK", "rm -rf", "should limit", "will limit",
             "需要", "FSR-99", "SG-99", "owned")


def _assert_clean(text: str) -> None:
    for bad in FORBIDDEN:
        assert bad not in text, (bad, text)


def test_forgeries_and_injections_do_not_survive_derive(view_of):
    source = catalogue_source()
    with ScriptedOpenAIServer(scripted({"derive_requirements": [Reply(hostile_derive())]})) as server:
        result = Assistant(source, settings(server)).run(AgentRequest("derive", view_of("FSR-1")))
    assert result.mode == "llm" and not result.fallback
    (req,) = result.suggestions  # the sound one only
    assert req.statement.startswith("If the torque request exceeds 3.0 Nm") and req.statement.endswith("50 ms.")
    assert req.title == "Monitor the torque request" and req.asil == "D" and req.derived_from == ["FSR-1"]
    assert [(c.document, c.clause, c.summary) for c in req.citations] == [("ISO 26262-9", "5", True)]
    _assert_clean(json.dumps(result.to_json(), ensure_ascii=False))
    notes = " | ".join(result.notes)
    assert "shell-like content" in notes and notes.count("without exactly one binding modal verb") == 3
    assert "1 suggestion(s) without a verified citation not offered" in notes
    assert "could not be verified" in notes


def test_a_model_whose_every_suggestion_is_dropped_makes_the_task_fall_back(view_of):
    junk = Reply(json.dumps({"requirements": [{"title": "t", "statement": "The monitor should act.", "asil": "D"}]}))
    with ScriptedOpenAIServer(scripted({"derive_requirements": [junk]})) as server:
        result = Assistant(catalogue_source(), settings(server)).run(AgentRequest("derive", view_of("FSR-1")))
    assert result.mode == "offline" and "none of the model's suggestions survived" in result.fallback
    assert result.suggestions and all(c.stands for c in result.citations())


def test_an_answer_without_a_verified_citation_is_no_answer(view_of):
    unsupported = Reply(json.dumps({"answer": "DOT HS 812 573", "citations": []}))
    with ScriptedOpenAIServer(scripted({"answer_question": [unsupported]})) as server:
        result = Assistant(catalogue_source(), settings(server)).run(
            AgentRequest("ask", view_of(None), "How is an ASIL decomposed into redundant requirements?"))
    assert result.mode == "offline" and "none of the model's suggestions" in result.fallback
    assert "DOT HS 812 573" not in json.dumps(result.to_json())
    assert result.suggestions and all(c.summary for c in result.suggestions[0].citations)


def test_a_truncated_reply_is_asked_again_with_more_room(view_of):
    cut = Reply('{"requirements": [{"title": "Monitor the torq')
    calls: list[dict] = []

    def script(request: dict) -> Reply:
        if schema_name(request) == "derive_requirements":
            calls.append(request)
            if len(calls) == 1:
                return Reply(cut.content, finish_reason="length")
            return Reply(hostile_derive())
        return scripted()(request)

    with ScriptedOpenAIServer(script) as server:
        result = Assistant(catalogue_source(), settings(server, max_tokens=700)).run(AgentRequest("derive", view_of("FSR-1")))
    assert [c["max_tokens"] for c in calls] == [700, 1400]
    assert len(calls[1]["messages"]) == 2  # the same request again, not a schema repair
    assert result.mode == "llm" and result.tokens["truncated"] == 1
    assert not any("schema" in n for n in result.notes)


def test_a_reply_cut_off_even_with_the_most_room_fails_the_step_and_the_task_falls_back(view_of):
    def script(request: dict) -> Reply:
        if schema_name(request) == "plan_retrieval":
            return Reply('{"topic": "tor', finish_reason="length")
        return scripted()(request)

    with ScriptedOpenAIServer(script) as server:
        result = Assistant(catalogue_source(), settings(server, max_tokens_cap=1600)).run(
            AgentRequest("derive", view_of("FSR-1")))
    assert server.names() == ["plan_retrieval", "plan_retrieval"]
    assert result.mode == "offline" and "cut off at 1600 tokens" in result.fallback


def test_the_task_deadline_stops_a_slow_model_and_the_task_runs_offline(view_of):
    with ScriptedOpenAIServer(lambda r: Reply(hang=True)) as server:
        result = Assistant(catalogue_source(), settings(server, timeout=30.0, deadline=0.5)).run(
            AgentRequest("derive", view_of("FSR-1")))
    assert result.mode == "offline" and result.suggestions
    assert "deadline of 0 s" in result.fallback or "deadline" in result.fallback
    # The one call was cut at the deadline, nothing retried past it; on a busy machine the deadline may pass
    # before the first call is even sent (importing the client alone can take that long), which is as right.
    assert len(server.requests) <= 1


def test_the_circuit_breaker_stops_calling_a_failing_model_for_the_session(view_of):
    with ScriptedOpenAIServer(lambda r: Reply(status=500)) as server:
        assistant = Assistant(catalogue_source(), settings(server, max_retries=0, breaker_failures=2))
        first = [assistant.run(AgentRequest("derive", view_of("FSR-1"))) for _ in range(2)]
        asked = len(server.requests)
        third = assistant.run(AgentRequest("links", view_of("FSR-1")))
    assert asked == 2 and len(server.requests) == 2  # the third task did not call the model at all
    assert all(r.mode == "offline" and "HTTP 500" in r.fallback for r in first)
    assert third.mode == "offline" and "circuit breaker" in third.fallback


def test_the_items_own_clauses_and_aspects_survive_the_models_plan(view_of, source):
    ctx = view_of("FSR-1").item
    indexed = {"ISO 26262-9", "ISO 26262-4", "ISO 26262-3", "ISO 26262-5", "ISO 21448"}
    base = deterministic_plan("derive", ctx, "", indexed)
    flood = RetrievalPlan(
        topic="x", clauses=[ClauseTarget(document="ISO 26262-4", clause=f"6.{i}") for i in range(12)],
        aspects=[Aspect(id=str(i), query=f"aspect {i}") for i in range(8)],
        references=["ISO 99999 §1"])
    merged = plan_from_llm("derive", ctx, "", indexed, flood)
    assert ("ISO 26262-9", "5.4") in merged.targets  # FSR-1 cites ISO 26262-9:2018 §5.4
    assert set(base.targets) <= set(merged.targets)
    assert [a.id for a in merged.spec.aspects][:len(base.spec.aspects)] == [a.id for a in base.spec.aspects]
    assert len(merged.spec.clauses) <= max(12, len(base.spec.clauses))


def _workspace(tmp: Path) -> Path:
    (tmp / "goals.md").write_text(SAFETY_GOALS, encoding="utf-8")
    (tmp / "fsc.md").write_text(FSC, encoding="utf-8")
    return tmp / "fsc.md"


def test_the_command_line_prints_nothing_forged(tmp_path):
    fsc = _workspace(tmp_path)
    with ScriptedOpenAIServer(scripted({"derive_requirements": [Reply(hostile_derive())] * 2})) as server:
        env = {**os.environ, "SAFEREQ_LLM_API_KEY": "sk-test", "SAFEREQ_LLM_TIMEOUT": "120"}
        runs = [subprocess.run([sys.executable, "-m", "safereq", "derive", f"{fsc}#FSR-1", *extra,
                                "--index-dir", str(tmp_path / "no-index"), "--llm-base-url", server.base_url,
                                "--llm-model", "scripted"], capture_output=True, text=True, env=env, timeout=120)
                for extra in ([], ["--json"])]
    text, js = runs[0].stdout, runs[1].stdout
    assert runs[0].returncode == 0 and runs[1].returncode == 0, runs[0].stderr + runs[1].stderr
    assert "mode: llm" in text and "TSR-2: Monitor the torque request" in text
    assert "cites ISO 26262-9:2018 §5 Requirements decomposition with respect to ASIL tailoring (summary by safereq, " \
           "not the standard's words): " in text and CATALOGUE_QUOTE in text
    assert f'"{CATALOGUE_QUOTE}' not in text  # our summary is never printed as a quotation
    _assert_clean(text)
    assert not [line for line in text.splitlines() if line.lstrip().startswith(("- Derived from", "## ", "- ASIL"))]
    data = json.loads(js)
    _assert_clean(json.dumps(data, ensure_ascii=False))
    cites = [c for s in data["suggestions"] for c in s["citations"]]
    assert [c["verified"] for c in cites] == [False] and "quote" not in cites[0] and cites[0]["summary"]


def test_the_command_line_falls_back_whole_when_the_model_hangs(tmp_path):
    fsc = _workspace(tmp_path)
    with ScriptedOpenAIServer(lambda r: Reply(hang=True)) as server:
        env = {**os.environ, "SAFEREQ_LLM_API_KEY": "sk-test", "SAFEREQ_LLM_TIMEOUT": "30", "SAFEREQ_LLM_DEADLINE": "1"}
        run = subprocess.run([sys.executable, "-m", "safereq", "links", f"{fsc}#FSR-1", "--json",
                              "--index-dir", str(tmp_path / "no-index"), "--llm-base-url", server.base_url,
                              "--llm-model", "scripted"], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["mode"] == "offline" and "deadline of 1 s" in data["fallback"]
    assert data["notes"][1].startswith("fallback: the model failed")
    assert len(server.requests) <= 1  # at most the one call the deadline cut (none if start-up used the second)
