"""trace/unknown-clause: a cited clause the catalogued edition does not have, with the closest as fixes."""

from __future__ import annotations

from safereq.checks import apply_edits
from safereq.knowledge.catalogue import clause_numbers, get_catalogue

from .family_helpers import found, workspace

RULE = "trace/unknown-clause"


def _doc(cites: str) -> str:
    return ("## SWSR-3: Check the torque limit\nThe software shall limit the torque request to 3 Nm.\n\n"
            f"- ASIL: D\n- Cites: {cites}\n")


def _span_text(ws, f) -> str:
    return ws.documents[f.path].text.split("\n")[f.span.start_line][f.span.start_col:f.span.end_col]


def test_a_clause_the_part_does_not_have_is_reported_with_the_closest_as_fixes():
    ws = workspace(sw=_doc("ISO 26262-6:2018 §99.9"))
    [f] = found(ws, RULE)
    assert _span_text(ws, f) == "ISO 26262-6:2018 §99.9"
    assert "no clause 99.9" in f.message and f.fixes and not any(fix.safe for fix in f.fixes)
    fixed = apply_edits(ws.documents["sw.md"].text, f.fixes[0].edits)
    ws.update("sw.md", fixed)
    assert not found(ws, RULE)  # the fix names a clause that exists


def test_past_the_last_sub_clause_is_reported_and_the_neighbours_come_first():
    ws = workspace(sw=_doc("ISO 26262-3 §6.9"))
    [f] = found(ws, RULE)
    assert f.fixes[0].title.startswith("Write ISO 26262-3 §6.5")


def test_existing_uncatalogued_depth_other_editions_and_other_standards_pass():
    cites = ("ISO 26262-6:2018 §7.4, ISO 26262-3:2018 §7.4.99, ISO 26262-6:2011 §44, UN R79 §5.1, "
             "ISO 26262-9 Table 1, MIL-STD-882E §4.3")
    assert not found(workspace(sw=_doc(cites)), RULE)


def test_the_line_scan_reads_the_catalogue_as_the_yaml_parser_does():
    full = {(e.document, e.clause): e.title for e in get_catalogue().entries()}
    assert clause_numbers().titles == full
