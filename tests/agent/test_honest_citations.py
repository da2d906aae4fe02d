"""Our clause summaries are shown as summaries, never as quotations; "verified" is for indexed text only."""

from __future__ import annotations

import json

from safereq.agent.proposing.render import citation_text
from safereq.agent.retrieval.knowledge import LexicalSource, catalogue_source
from safereq.agent.trust.verify import Verifier
from safereq.agent.writing.suggestions import Citation, from_json, SuggestionSet, DerivedRequirement
from safereq.knowledge.types import ClauseText


def test_a_catalogue_summary_is_a_summary_not_a_verified_quote():
    source = catalogue_source()
    summary = source.read("ISO 26262-2", "6.4.6").text
    checked = Verifier(source).check(Citation("ISO 26262-2", "6.4.6", summary))
    assert checked.summary and not checked.verified and checked.stands
    data = checked.to_json()
    assert "quote" not in data and data["summary"] == summary and data["verified"] is False
    text = citation_text(checked)
    assert "(summary by safereq, not the standard's words)" in text and '"' not in text and "verified" not in text


def test_a_quote_found_in_text_the_user_indexed_is_verified_and_quoted():
    indexed = LexicalSource([ClauseText("ISO 26262-9", "2018", "5", "Decomposition",
                                        "A safety requirement may be decomposed into redundant requirements.", "text")])
    checked = Verifier(indexed).check(Citation("ISO 26262-9", "5", "decomposed into redundant requirements"))
    assert checked.verified and not checked.summary
    assert citation_text(checked).startswith('cites ISO 26262-9:2018 §5 (verified): "')


def test_a_summary_survives_the_worker_protocol_as_a_summary():
    c = Citation("ISO 26262-2", "6.4.6", "The safety manager creates the safety plan.", title="Planning", summary=True)
    s = SuggestionSet("derive", "offline", "FSR-1", [DerivedRequirement("TSR-1", "t", "The x shall y.", "B", ["FSR-1"], [c])])
    again = from_json(json.loads(json.dumps(s.to_json())))
    assert again.suggestions[0].citations[0].summary and not again.suggestions[0].citations[0].verified
