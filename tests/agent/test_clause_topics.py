"""Clauses to cite by topic (agent/clause_topics.py): a process requirement gets the clause of its activity,
reference documents that are not standards only when about the item and labelled, unconfirmed catalogue
entries said to be so."""

from __future__ import annotations

from textwrap import dedent

import pytest

from safereq.agent.retrieval import clause_topics
from safereq.agent.item.context import workspace_view
from safereq.agent.retrieval.knowledge import LexicalSource, catalogue_source
from safereq.agent.tasks.pipeline import AgentRequest, Assistant
from safereq.knowledge.types import ClauseText
from safereq.workspace import Workspace

PROCESS = """\
# Process requirements

## PRC-1: Baselines of work products
Every released work product shall be placed under version control and belong to a baseline.

## PRC-2: Confidence in the compiler
The project shall classify each software tool by tool impact and tool error detection before it is used.

## PRC-3: Change requests
Each change request shall carry an impact analysis before it is approved.

## PRC-4: Keep the pantry tidy
Cereal boxes shall be stored on the top shelf.
"""


def _cites(source, item_id: str) -> list:
    ws = Workspace()
    ws.update("process.md", dedent(PROCESS))
    result = Assistant(source).run(AgentRequest("links", workspace_view(ws, ws.item(item_id))))
    return [s for s in result.suggestions if s.relation == "cites"]


@pytest.mark.parametrize(("item_id", "clause"), [("PRC-1", "ISO 26262-8:2018 §7"), ("PRC-2", "ISO 26262-8:2018 §11"),
                                                  ("PRC-3", "ISO 26262-8:2018 §8")])
def test_a_process_requirement_gets_the_clause_of_its_activity_first(item_id, clause):
    cites = _cites(catalogue_source(), item_id)
    assert cites and cites[0].target == clause
    assert "the clause on" in cites[0].reason
    assert all(c.stands for s in cites for c in s.citations)  # summaries of confirmed clauses (a catalogue source)


def test_nothing_about_the_item_gives_no_clause():
    assert _cites(catalogue_source(), "PRC-4") == []


def _with_report(text: str) -> LexicalSource:
    clauses = [c for c in catalogue_source()._clauses.values()]
    clauses.append(ClauseText("DOT HS 812 573", "2018", "9.2", "Functional safety requirements table",
                              text, "corpus", source="corpus"))
    return LexicalSource(clauses)


def test_a_reference_report_is_offered_only_when_about_the_item_and_labelled():
    about = _with_report("The compiler and each software tool are classified by tool impact and by tool error "
                         "detection for the lane centering project before use.")
    unrelated = _with_report("The steering torque is limited when the driver holds the wheel.")
    labelled = [s for s in _cites(about, "PRC-2") if s.target.startswith("DOT HS")]
    assert labelled and labelled[0].reason.startswith("NHTSA research report, not a standard")
    assert not [s for s in _cites(unrelated, "PRC-2") if s.target.startswith("DOT HS")]


def test_confirmation_is_the_catalogue_s_own():
    assert clause_topics.confirmed("ISO 26262-8", "7") and clause_topics.confirmed("ISO 26262-8", "11")
    assert not clause_topics.confirmed("ISO/PAS 8800", "9")  # no public clause list of that edition was found
    assert not clause_topics.confirmed("NO SUCH DOC", "1")


def test_an_unconfirmed_catalogue_entry_says_so(monkeypatch):
    monkeypatch.setattr(clause_topics, "confirmed", lambda doc, clause: doc == "ISO 26262-8" and clause == "11")
    first = _cites(catalogue_source(), "PRC-1")[0]
    assert "not confirmed" in first.reason
    tools = _cites(catalogue_source(), "PRC-2")[0]
    assert "not confirmed" not in tools.reason
