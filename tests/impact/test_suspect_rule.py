"""``trace/suspect-link`` in the engine: findings name old and new values, and incremental equals fresh."""

from __future__ import annotations

import random

from safereq.checks import Checker, Config
from safereq.impact.review_state import ReviewState
from safereq.impact.suspect import mark_reviewed, trace_links
from safereq.workspace import Workspace

from .conftest import FSR, GOALS

RULE = "trace/suspect-link"


def workspace(goals: str = GOALS, fsr: str = FSR) -> Workspace:
    ws = Workspace()
    ws.update("goals.md", goals)
    ws.update("fsr.md", fsr)
    return ws


def reviewed_state(ws: Workspace) -> ReviewState:
    state = ReviewState()
    mark_reviewed(ws, state, trace_links(ws))
    return state


def suspect_findings(checker: Checker, ws: Workspace) -> list:
    return [f for f in checker.check(ws) if f.rule == RULE]


def fresh(ws: Workspace, state: ReviewState) -> list:
    again = Workspace()
    for path, doc in ws.documents.items():
        again.update(path, doc.text)
    checker = Checker(Config())
    checker.set_review(state)
    return suspect_findings(checker, again)


def test_no_review_file_means_no_finding():
    ws = workspace(GOALS.replace("- ASIL: C", "- ASIL: D", 1))
    checker = Checker(Config())
    checker.set_review(ReviewState())
    assert suspect_findings(checker, ws) == []


def test_changed_parent_makes_its_childrens_links_suspect_with_old_and_new_values():
    ws = workspace()
    state = reviewed_state(ws)
    checker = Checker(Config())
    checker.set_review(state)
    assert suspect_findings(checker, ws) == []
    ws.update("goals.md", GOALS.replace("- ASIL: C", "- ASIL: D", 1))
    found = suspect_findings(checker, ws)
    assert [(f.path, f.span.start_line) for f in found] == [("fsr.md", 7), ("fsr.md", 15)]
    assert found[0].message == "SG-1 changed since FSR-1 was last reviewed against it: ASIL: C → D"
    assert found[0].related[0].path == "goals.md"
    assert found == fresh(ws, state)


def test_statement_change_is_suspect_and_a_test_follows_its_requirement():
    ws = workspace()
    state = reviewed_state(ws)
    checker = Checker(Config())
    checker.set_review(state)
    checker.check(ws)
    ws.update("fsr.md", FSR.replace("limit the assist torque to 3 Nm", "limit the assist torque to 2 Nm"))
    found = suspect_findings(checker, ws)
    assert len(found) == 1
    assert found[0].message.startswith("FSR-1 changed since its verification TC-1 was last reviewed against it: "
                                       "statement: ")
    assert "3 Nm" in found[0].message and "2 Nm" in found[0].message
    assert found == fresh(ws, state)


def test_title_or_status_changes_are_not_suspect():
    ws = workspace()
    state = reviewed_state(ws)
    checker = Checker(Config())
    checker.set_review(state)
    ws.update("goals.md", GOALS.replace("Avoid unintended steering", "Avoid unwanted steering")
              .replace("- Safe state: steering assist off", "- Safe state: steering assist off\n- Status: approved"))
    assert suspect_findings(checker, ws) == []


def test_random_edits_incremental_equals_fresh():
    rng = random.Random(20261201)
    ws = workspace()
    state = reviewed_state(ws)
    checker = Checker(Config())
    checker.set_review(state)
    checker.check(ws)
    edits = [
        ("goals.md", "- ASIL: C", "- ASIL: D"), ("goals.md", "- ASIL: D", "- ASIL: C"),
        ("goals.md", "# Safety goals\n", "# Safety goals\n\nIntro line.\n"),
        ("goals.md", "\nIntro line.\n", ""),
        ("fsr.md", "3 Nm.", "2 Nm."), ("fsr.md", "2 Nm.", "3 Nm."),
        ("fsr.md", "# Functional safety requirements\n", "# Functional safety requirements\n\n"),
        ("fsr.md", "- Derived from: FSR-2", "- Derived from: FSR-2, SG-2"),
        ("fsr.md", "- Derived from: FSR-2, SG-2", "- Derived from: FSR-2"),
        ("goals.md", "steering assist off", "assist limited"),
        ("goals.md", "assist limited", "steering assist off"),
        ("fsr.md", "## FSR-2: Monitor torque", "## FSR-7: Monitor torque"),
        ("fsr.md", "## FSR-7: Monitor torque", "## FSR-2: Monitor torque"),
    ]
    for step in range(120):
        path, old, new = rng.choice(edits)
        text = ws.documents[path].text
        if old in text:
            ws.update(path, text.replace(old, new, 1))
        if step % 3 == 0:
            assert suspect_findings(checker, ws) == fresh(ws, state), step
    assert suspect_findings(checker, ws) == fresh(ws, state)
