"""Suggestions as Markdown: where items are inserted and what is written (verified citations only)."""

from __future__ import annotations

from safereq.agent.proposing.placement import Style, subtree_end
from safereq.agent.proposing.render import text_report
from safereq.agent.proposing.review import propose
from safereq.agent.writing.suggestions import Citation, DerivedRequirement, Rebuttal, SuggestionSet, from_json


def test_insertion_point_keeps_the_item_subtree_whole():
    lines = ["# Doc", "## A-1: a", "text", "### A-2: child", "more", "```", "## not a heading", "```", "## B-1: b"]
    assert subtree_end(lines, 1, 2) == 8
    assert subtree_end(lines, 3, 3) == 8
    assert subtree_end(lines, 8, 2) == len(lines)


def test_rendering_writes_only_verified_citations_into_attributes():
    good = Citation("ISO 26262-9", "5", "decomposed into redundant requirements", verified=True, year="2018")
    bad = Citation("ISO 99999", "1", "every requirement is already satisfied", verified=False)
    req = DerivedRequirement("TSR-9", "Monitor", "The monitor shall detect a deviation.", "D", ["FSR-1"], [good, bad],
                             pattern="monitoring-detection")
    text, n = propose(SuggestionSet("derive", "offline", "FSR-1", [req]), Style(level=3, blank_after_heading=False))
    assert n == 1 and "\n> ### TSR-9: Monitor\n> The monitor shall detect a deviation.\n" in text
    assert "> - Cites: ISO 26262-9:2018 §5\n" in text
    # The verified citation is shown as the command line shows it; the unverified one is no citation.
    assert '> cites ISO 26262-9:2018 §5 (verified): "decomposed' in text and "ISO 99999" not in text
    block, n = propose(SuggestionSet("rebut", "llm", "CLM-1", [Rebuttal("violated assumption", "x", "CLM-1", [bad])]))
    assert (block, n) == ("", 0)  # a rebuttal whose citations all fail is not presented
    assert "violated assumption" not in text_report(SuggestionSet("rebut", "llm", "CLM-1", [
        Rebuttal("violated assumption", "x", "CLM-1", [bad])]))  # nor on the command line


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
               propose(SuggestionSet("derive", "llm", "FSR-1", [req]), Style())[0],
               propose(SuggestionSet("rebut", "llm", "FSR-1", [rebuttal]))[0]]
    for out in outputs:
        assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out and "\u202e" not in out
        lines = out.split("\n")
        assert not [line for line in lines if line.lstrip("> ").startswith(("- Derived from: SG-99", "## FSR-99",
                                                                           "- Derived from: SG-9"))]
    headings = [line for line in outputs[1].split("\n") if line.lstrip("> ").startswith("#")]
    assert len(headings) == 1 and headings[0].startswith("> ## TSR-9: Monitor")  # the forged one stays inside it


def test_a_field_with_line_breaks_cannot_add_lines_to_the_review_block():
    from safereq.agent.writing.suggestions import TraceLinkSuggestion

    good = Citation("ISO 26262-3", "7", "derived from every safety goal", verified=True, year="2018")
    forged = TraceLinkSuggestion("cites", "ISO 26262-3:2018 §7", "real reason\n> - Derived from: `SG-9`\n"
                                 '  cites ISO 26262-99:2018 §1 (verified): "x"', 0.5, "T", [good])
    req = DerivedRequirement("TSR-9", "Monitor\n> ## TSR-10: injected", "The monitor shall\n\n- ASIL: QM\ndetect.",
                             "D", ["FSR-1"], [good])
    for result in (SuggestionSet("links", "llm", "FSR-1", [forged]), SuggestionSet("derive", "llm", "FSR-1", [req])):
        text, n = propose(result, Style())
        lines = text.rstrip("\n").split("\n")
        assert n == 1 and all(line.startswith(">") for line in lines)
        assert not any(line.startswith(("> - Derived from: `SG-9`", "> ## TSR-10", "> - ASIL: QM")) for line in lines)
        assert "ISO 26262-99" not in "\n".join(x for x in lines if x.startswith(("> cites", ">   cites")))
