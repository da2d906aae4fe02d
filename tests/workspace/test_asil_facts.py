"""ASIL tables and facts (workspace/asil.py, workspace/facts.py) and the trace graph's precomputed values."""

from __future__ import annotations

from pathlib import Path

import pytest

from safereq.workspace import Workspace
from safereq.workspace.asil import (
    AsilValue, asil_problem, class_suggestion, determine_asil, is_valid_decomposition, judge_decomposition,
    parse_asil,
)
from safereq.workspace.facts import (
    covering_hazards, decomposition_of, explain_asil, hazard_asils, highest_hazard, inherited_asil, row_asil,
    usable_asil,
)
from safereq.workspace.graph import trace_graph

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "trace-brake-workspace"
HARA = "| ID | Hazardous event | S | E | C | ASIL | Safety goal |\n|---|---|---|---|---|---|---|\n"


@pytest.fixture(scope="module")
def brake() -> Workspace:
    ws = Workspace()
    for path in sorted(FIXTURE.glob("*.md")):
        ws.update(path.name, path.read_text(encoding="utf-8"))
    return ws


@pytest.mark.parametrize(("s", "e", "c", "asil"), [
    ("S3", "E4", "C3", "D"), ("S3", "E4", "C2", "C"), ("S2", "E4", "C2", "B"), ("S1", "E4", "C2", "A"),
    ("S3", "E2", "C1", "QM"), ("S0", "E4", "C3", "QM"), ("S3", "E0", "C3", "QM"), ("s3", "e4", "c3", "D"),
    ("S4", "E4", "C3", None), ("3", "E4", "C3", None),
])
def test_determination_follows_the_sum_of_the_classes(s, e, c, asil):
    assert determine_asil(s, e, c) == asil


def test_every_s_e_c_combination_matches_the_sum_rule():
    names = ["QM"] * 7 + ["A", "B", "C", "D"]
    for s in range(1, 4):
        for e in range(1, 5):
            for c in range(1, 4):
                assert determine_asil(f"S{s}", f"E{e}", f"C{c}") == names[s + e + c], (s, e, c)


def test_asil_values_and_their_problems():
    assert parse_asil("ASIL B(D)") == AsilValue("B", "D") and parse_asil("qm") == AsilValue("QM")
    assert parse_asil("B(D)") is parse_asil("B(D)")  # memoised, so the graph's value comparisons are cheap
    assert asil_problem("D") is None and asil_problem("QM(B)") is None
    assert asil_problem("") == "no value"
    assert "not an ASIL" in asil_problem("SIL 3")
    assert "cannot be higher" in asil_problem("D(B)")


def test_class_suggestions():
    assert class_suggestion("severity", "3") == ("S3", True)
    assert class_suggestion("controllability", "C2 (normally controllable)") == ("C2", False)
    assert class_suggestion("exposure", "5") is None and class_suggestion("severity", "high") is None


@pytest.mark.parametrize(("parent", "members", "inherited", "status", "missing"), [
    ("D", ["B", "B"], False, "valid", ()),
    ("D", ["C", "A", "A"], False, "valid", ()),
    ("D", ["D", "QM"], False, "valid", ()),
    ("B", ["A", "A"], False, "valid", ()),
    ("B", ["QM"], True, "valid", ()),  # B(D) parent: an inheriting B(D) child plus QM(D)
    ("D", ["B"], False, "incomplete", ("B",)),
    ("D", ["C"], False, "incomplete", ("A",)),
    ("D", ["QM"], False, "incomplete", ("D",)),
    ("C", ["A"], False, "incomplete", ("B",)),
    ("D", ["B", "A"], False, "invalid", ()),
    ("A", ["B", "QM"], False, "invalid", ()),
    ("QM", ["QM"], False, "invalid", ()),
])
def test_judging_decompositions(parent, members, inherited, status, missing):
    verdict = judge_decomposition(parent, members, inherited_partner=inherited)
    assert (verdict.status, verdict.missing) == (status, missing)
    if not inherited and len(members) == 2:
        assert is_valid_decomposition(parent, members) == (status == "valid")


def test_hazards_of_a_goal_with_where_their_asil_is_written(brake):
    goal = brake.item("SG-1")
    assert hazard_asils(brake, goal) == [("HE-1", "D"), ("HE-2", "B")]
    top = highest_hazard(brake, goal)
    assert top is not None and (top.event_id, top.level, top.path) == ("HE-1", "D", "hara.md")
    line = brake.documents["hara.md"].text.split("\n")[top.span.start_line]
    assert line[top.span.start_col:top.span.end_col] == "D"
    assert [h.event_id for h in covering_hazards(brake, brake.item("SG-2"))] == ["HE-3"]


def test_inherited_values(brake):
    ws = Workspace()
    ws.update("a.md", HARA + "| HE-1 | A | S3 | E4 | C2 | C | SG-1 |\n\n## SG-1: Goal\n\n### FSR-1: R\n- Derived from: SG-1\n"
              "\n### TSR-1: T\n- ASIL: B(D)\n- Derived from: FSR-1\n\n#### SWSR-1: S\n- Derived from: TSR-1\n"
              "\n## SG-2: Classified\n- Severity: S2\n- Exposure: E4\n- Controllability: C3\n")
    assert inherited_asil(ws, ws.item("SG-1")) == AsilValue("C")
    assert inherited_asil(ws, ws.item("FSR-1")) is None  # its parent states no ASIL
    assert inherited_asil(ws, ws.item("SWSR-1")) == AsilValue("B", "D")
    assert inherited_asil(ws, ws.item("SG-2")) == AsilValue("C")
    assert inherited_asil(brake, brake.item("TSR-3")) == AsilValue("C")


def test_decomposition_of_the_brake_workspace(brake):
    d = decomposition_of(brake, brake.item("FSR-1"))
    assert d is not None and d.verdict.status == "valid" and d.scheme() == "B(D)+B(D)"
    assert [m.id for m, _v in d.members] == ["TSR-1", "TSR-2"]
    assert decomposition_of(brake, brake.item("TSR-2")) is None  # SWSR-1 inherits B(D), it does not decompose
    assert decomposition_of(brake, brake.item("SG-1")) is None


def test_usable_values_and_row_asils():
    ws = Workspace()
    ws.update("a.md", "## FSR-1: R\n- ASIL: D(B)\n\n## FSR-2: S\n- ASIL: B(D)\n\n" + HARA
              + "| HE-1 | A | S3 | E4 | C2 | ? | |\n| HE-2 | B | S3 | E4 | C2 | A | |\n| HE-3 | C | S3 | E4 | | | |\n")
    assert usable_asil(ws.item("FSR-1")) is None and usable_asil(ws.item("FSR-2")) == AsilValue("B", "D")
    rows = ws.documents["a.md"].hara_rows
    assert [row_asil(r) for r in rows] == ["C", "A", None]  # unreadable cell: S/E/C decide


def test_trace_graph_matches_the_workspace_indexes(brake):
    graph = trace_graph(brake)
    assert [it.id for it in graph.items] == [it.id for it in brake.items()]
    assert all(graph.first[i] is brake.item(i) for i in graph.first)
    assert graph.defined_ids() == set(brake.all_ids())
    assert graph.asil_by_id["TSR-1"] == AsilValue("B", "D") and graph.asil_by_id["TC-1"] is None
    swsr = graph.per_document("test/swsr", lambda entries, _by_id: [e for e in entries if e.item.id == "SWSR-1"])
    assert [(e.value, e.parent_ids) for e in swsr] == [(AsilValue("B", "D"), ("TSR-2",))]
    assert [it.id for it in graph.decomposed_children()["FSR-1"]] == ["TSR-1", "TSR-2"]
    assert trace_graph(brake) is graph  # unchanged workspace: same graph


def test_explanation_still_lists_stated_inherited_and_hazards(brake):
    assert explain_asil(brake, brake.item("SG-1")).lines == (
        "ASIL D (stated)", "covers hazardous event HE-1 (ASIL D)", "covers hazardous event HE-2 (ASIL B)")
    assert "inherits ASIL D from FSR-1" in explain_asil(brake, brake.item("TSR-1")).lines
