"""The facts about one item (parents, children, verification, ASIL) and its trace chain as Markdown."""

from __future__ import annotations

import pytest

from safereq.workspace import Workspace
from safereq.workspace.trace_view import MAX_DEPTH, event_view, item_view, trace_markdown, trace_tree

GOALS = """# Goals

## SG-1: Avoid a collision

- ASIL: D
- Hazard: HZ-1
"""
REQS = """# Requirements

## FSR-1: Detect

The function shall detect.

- ASIL: B(D)
- Derived from: SG-1, SG-9
- Verified by: TC-1

## TC-1: Test the detection

Drive towards a dummy.
"""
HARA = """| ID | S | E | C | ASIL | Safety goal |
|---|---|---|---|---|---|
| HZ-1 | S3 | E4 | C3 | D | SG-1 |
"""


@pytest.fixture(scope="module")
def ws():
    ws = Workspace()
    ws.update("/ws/goals.md", GOALS)
    ws.update("/ws/reqs.md", REQS)
    ws.update("/ws/hara.md", HARA)
    return ws


def test_item_view(ws):
    view = item_view(ws, ws.item("FSR-1"))
    assert view.kind_name == "functional safety requirement" and view.category == "safety-requirement"
    assert [(p.id, p.defined) for p in view.parents] == [("SG-1", True), ("SG-9", False)]
    assert [v.id for v in view.verified_by] == ["TC-1"]
    assert view.asil.lines[0].startswith("ASIL B(D): decomposed from ASIL D")
    assert [c.id for c in item_view(ws, ws.item("SG-1")).children] == ["FSR-1"]
    assert [v.id for v in item_view(ws, ws.item("TC-1")).verifies] == ["FSR-1"]


def test_event_view(ws):
    view = event_view(ws, "HZ-1")
    assert view.computed_asil == "D" and view.stated_asil == "D"
    assert [g.id for g in view.goals] == ["SG-1"]
    assert event_view(ws, "HZ-404") is None


def test_trace_markdown(ws):
    text = trace_markdown(ws, "FSR-1")
    assert text.startswith("# Trace of FSR-1\n")
    assert "- derived from: **SG-1**: Avoid a collision (SG, ASIL D)\n  - hazard: **HZ-1** (hazardous event, ASIL D)" in text
    assert "- derived from: **SG-9** — *not defined anywhere*" in text
    assert "- verified by: **TC-1**: Test the detection (TC)" in text
    down = trace_markdown(ws, "HZ-1")
    assert "- safety goal: **SG-1**" in down and "    - verified by: **TC-1**" in down
    with pytest.raises(KeyError):
        trace_markdown(ws, "NOPE-1")


def test_walks_are_cycle_safe_and_bounded():
    ws = Workspace()
    chain = "\n".join(f"## REQ-{i}: Step {i}\n\n- Derived from: REQ-{i + 1}\n" for i in range(30))
    ws.update("/ws/chain.md", chain + "\n## REQ-30: Last\n\n- Derived from: REQ-0\n")
    tree = trace_tree(ws, "REQ-0", "up")
    depth, node = 0, tree
    while node.children and not node.children[0].repeated:
        node, depth = node.children[0], depth + 1
    assert depth == MAX_DEPTH and node.truncated
    small = Workspace()
    small.update("/ws/c.md", "## REQ-1: A\n\n- Derived from: REQ-2\n\n## REQ-2: B\n\n- Derived from: REQ-1\n")
    up = trace_tree(small, "REQ-1", "up")
    assert up.children[0].id == "REQ-2" and up.children[0].children[0].repeated
