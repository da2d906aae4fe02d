"""ASIL rules: values, S/E/C determination, inheritance, decomposition and goals (checks/families/asil.py)."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest

from safereq.checks import apply_edits
from safereq.checks.findings import Finding, Severity
from safereq.workspace import Workspace

from .family_helpers import asil_trace_checker as _checker
from .family_helpers import found as _found
from .family_helpers import workspace as _ws

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "trace-brake-workspace"
HARA = "| ID | Hazardous event | S | E | C | ASIL | Safety goal |\n|---|---|---|---|---|---|---|\n"




def _fixed(ws: Workspace, finding: Finding, which: int = 0) -> str:
    fix = finding.fixes[which]
    assert {e.path for e in fix.edits} == {finding.path}
    return apply_edits(ws.documents[finding.path].text, fix.edits)


def _refix(ws: Workspace, finding: Finding, which: int = 0) -> Workspace:
    ws.update(finding.path, _fixed(ws, finding, which))
    return ws


def _line(ws: Workspace, f: Finding) -> str:
    return ws.documents[f.path].text.split("\n")[f.span.start_line]


def _text(ws: Workspace, f: Finding) -> str:
    return _line(ws, f)[f.span.start_col:f.span.end_col]


GOAL_D = """\
## SG-1: Avoid unintended braking

The booster shall not brake without a request.

- ASIL: D
"""


# -- invalid values --------------------------------------------------------------------------------------
def test_invalid_asil_values_on_items():
    ws = _ws(a=GOAL_D + dedent("""
        ### FSR-1: Detect implausible requests
        - ASIL: TBD
        - Derived from: SG-1

        ### FSR-2: Compare sensors
        - ASIL: D(B)
        - Derived from: SG-1

        ### FSR-3: Monitor
        - ASIL: ASIL B(D)
        - Derived from: SG-1
        """))
    found = _found(ws, "asil/invalid-value")
    assert [_text(ws, f) for f in found] == ["TBD", "D(B)"]
    assert found[0].severity is Severity.ERROR
    assert "not an ASIL" in found[0].message and "cannot be higher" in found[1].message


def test_empty_hara_asil_cell_is_filled_from_s_e_c():
    ws = _ws(hara=HARA + "| HE-1 | Missing braking | S3 | E3 | C2 |  | SG-1 |\n")
    [f] = _found(ws, "asil/invalid-value")
    assert _text(ws, f) == "HE-1" and "give ASIL B" in f.message
    assert f.fix is not None and not f.fix.safe  # setting an ASIL is a person's decision
    _refix(ws, f)
    assert "| C2 | B | SG-1 |" in ws.documents["hara.md"].text
    assert not _found(ws, "asil/invalid-value") and not _found(ws, "asil/sec-mismatch")


def test_unreadable_hara_asil_cell_offers_the_determined_value_for_review():
    ws = _ws(hara=HARA + "| HE-1 | Missing braking | S3 | E3 | C2 | high | SG-1 |\n")
    [f] = _found(ws, "asil/invalid-value")
    assert _text(ws, f) == "high"
    assert f.fix is not None and not f.fix.safe and f.fix.edits[0].new_text == "B"


def test_invalid_classes_with_fixes_where_the_class_is_evident():
    ws = _ws(hara=HARA + "| HE-1 | Braking | 3 | E4 | C3 - difficult | D | SG-1 |\n| HE-2 | Other | S4 | E9 | C1 | QM | |\n")
    found = _found(ws, "asil/invalid-class")
    assert [_text(ws, f) for f in found] == ["3", "C3 - difficult", "S4", "E9"]
    bare, described, s4, _e9 = found
    assert bare.fix is not None and bare.fix.safe and bare.fix.edits[0].new_text == "S3"
    assert described.fix is not None and not described.fix.safe and described.fix.edits[0].new_text == "C3"
    assert not s4.fixes and "S0–S3" in s4.message
    _refix(ws, bare)
    assert [_text(ws, f) for f in _found(ws, "asil/invalid-class")] == ["C3 - difficult", "S4", "E9"]


def test_invalid_class_attribute_on_an_item():
    ws = _ws(a="""\
        ## HE-7: Steering torque while parking
        - Severity: S2
        - Exposure: E5
        - Controllability: C2
        """)
    [f] = _found(ws, "asil/invalid-class")
    assert _text(ws, f) == "E5" and "E0–E4" in f.message


def test_incomplete_classification():
    ws = _ws(a="""\
        ## HE-7: Steering torque while parking
        - Severity: S2
        - Exposure: E3
        - ASIL: A

        ## HE-8: Complete
        - Severity: S2
        - Exposure: E3
        - Controllability: C2
        - ASIL: QM
        """, hara=HARA + "| HE-1 | Braking | S3 | E4 |  | D | |\n")
    found = _found(ws, "asil/incomplete-classification")
    assert [(f.path, f.severity) for f in found] == [("a.md", Severity.WARNING), ("hara.md", Severity.WARNING)]
    assert "controllability" in found[0].message and "controllability" in found[1].message


# -- S/E/C determination ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("stated", "computed"), [("B", "C"), ("D", "C"), ("B(D)", "C")])
def test_hara_asil_disagreeing_with_s_e_c(stated, computed):
    ws = _ws(hara=HARA + f"| HE-3 | Unintended acceleration | S3 | E4 | C2 | {stated} | SG-1 |\n")
    [f] = _found(ws, "asil/sec-mismatch")
    assert _text(ws, f) == stated and f"give ASIL {computed}" in f.message and "Table 4" in f.message
    assert f.fix is not None and not f.fix.safe  # raising or lowering: never applied without review
    _refix(ws, f)
    assert not _found(ws, "asil/sec-mismatch")


def test_hara_rows_in_agreement_and_zero_classes_raise_nothing():
    rows = "| HE-1 | A | S3 | E4 | C3 | D | |\n| HE-2 | B | S1 | E4 | C2 | A | |\n| HE-3 | C | S3 | E0 | C3 | QM | |\n"
    ws = _ws(hara=HARA + rows)
    assert not _found(ws, "asil/sec-mismatch") and not _found(ws, "asil/invalid-class")


def test_item_asil_disagreeing_with_its_s_e_c_attributes():
    ws = _ws(a="""\
        ## SG-4: Avoid loss of steering assistance
        - Severity: S3
        - Exposure: E4
        - Controllability: C3
        - ASIL: C
        """)
    [f] = _found(ws, "asil/sec-mismatch")
    assert _text(ws, f) == "C" and f.fix is not None and not f.fix.safe and f.fix.edits[0].new_text == "D"


# -- missing ---------------------------------------------------------------------------------------------
def test_missing_asil_is_inserted_in_the_items_list_style():
    ws = _ws(a=GOAL_D + dedent("""
        ### FSR-1: Detect implausible requests

        The controller shall detect implausible requests.

        - **Derived from:** SG-1
        - **Verified by:** TC-1

        ## TC-1: Test
        """))
    [f] = _found(ws, "asil/missing")
    assert f.severity is Severity.WARNING and _text(ws, f) == "FSR-1"
    assert "ASIL: D" in f.message and [r.message for r in f.related] == ["SG-1 is ASIL D"]
    text = _fixed(ws, f)
    assert "- **Verified by:** TC-1\n- **ASIL:** D\n\n## TC-1" in text
    ws.update("a.md", text)
    assert not _found(ws, "asil/missing")
    assert ws.item("FSR-1").attribute("asil").value == "D"


def test_missing_asil_after_a_statement_without_attributes_and_a_decomposed_parent():
    ws = _ws(a=GOAL_D + dedent("""
        ### FSR-1: Parent
        - ASIL: B(D)
        - Derived from: SG-1

        #### TSR-1: Child
        - Derived from: FSR-1

        ### FSR-2: Child without attributes
        The controller shall do it.
        """))
    by_id = {_text(ws, f): f for f in _found(ws, "asil/missing")}
    assert set(by_id) == {"TSR-1", "FSR-2"}
    assert "ASIL: B(D)" in by_id["TSR-1"].message
    assert "- Derived from: FSR-1\n- ASIL: B(D)" in _fixed(ws, by_id["TSR-1"])
    assert not by_id["FSR-2"].fixes  # no parent, no S/E/C: nothing to infer


def test_missing_goal_asil_comes_from_its_hazardous_events():
    ws = _ws(hara=HARA + "| HE-1 | A | S3 | E4 | C3 | D | SG-1 |\n| HE-2 | B | S2 | E4 | C2 | B | SG-1 |\n",
             goals="## SG-1: Avoid unintended braking\n\nThe booster shall not brake without a request.\n")
    [f] = _found(ws, "asil/missing")
    assert "ASIL: D" in f.message and "HE-1" in f.message
    assert f.related[0].path == "hara.md"
    text = _fixed(ws, f)
    assert text.endswith("without a request.\n- ASIL: D\n")
    ws.update("goals.md", text)
    assert not _found(ws, "asil/missing") and not _found(ws, "asil/goal-below-hazard")


def test_requirements_of_other_categories_need_no_asil():
    ws = _ws(a="## REQ-1: Comfort\nThe seat shall be warm.\n\n## TC-1: Test\nRun it.\n")
    assert not _found(ws, "asil/missing")


# -- inheritance -----------------------------------------------------------------------------------------
def test_lower_than_parent_raises_to_the_inherited_value():
    ws = _ws(goals=GOAL_D, fsr="""\
        ### FSR-1: Detect implausible requests
        - ASIL: B
        - Derived from: SG-1
        """)
    [f] = _found(ws, "asil/lower-than-parent")
    assert f.path == "fsr.md" and _text(ws, f) == "B" and f.severity is Severity.ERROR
    assert [(r.path, r.message) for r in f.related] == [("goals.md", "SG-1 is ASIL D")]
    assert f.fix is not None and not f.fix.safe  # a quick fix a person chooses, never --fix
    _refix(ws, f)
    assert not _found(ws, "asil/lower-than-parent")


def test_lower_than_a_decomposed_parent_inherits_the_decomposed_value():
    ws = _ws(a=GOAL_D + dedent("""
        ### FSR-1: A
        - ASIL: B(D)
        - Derived from: SG-1

        ### FSR-2: B
        - ASIL: B(D)
        - Derived from: SG-1

        #### TSR-1: Child
        - ASIL: A
        - Derived from: FSR-1

        #### TSR-2: Child that inherits
        - ASIL: B(D)
        - Derived from: FSR-1

        #### TSR-3: Higher is fine
        - ASIL: D
        - Derived from: FSR-2
        """))
    [f] = _found(ws, "asil/lower-than-parent")
    assert _text(ws, f) == "A" and f.fix.edits[0].new_text == "B(D)"


def test_edits_elsewhere_keep_inheritance_findings_current():
    ws = _ws(goals=GOAL_D, fsr="### FSR-1: Detect\n- ASIL: B\n- Derived from: SG-1\n")
    checker = _checker()
    assert [f.rule for f in checker.check(ws) if f.rule.startswith("asil/")] == ["asil/lower-than-parent"]
    ws.update("fsr.md", "# Functional safety requirements\n\n" + ws.documents["fsr.md"].text)  # lines move
    [f] = [f for f in checker.check(ws) if f.rule == "asil/lower-than-parent"]
    assert f.span.start_line == 3 and _text(ws, f) == "B"
    ws.update("goals.md", ws.documents["goals.md"].text.replace("ASIL: D", "ASIL: B"))
    assert not [f for f in checker.check(ws) if f.rule.startswith("asil/")]


# -- decomposition ---------------------------------------------------------------------------------------
def _decomposed(*values: str, parent: str = "D") -> Workspace:
    children = "".join(
        f"\n#### TSR-{k}: Channel {k}\nThe channel {k} shall check it.\n\n- ASIL: {v}\n- Derived from: FSR-1\n"
        for k, v in enumerate(values, start=1))
    return _ws(a=GOAL_D.replace("ASIL: D", f"ASIL: {parent}") + f"""
### FSR-1: Plausibility check
The controller shall confirm the brake request.

- ASIL: {parent}
- Derived from: SG-1
""" + children)


ASIL_RULES = ("asil/lower-than-parent", "asil/decomposition-scheme", "asil/decomposition-partner",
              "asil/decomposition-original", "asil/missing")


@pytest.mark.parametrize("values", [
    ("B(D)", "B(D)"), ("C(D)", "A(D)"), ("D(D)", "QM(D)"), ("C(D)", "A(D)", "A(D)"), ("B(D)", "B(D)", "D"),
])
def test_allowed_decompositions_raise_nothing(values):
    ws = _decomposed(*values)
    assert not [f for f in _checker().check(ws) if f.rule in ASIL_RULES]


def test_decomposing_a_decomposed_parent_keeps_the_original_in_brackets():
    ws = _decomposed("A(D)", "A(D)", parent="B(D)")
    assert not [f for f in _checker().check(ws) if f.rule in ASIL_RULES]
    inherited_half = _decomposed("B(D)", "QM(D)", parent="B(D)")  # B(D) inherits and pairs with QM(D)
    assert not [f for f in _checker().check(inherited_half) if f.rule in ASIL_RULES]


def test_scheme_that_iso_26262_9_does_not_allow():
    ws = _decomposed("B(D)", "A(D)")
    found = _found(ws, "asil/decomposition-scheme")
    assert [_text(ws, f) for f in found] == ["B(D)", "A(D)"]
    assert "C(D)+A(D), B(D)+B(D), D(D)+QM(D)" in found[0].message
    assert {r.message for r in found[0].related} == {"FSR-1 is ASIL D", "TSR-2 is ASIL A(D)"}
    assert not _found(ws, "asil/decomposition-partner") and not _found(ws, "asil/lower-than-parent")


@pytest.mark.parametrize(("values", "partner"), [(("C(D)",), "A(D)"), (("B(D)",), "B(D)"), (("D(D)",), "QM(D)")])
def test_lone_decomposed_child_needs_its_partner(values, partner):
    ws = _decomposed(*values)
    [f] = _found(ws, "asil/decomposition-partner")
    assert f"ASIL {partner}" in f.message and f.related[0].message == "FSR-1 is ASIL D"
    assert not _found(ws, "asil/decomposition-scheme")


def test_bracket_that_does_not_name_the_parents_asil():
    ws = _decomposed("B(C)", "B(D)")
    [f] = _found(ws, "asil/decomposition-original")
    assert _text(ws, f) == "B(C)" and f.fix is not None and not f.fix.safe and f.fix.edits[0].new_text == "B(D)"
    _refix(ws, f)
    assert not [f for f in _checker().check(ws) if f.rule in ASIL_RULES]


def test_decomposition_findings_follow_edits():
    ws = _decomposed("B(D)", "A(D)")
    checker = _checker()
    assert len([f for f in checker.check(ws) if f.rule == "asil/decomposition-scheme"]) == 2
    text = ws.documents["a.md"].text
    ws.update("a.md", "# Moved\n\n" + text.replace("shall confirm", "shall always confirm"))
    found = [f for f in checker.check(ws) if f.rule == "asil/decomposition-scheme"]
    parent_line = ws.item("FSR-1").attribute("asil").span.start_line
    assert len(found) == 2 and found[0].related[0].span.start_line == parent_line
    ws.update("a.md", ws.documents["a.md"].text.replace("ASIL: A(D)", "ASIL: B(D)"))
    assert not [f for f in checker.check(ws) if f.rule in ASIL_RULES]


# -- safety goals ----------------------------------------------------------------------------------------
def test_goal_below_its_hazardous_events():
    ws = _ws(hara=HARA + "| HE-1 | A | S3 | E4 | C3 | D | SG-1 |\n| HE-2 | B | S2 | E4 | C2 | B | SG-1 |\n",
             goals=GOAL_D.replace("ASIL: D", "ASIL: C"))
    [f] = _found(ws, "asil/goal-below-hazard")
    assert f.path == "goals.md" and _text(ws, f) == "C" and "HE-1" in f.message
    assert [(r.path, r.message) for r in f.related] == [("hara.md", "HE-1 is ASIL D")]
    _refix(ws, f)
    assert not _found(ws, "asil/goal-below-hazard")


def test_goal_below_an_event_it_lists_under_hazard():
    ws = _ws(events="""\
        ## HE-5: Unintended steering
        - Severity: S3
        - Exposure: E4
        - Controllability: C2
        """, goals=GOAL_D.replace("ASIL: D", "ASIL: B") + "- Hazard: HE-5\n")
    [f] = _found(ws, "asil/goal-below-hazard")
    assert "ASIL C" in f.message and f.fix.edits[0].new_text == "C"


def test_goal_at_or_above_its_events_is_fine():
    ws = _ws(hara=HARA + "| HE-2 | B | S2 | E4 | C2 | B | SG-1 |\n", goals=GOAL_D)
    assert not _found(ws, "asil/goal-below-hazard")


# -- a realistic workspace -------------------------------------------------------------------------------
def test_well_formed_workspace_raises_nothing_from_asil_and_trace():
    ws = Workspace()
    for path in sorted(FIXTURE.glob("*.md")):
        ws.update(str(path), path.read_text(encoding="utf-8"))
    assert len(list(ws.items())) >= 12 and any(d.hara_rows for d in ws.documents.values())
    assert [f for f in _checker().check(ws) if f.rule.startswith(("asil/", "trace/"))] == []


def test_missing_asil_in_plain_style_and_with_crlf_line_endings():
    ws = _ws(a=GOAL_D + "\n### FSR-1: Detect\nThe controller shall detect it.\n\nDerived from: SG-1\nVerified by: TC-1\n")
    [f] = _found(ws, "asil/missing")
    assert _fixed(ws, f).endswith("Verified by: TC-1\nASIL: D\n")
    crlf = _ws(a=(GOAL_D + "\n### FSR-1: Detect\n- Derived from: SG-1\n").replace("\n", "\r\n"))
    [f] = _found(crlf, "asil/missing")
    assert _fixed(crlf, f).endswith("- Derived from: SG-1\r\n- ASIL: D\r\n")


def test_short_rows_and_hostile_values_do_not_break_the_rules():
    rows = "| HE-1 | Only an ID |\n| HE-2 | A | S3 | E4 |\n| HE-3 | B | S3 | E4 | C3 | " + "D" * 5000 + " | SG-1 |\n"
    ws = _ws(hara=HARA + rows, a=GOAL_D + "\n### FSR-1: X\n- ASIL: " + "(" * 3000 + "\n- Derived from: SG-1\n")
    found = [f for f in _checker().check(ws) if f.rule.startswith("asil/")]
    assert {f.rule for f in found} >= {"asil/invalid-value", "asil/incomplete-classification"}
    assert all(len(f.message) < 400 for f in found)
