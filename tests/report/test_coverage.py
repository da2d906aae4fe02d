"""Coverage figures: what counts as covered, refined and verified, per kind and ASIL; the holes; the gate."""

from __future__ import annotations

import pytest

from safereq.report.coverage import Gate

from .conftest import coverage_of


def _rows(rows):
    return {(r.group, r.measure): (r.covered, r.total, r.holes) for r in rows}


def test_figures_per_kind(brake):
    by_kind = _rows(coverage_of(brake).by_kind)
    assert by_kind[("HE", "covered")] == (3, 4, ["HE-20"])  # HE-4 is QM: needs no goal, not counted
    # SG-20 has only a TSR child (TSR counts for goals); FSR-3 has no child at all.
    assert by_kind[("SG", "refined")] == (3, 3, [])
    assert by_kind[("FSR", "refined")] == (2, 3, ["FSR-3"])
    assert by_kind[("TSR", "verified")] == (3, 4, ["TSR-20"])
    assert ("TSR", "refined") not in by_kind  # technical requirements are leaves for "refined"
    assert ("TC", "verified") not in by_kind


def test_figures_per_asil_and_overall(brake):
    coverage = coverage_of(brake)
    by_asil = _rows(coverage.by_asil)
    assert by_asil[("C", "covered")] == (1, 2, ["HE-20"])
    assert by_asil[("B", "verified")][1] == 3  # B(D) counts as its decomposed level B
    overall = {r.measure: r.percent for r in coverage.overall}
    assert overall == {"covered": 75.0, "refined": 83.3, "verified": 87.5}


def test_holes_are_sorted_most_severe_first(brake):
    holes = [(h.asil, h.record.id, h.measure) for h in coverage_of(brake).holes]
    assert holes == [("C", "HE-20", "covered"), ("C", "FSR-3", "refined"), ("C", "TSR-20", "verified")]


def test_a_goal_covers_an_event_through_its_hazard_link(brake):
    text = (brake / "parking.md").read_text(encoding="utf-8")
    (brake / "parking.md").write_text(text.replace("- ASIL: C\n", "- ASIL: C\n- Hazard: HE-20\n", 1), encoding="utf-8")
    assert coverage_of(brake).holes[0].record.id == "FSR-3"


@pytest.mark.parametrize("text, failing", [
    ("SG=100", []),
    ("FSR=90", ["coverage FSR.refined is 66.7% (2/3), below 90%: FSR-3"]),
    ("TSR.verified=75", []),
    ("all.covered=80", ["coverage all.covered is 75% (3/4), below 80%: HE-20"]),
    ("XYZ=10", ["coverage XYZ: no such items or measure in the workspace"]),
])
def test_gates(brake, text, failing):
    assert Gate.parse(text).failures(coverage_of(brake)) == failing


@pytest.mark.parametrize("text", ["FSR", "FSR=", "FSR=101", "FSR.nope=50", "=50", "FSR=abc"])
def test_bad_gates_are_refused(text):
    with pytest.raises(ValueError):
        Gate.parse(text)
