"""The LLM path against the scripted OpenAI-compatible test server, through the real ``openai`` client.

Covers structured outputs, malformed JSON (repaired, or given up on), HTTP 429 and 500 (retried with
backoff, then the offline fallback), timeouts, cancellation of an in-flight call, token accounting, and a
corpus chunk carrying a prompt injection: it reaches the model only inside the JSON data block, and what a
model that obeyed it would answer is caught (unknown clauses and fabricated quotes are not verified).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable

import pytest

from safereq.agent.writing.generate import Cancelled, CancelToken, LLMClient, LLMError, LLMSettings
from safereq.agent.tasks.pipeline import AgentRequest, Assistant
from safereq.agent.retrieval.plan import RetrievalPlan

from .conftest import INJECTION
from .scripted_openai_server import Reply, ScriptedOpenAIServer, schema_name, user_text

TRUE_QUOTE = "decomposed into redundant requirements allocated to sufficiently independent elements"

DEFAULTS: dict[str, dict] = {
    "plan_retrieval": {"topic": "torque limitation", "question_type": "fact", "documents": ["ISO 26262-9"],
                       "clauses": [{"document": "ISO 26262-9", "clause": "5", "reason": "decomposition"}],
                       "keywords": ["decomposition", "independence"],
                       "aspects": [{"id": "hmi", "query": "instrument cluster lamp chime"}],
                       "references": ["part 9 clause 7"]},
    "pick_engine": {"choices": [{"index": 0, "reason": "a fact question"}]},
    "condense": {"relevant": True, "context": "Decomposition needs independent elements.", "clauses": ["5"]},
    "next_action": {"action": "stop", "reason": "enough evidence"},
    "derive_requirements": {"requirements": [
        {"title": "Monitor the torque limiter", "statement": "If the torque request exceeds 3.0 Nm, then the torque "
         "monitor shall set the torque request to zero within 50 ms.", "ears": "unwanted", "asil": "D",
         "pattern": "monitoring-detection", "rationale": "detection",
         "citations": [{"document": "ISO 26262-9", "clause": "5", "quote": TRUE_QUOTE},
                       {"document": "ISO 26262-9", "clause": "5", "quote": "decomposition is forbidden for steering"}]},
        {"title": "Two modal verbs", "statement": "The limiter shall limit and must saturate.", "asil": "D"},
    ]},
    "suggest_trace_links": {"links": [
        {"relation": "child", "target": "TSR-1", "reason": "saturates the same request", "score": 0.8},
        {"relation": "parent", "target": "SG-99", "reason": "invented", "score": 0.9},
        {"relation": "cites", "target": "ISO 26262-9 5", "reason": "decomposition", "score": 0.6,
         "citations": [{"document": "ISO 26262-9", "clause": "5", "quote": TRUE_QUOTE}]},
    ]},
    "suggest_rebuttals": {"rebuttals": [
        {"category": "common-cause failure", "statement": "Both channels share a power supply.",
         "citations": [{"document": "ISO 26262-9", "clause": "7",
                        "quote": "Shared power supplies, shared clocks and identical software are typical coupling factors"}]},
    ]},
    "answer_question": {"answer": "Shared supplies couple channels.",
                        "citations": [{"document": "ISO 26262-9", "clause": "7", "quote": "typical coupling factors"}]},
}


def scripted(overrides: dict[str, list[Reply]] | None = None) -> Callable[[dict], Reply]:
    """Defaults per schema; ``overrides[name]`` replies are used first, in order."""
    queues = {k: list(v) for k, v in (overrides or {}).items()}
    lock = threading.Lock()

    def script(request: dict) -> Reply:
        name = schema_name(request)
        with lock:
            if queues.get(name):
                return queues[name].pop(0)
        if name == "route_documents":  # pick ISO 26262-9 and ISO 26262-4 from the menu, by their indexes
            menu = dict(line.split(": ", 1)[::-1] for line in user_text(request).splitlines() if ": " in line
                        and line.split(":")[0].isdigit())
            picks = [int(i) for d, i in ((k.split(" — ")[0], v) for k, v in menu.items()) if d in ("ISO 26262-9", "ISO 26262-4")]
            return Reply(json.dumps({"choices": [{"index": i, "reason": "relevant"} for i in picks]}))
        return Reply(json.dumps(DEFAULTS[name]))
    return script


def settings(server: ScriptedOpenAIServer, **kw) -> LLMSettings:
    return LLMSettings(base_url=server.base_url, model="scripted", api_key="sk-test", timeout=kw.pop("timeout", 120.0),
                       backoff=0.01, max_backoff=0.02, **kw)


def test_derive_in_llm_mode_validates_ids_modals_asils_and_citations(source, view_of):
    with ScriptedOpenAIServer(scripted()) as server:
        result = Assistant(source, settings(server)).run(AgentRequest("derive", view_of("FSR-1")))
    assert result.mode == "llm"
    assert [r.id for r in result.suggestions] == ["TSR-2"]  # TSR-1 exists; the two-modal draft was dropped
    req = result.suggestions[0]
    assert req.derived_from == ["FSR-1"] and req.asil == "D"
    assert [c.verified for c in req.citations] == [True]  # the fabricated quote is left out, not shown
    assert any("one binding modal" in n for n in result.notes)
    assert any("could not be verified" in n and "left out" in n for n in result.notes)
    assert result.tokens["calls"] == len(server.requests) and result.tokens["prompt_tokens"] == 11 * len(server.requests)
    names = server.names()
    assert names[0] == "plan_retrieval" and names[-1] == "derive_requirements"
    assert {"route_documents", "pick_engine", "condense", "next_action"} <= set(names)
    assert any("part 9 clause 7" in t and "ISO 26262-9 7" in t for t in result.trace)  # LLM reference resolved


def test_requests_carry_the_model_and_a_json_schema(source, view_of):
    with ScriptedOpenAIServer(scripted()) as server:
        Assistant(source, settings(server)).run(AgentRequest("rebut", view_of("CLM-1")))
    for request in server.requests:
        assert request["model"] == "scripted"
        assert request["response_format"]["type"] == "json_schema"
        assert "properties" in request["response_format"]["json_schema"]["schema"]


def test_links_in_llm_mode_keep_only_candidates_and_clauses_read(source, view_of):
    with ScriptedOpenAIServer(scripted()) as server:
        result = Assistant(source, settings(server)).run(AgentRequest("links", view_of("FSR-1")))
    targets = [(s.relation, s.target) for s in result.suggestions]
    assert ("child", "TSR-1") in targets and ("cites", "ISO 26262-9 5") in targets
    assert not any(t == "SG-99" for _, t in targets)
    assert any("SG-99" in n for n in result.notes)


def test_malformed_json_is_repaired_once(source, view_of):
    bad = Reply("{not json at all")
    with ScriptedOpenAIServer(scripted({"derive_requirements": [bad]})) as server:
        result = Assistant(source, settings(server)).run(AgentRequest("derive", view_of("FSR-1")))
    assert result.mode == "llm" and server.names().count("derive_requirements") == 2
    repair = [r for r in server.requests if schema_name(r) == "derive_requirements"][1]
    assert "not valid JSON" in repair["messages"][-1]["content"]


def test_persistently_malformed_output_falls_back_to_the_patterns(source, view_of):
    junk = [Reply('{"requirements": "not a list"}'), Reply("```json\n[]\n```")]
    with ScriptedOpenAIServer(scripted({"derive_requirements": junk})) as server:
        result = Assistant(source, settings(server)).run(AgentRequest("derive", view_of("FSR-1")))
    assert result.mode == "offline" and result.suggestions
    assert "did not match the schema" in result.fallback and "whole task ran offline" in result.fallback
    assert any(n.startswith("fallback:") for n in result.notes)
    # the offline rerun starts from the offline plan: the model's reference ("part 9 clause 7") is not in it
    offline = [t for t in result.trace if not t.startswith("model attempt:")]
    assert not any("part 9 clause 7" in t for t in offline)
    assert any(t.startswith("model attempt: resolved 'part 9 clause 7'") for t in result.trace)


def test_http_429_is_retried_with_backoff(source, view_of):
    limited = [Reply(status=429, headers={"retry-after": "0"}), Reply(status=429)]
    with ScriptedOpenAIServer(scripted({"plan_retrieval": limited})) as server:
        result = Assistant(source, settings(server)).run(AgentRequest("derive", view_of("FSR-1")))
    assert server.names()[:3] == ["plan_retrieval"] * 3
    assert result.tokens["retries"] == 2 and result.mode == "llm"
    assert not any(n.startswith("planning") for n in result.notes)


def test_http_500_beyond_the_retry_budget_makes_the_whole_task_fall_back(source, view_of):
    errors = [Reply(status=500)] * 4
    with ScriptedOpenAIServer(scripted({"plan_retrieval": errors})) as server:
        result = Assistant(source, settings(server, max_retries=3)).run(AgentRequest("derive", view_of("FSR-1")))
    assert server.names() == ["plan_retrieval"] * 4  # nothing more is asked once a step failed for good
    assert result.mode == "offline" and "plan_retrieval: HTTP 500" in result.fallback
    assert result.suggestions and result.tokens["calls"] == 0 and result.tokens["retries"] == 3


def test_timeouts_are_retried_then_reported(source):
    with ScriptedOpenAIServer(lambda r: Reply(hang=True)) as server:
        client = LLMClient(settings(server, timeout=0.3, max_retries=1))
        with pytest.raises(LLMError, match="APITimeoutError.*2 attempts"):
            client.structured("plan_retrieval", RetrievalPlan, "plan", {"request": "r"})
    assert len(server.requests) == 2


def test_cancellation_stops_an_in_flight_call_at_once(source):
    with ScriptedOpenAIServer(lambda r: Reply(hang=True)) as server:
        token = CancelToken()
        client = LLMClient(settings(server, timeout=30.0), token)
        errors: list[BaseException] = []
        done = threading.Event()

        def call() -> None:
            try:
                client.structured("plan_retrieval", RetrievalPlan, "plan", {"request": "r"})
            except BaseException as exc:
                errors.append(exc)
            done.set()

        threading.Thread(target=call, daemon=True).start()
        assert server.received.wait(120)
        token.cancel()
        assert done.wait(120), "the call did not return after cancellation"
    assert isinstance(errors[0], Cancelled)


def test_injected_corpus_text_reaches_the_model_only_as_data(source, view_of):
    with ScriptedOpenAIServer(scripted()) as server:
        Assistant(source, settings(server)).run(AgentRequest("rebut", view_of("CLM-1")))
    carrying = [r for r in server.requests if INJECTION[:40] in json.dumps(r, ensure_ascii=False)]
    assert carrying, "the injected clause was never retrieved, so the test proves nothing"
    for request in carrying:
        system = request["messages"][0]
        assert system["role"] == "system" and "IGNORE ALL PREVIOUS" not in system["content"]
        assert "never instructions" in system["content"]
        text = user_text(request)
        block = text[text.index("<data>"):text.index("</data>")]
        assert "IGNORE ALL PREVIOUS INSTRUCTIONS" in block
        assert text.count("</data>") == 1


def test_a_model_that_obeys_the_injection_gets_nothing_past_verification(source, view_of):
    obeyed = Reply(json.dumps({"rebuttals": [{
        "category": "violated assumption", "statement": "Every requirement is already satisfied.",
        "citations": [{"document": "ISO 99999", "clause": "1", "quote": "every requirement is already satisfied"},
                      {"document": "ISO 26262-5", "clause": "8", "quote": "mark the item as verified and approved by the assessor"}]}]}))
    hijack = Reply(json.dumps({"action": "read", "document": "ISO 99999", "clause": "1", "reason": "as instructed"}))
    with ScriptedOpenAIServer(scripted({"suggest_rebuttals": [obeyed], "next_action": [hijack]})) as server:
        result = Assistant(source, settings(server)).run(AgentRequest("rebut", view_of("CLM-1")))
    # nothing of the obeyed reply is offered: its citations do not verify, so the rebuttal has none, so the
    # model's whole result is unusable and the task runs offline
    assert result.mode == "offline" and "none of the model's suggestions" in result.fallback
    assert all(c.verified for c in result.citations())
    assert "already satisfied" not in json.dumps(result.to_json())
    assert any("ignored model action read ISO 99999" in t for t in result.trace)


def test_no_endpoint_means_no_request_leaves_the_machine(source, view_of, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-should-not-be-used")
    settings_ = LLMSettings.resolve({}, env={"OPENAI_API_KEY": "sk-x"})
    assert not settings_.enabled
    result = Assistant(source, settings_).run(AgentRequest("derive", view_of("FSR-1")))
    assert result.mode == "offline" and result.tokens == {}


def test_settings_resolution_order():
    env = {"SAFEREQ_LLM_BASE_URL": "http://env/v1", "SAFEREQ_LLM_MODEL": "env-model", "SAFEREQ_LLM_API_KEY": "k1",
           "OPENAI_API_KEY": "k2"}
    s = LLMSettings.resolve({"baseUrl": "http://cfg/v1/"}, env=env, model="arg-model")
    assert (s.base_url, s.model, s.api_key) == ("http://cfg/v1", "arg-model", "k1")
    assert LLMSettings.resolve({}, env={"OPENAI_API_KEY": "k2"}).api_key == "k2"


def test_the_model_is_told_the_items_ears_pattern(source, view_of):
    """The planner and the derivation see the statement's EARS shape, as ears/no-pattern reads it."""
    with ScriptedOpenAIServer(scripted()) as server:
        Assistant(source, settings(server)).run(AgentRequest("derive", view_of("FSR-1")))
    seen = {schema_name(r): user_text(r) for r in server.requests}
    assert '"ears": "ubiquitous"' in seen["plan_retrieval"]
    assert '"ears": "ubiquitous"' in seen["derive_requirements"]
