"""With a model: the same item analysis, the siblings' children as examples, and the same admission checks.

Through the real ``openai`` client and the scripted OpenAI-compatible test double."""

from __future__ import annotations

import json

from safereq.agent.item.context import workspace_view
from safereq.agent.retrieval.knowledge import catalogue_source
from safereq.agent.tasks.pipeline import AgentRequest, Assistant
from safereq.workspace import Workspace

from .scripted_openai_server import Reply, ScriptedOpenAIServer, schema_name
from .test_llm_path import scripted, settings, user_text

DOC = """# Requirements

## SG-1: Avoid unintended steering torque
The item shall not apply unintended steering torque.

- ASIL: D

## FSR-1: Limit the torque request
The torque arbiter shall limit the steering torque request to 3.0 Nm.

- ASIL: D
- Derived from: SG-1

## FSR-2: Limit the torque rate
The torque arbiter shall limit the rate of the steering torque request to 10 Nm/s.

- ASIL: D
- Derived from: SG-1

## TSR-1: Saturate the torque rate in software
The torque software shall saturate the rate of the steering torque request at 10 Nm/s.

- ASIL: D
- Derived from: FSR-2

## FSR-9: Diagnostic metrics
Demonstrate that the hardware architectural metrics targets are met for each safety goal.

- ASIL: D
- Derived from: SG-1
"""

KEEPS = "The torque software shall saturate the steering torque request at 3.0 Nm."
LOSES = "The torque software shall saturate the steering torque request."


def _run(item: str, replies: dict[str, list[Reply]]):
    ws = Workspace()
    ws.update("reqs.md", DOC)
    seen: list[dict] = []
    base = scripted(replies)

    def script(request: dict) -> Reply:
        seen.append(request)
        return base(request)

    with ScriptedOpenAIServer(script) as server:
        result = Assistant(catalogue_source(), settings(server)).run(AgentRequest("derive", workspace_view(ws, ws.item(item))))
    return result, seen


def _cite() -> dict:
    source = catalogue_source()
    return {"document": "ISO 26262-4", "clause": "6", "quote": source.read("ISO 26262-4", "6").text}


def test_the_model_sees_the_siblings_children_and_a_lost_limit_is_not_admitted():
    reply = Reply(json.dumps({"requirements": [
        {"title": "Saturate the torque request", "statement": KEEPS, "asil": "D", "citations": [_cite()]},
        {"title": "Saturate the torque request", "statement": LOSES, "asil": "D", "citations": [_cite()]}]}))
    result, seen = _run("FSR-1", {"derive_requirements": [reply]})
    (request,) = [r for r in seen if schema_name(r) == "derive_requirements"]
    text = user_text(request)
    assert "house_examples" in text and "saturate the rate of the steering torque request at 10 Nm/s" in text
    assert result.mode == "llm" and [s.statement for s in result.suggestions] == [KEEPS]
    assert result.suggestions[0].id.startswith("TSR-")  # the kind the siblings' children have
    assert any("loses a limit" in n for n in result.notes), result.notes


def test_a_process_requirement_gets_no_runtime_reaction_from_the_model():
    reply = Reply(json.dumps({"requirements": [
        {"title": "Safe state", "statement": "When a metric target is missed, the item shall enter a safe state.",
         "asil": "D", "citations": [_cite()]}]}))
    result, seen = _run("FSR-9", {"derive_requirements": [reply]})
    request = next(r for r in seen if schema_name(r) == "derive_requirements")
    assert '"nature": "process"' in user_text(request) or "'nature': 'process'" in user_text(request)
    assert not any("safe state" in s.statement for s in result.suggestions)
