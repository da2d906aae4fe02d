"""The workspace's answers stay linear when many items share an ID or a link target (issue 25, item 9).
Counted in Python function calls (deterministic), not time: doubling n must not much more than double them.
Before, every ``definitions``/``references``/``children`` call sorted all n entries again, and removing n
items that link to one target filtered its n references once per item."""

from __future__ import annotations

from safereq.workspace import Workspace
from safereq.workspace.trace_view import item_view

from robustness.counting import calls_during

SAME_ID = "## FSR-1: Item 1\n\nThe function shall report the state within 10 ms.\n\n- ASIL: B\n- Derived from: FSR-1\n\n"


def _views(n: int) -> int:
    ws = Workspace()
    ws.update("same.md", "# Same ID\n\n" + SAME_ID * n)
    items = ws.documents["same.md"].items
    return calls_during(lambda: [item_view(ws, item) for item in items])[1]


def _removal(n: int) -> int:
    ws = Workspace()
    ws.update("same.md", "# Same ID\n\n" + SAME_ID * n)
    calls = calls_during(lambda: ws.update("same.md", "# Same ID\n"))[1]
    assert ws.definitions("FSR-1") == [] and ws.references("FSR-1") == []
    return calls


def test_a_view_of_every_item_that_shares_an_id_is_linear():
    assert _views(600) < 2.5 * _views(300)  # before: 4 times


def test_removing_items_that_share_a_link_target_is_linear():
    assert _removal(1200) < 2.5 * _removal(600)


def test_the_remembered_answers_follow_every_change():
    ws = Workspace()
    ws.update("a.md", "# A\n\n" + SAME_ID)
    assert len(ws.definitions("FSR-1")) == 1 and len(ws.children("FSR-1")) == 1
    ws.update("b.md", "# B\n\n" + SAME_ID + "## TC-1: Test\n\nThe test shall pass.\n\n- Verified by: FSR-1\n")
    assert [it.path for it in ws.definitions("FSR-1")] == ["a.md", "b.md"]
    assert len(ws.children("FSR-1")) == 2 and [it.id for it in ws.verifiers("FSR-1")] == ["TC-1"]
    ws.remove("a.md")
    assert [it.path for it in ws.definitions("FSR-1")] == ["b.md"] and len(ws.references("FSR-1")) == 2


def test_related_locations_per_finding_stay_bounded():
    """n duplicates of one ID derived from themselves: each finding points at a bounded number of places
    (the first definition; a cycle's links up to MAX_CHAIN), so the findings are linear in n."""
    from safereq.checks.engine import Checker
    from safereq.checks.families.trace import MAX_CHAIN

    ws = Workspace()
    ws.update("same.md", "# Same ID\n\n" + SAME_ID * 400)
    findings = Checker().check(ws)
    assert sum(f.rule == "trace/duplicate-id" for f in findings) == 399
    assert max(len(f.related) for f in findings) <= MAX_CHAIN
