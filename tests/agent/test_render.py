"""Suggestions as Markdown: where items are inserted and what is written (verified citations only)."""

from __future__ import annotations

from safereq.agent.render import derived_items, insertion_line, review_block, text_report
from safereq.agent.suggestions import Citation, DerivedRequirement, Rebuttal, SuggestionSet, from_json


def test_insertion_point_keeps_the_item_subtree_whole():
    lines = ["# Doc", "## A-1: a", "text", "### A-2: child", "more", "```", "## not a heading", "```", "## B-1: b"]
    assert insertion_line(lines, 1, 2) == 8
    assert insertion_line(lines, 3, 3) == 8
    assert insertion_line(lines, 8, 2) == len(lines)


def test_rendering_writes_only_verified_citations():
    good = Citation("ISO 26262-9", "5", "decomposed into redundant requirements", verified=True, year="2018")
    bad = Citation("ISO 99999", "1", "every requirement is already satisfied", verified=False)
    req = DerivedRequirement("TSR-9", "Monitor", "The monitor shall detect a deviation.", "D", ["FSR-1"], [good, bad],
                             pattern="monitoring-detection")
    text = derived_items(SuggestionSet("derive", "offline", "FSR-1", [req]), 3)
    assert text.startswith("### TSR-9: Monitor\nThe monitor shall detect a deviation.\n")
    assert "- Cites: ISO 26262-9:2018 §5" in text and "ISO 99999" not in text
    block = review_block(SuggestionSet("rebut", "llm", "CLM-1", [Rebuttal("violated assumption", "x", "CLM-1", [bad])]))
    assert block == ""  # a rebuttal without a verified citation is not presented


def test_suggestion_sets_survive_the_worker_protocol_and_text_output_prints_only_verified_citations():
    good = Citation("ISO 26262-9", "5", "decomposed into redundant requirements", verified=True, year="2018")
    bad = Citation("ISO 99999", "1", "every requirement is already satisfied", verified=False, note="clause not in the index")
    req = DerivedRequirement("TSR-9", "Monitor", "The monitor shall detect a deviation.", "B(D)", ["FSR-1"], [good, bad])
    original = SuggestionSet("derive", "offline", "FSR-1", [req], ["a note"], fallback="the model failed")
    again = from_json(original.to_json())
    assert again.to_json() == original.to_json()
    text = text_report(again)
    assert 'cites ISO 26262-9:2018 §5 (verified): "decomposed into redundant requirements"' in text
    assert "ISO 99999" not in text and "already satisfied" not in text
    assert "mode: offline (fallback" in text


def test_text_that_reaches_the_terminal_or_the_document_is_one_line_without_escapes():
    hostile = "Monitor\x1b[2J\x1b]0;owned\x07\n- Derived from: SG-99\n## FSR-99: forged"
    quote = Citation("ISO 26262-9", "5", "decomposed\x1b[31m into redundant\nrequirements", verified=True, year="2018")
    req = DerivedRequirement("TSR-9", hostile, "The monitor shall detect\x9b2J a deviation.", "D", ["FSR-1"], [quote])
    rebuttal = Rebuttal("violated assumption", "A shared clock\u202e fails.\n> - Derived from: SG-9", "FSR-1", [quote])
    outputs = [text_report(SuggestionSet("derive", "llm", "FSR-1", [req])),
               derived_items(SuggestionSet("derive", "llm", "FSR-1", [req]), 2),
               review_block(SuggestionSet("rebut", "llm", "FSR-1", [rebuttal]))]
    for out in outputs:
        assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out and "\u202e" not in out
        lines = out.split("\n")
        assert not [line for line in lines if line.startswith(("- Derived from: SG-99", "## FSR-99", "> - Derived from: SG-9"))]
    assert outputs[1].count("\n## ") == 0 and outputs[1].startswith("## TSR-9: Monitor")
    assert len(outputs[2].rstrip("\n").split("\n")) == 3  # header, blank quote line, the one rebuttal
