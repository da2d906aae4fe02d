"""Where derived requirements go and how they are written: measured from the document, not assumed."""

from __future__ import annotations

from safereq.agent.proposing.placement import choose_document, place, wrap
from safereq.workspace import Workspace

TSC = """# Technical safety requirements

### TSR-1: First
The controller software shall compare the two speed signals and use the higher of the two
values for the lock decision.
* derived from: FSR-1
* ASIL: B

### TSR-2: Second
The controller hardware shall read the crash signal on its own input.
* derived from: FSR-2
* ASIL: C
"""
FSR = "# FSR\n\n## FSR-1: One\n\nThe function shall lock.\n\n- ASIL: B\n\n## FSR-2: Two\n\nThe function shall unlock.\n"


def workspace(**docs: str) -> Workspace:
    ws = Workspace()
    for name, text in docs.items():
        ws.update(f"/p/{name}.md", text)
    return ws


def test_the_document_that_holds_the_kind_is_chosen_and_a_tie_is_left_to_the_user():
    ws = workspace(tsc=TSC, fsr=FSR)
    assert choose_document(ws, "TSR", "/p/fsr.md") == ("/p/tsc.md", [])
    assert choose_document(ws, "HSR", "/p/fsr.md") == ("/p/fsr.md", [])  # nobody holds HSRs: the source
    ws.update("/p/tsc2.md", TSC.replace("TSR-1", "TSR-7").replace("TSR-2", "TSR-8"))
    assert choose_document(ws, "TSR", "/p/fsr.md") == (None, ["/p/tsc.md", "/p/tsc2.md"])


def test_placement_follows_siblings_and_measures_the_neighbours_style():
    ws = workspace(tsc=TSC, fsr=FSR)
    source = ws.item("FSR-1")
    p = place(ws, "/p/tsc.md", source, "TSR")
    lines = TSC.split("\n")
    assert lines[p.line] == "### TSR-2: Second" and "TSR-1" in p.reason  # after the sibling, not at the end
    s = p.style
    assert (s.level, s.blank_after_heading, s.blank_before_attributes, s.bullet) == (3, False, False, "* ")
    assert s.label("derived-from") == "derived from" and s.order == ("derived-from", "asil")
    assert s.width == len("The controller software shall compare the two speed signals and use the higher of the two")
    elsewhere = place(ws, "/p/tsc.md", ws.item("FSR-2"), "TSR")
    assert elsewhere.line == len(lines) and "after TSR-2" in elsewhere.reason


def test_wrapping_keeps_clause_references_whole_and_never_starts_a_line_with_structure():
    text = "Follow ISO 26262-3:2018 §7.4.2 for every case - including ASIL: D items and # marks 1. here"
    for width in range(12, 40):
        lines = wrap(text, width, "- Rationale: ", "  ")
        assert " ".join(x.strip() for x in lines).removeprefix("- Rationale: ") == text
        assert not any(x.strip().startswith(("-", "#", "ASIL:", "1.")) for x in lines[1:])
        assert any("ISO 26262-3:2018 §7.4.2" in x for x in lines)
    assert wrap(text, None) == [text]
