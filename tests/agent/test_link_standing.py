"""The child's standing among its own document's items under the parent's words (link_features.standing and
the `standing` / `standing_rank` signals): a parent whose words every item of the child's document shares
ties the child no more than its neighbours; a parent whose rare words only this child holds picks it out."""

from __future__ import annotations

from textwrap import dedent

from safereq.agent.item.context import workspace_view
from safereq.agent.retrieval.link_features import Bm25, link_terms, standing
from safereq.agent.tasks.linking import candidates
from safereq.workspace import Workspace

TEXTS = {
    "P-generic": "The controller shall process every command.",
    "P-watchdog": "The controller shall strobe the watchdog timer.",
    "C-1": "The controller dispatches each command and strobes the watchdog timer.",
    "C-2": "The controller queues each command.",
    "C-3": "The controller checks each command length.",
    "C-4": "The controller logs each command.",
}
ROW = ["C-1", "C-2", "C-3", "C-4"]


def test_a_parent_whose_rare_words_only_this_child_holds_picks_it_out():
    bm25 = Bm25(TEXTS, link_terms)
    z_watchdog, rank_watchdog = standing(bm25, "P-watchdog", "C-1", ROW)
    z_generic, rank_generic = standing(bm25, "P-generic", "C-1", ROW)
    assert rank_watchdog == 1.0 and z_watchdog > 0.5
    assert z_generic < z_watchdog  # "controller" and "command" are in every item of the row
    assert rank_generic < 1.0  # the longer C-1 is no better than its shorter neighbours on the shared words


def test_a_child_that_shares_no_word_with_the_parent_stands_nowhere():
    bm25 = Bm25({**TEXTS, "P-other": "The heater shall warm the cabin."}, link_terms)
    assert standing(bm25, "P-other", "C-2", ROW) == (0.0, 0.0)
    assert standing(bm25, "P-watchdog", "C-1", ["C-1"]) == (0.0, 0.0)  # alone in its document: nothing to compare


HIGH = """\
# High

## SG-1: Command processing
The controller shall process every command.

## SG-2: Watchdog
The controller shall strobe the watchdog timer.
"""

LOW = """\
# Low

## FSR-1: Dispatch
The controller dispatches each command and strobes the watchdog timer.

## FSR-2: Queue
The controller queues each command.

- Derived from: SG-1

## FSR-3: Length
The controller checks each command length.

- Derived from: SG-1

## FSR-4: Log
The controller logs each command.
"""


def test_the_signal_reaches_the_candidates_for_parents_and_for_children():
    ws = Workspace()
    ws.update("high.md", dedent(HIGH))
    ws.update("low.md", dedent(LOW))
    up = {c.item.id: c.f for c in candidates(workspace_view(ws, ws.item("FSR-1")), "parent")}
    assert up["SG-2"]["standing"] > up["SG-1"]["standing"]
    assert up["SG-2"]["standing_rank"] == 1.0 > up["SG-1"]["standing_rank"]
    down = {c.item.id: c.f for c in candidates(workspace_view(ws, ws.item("SG-2")), "child")}
    assert down["FSR-1"]["standing_rank"] == 1.0 and down["FSR-1"]["standing"] > 0
    assert down["FSR-4"]["standing"] < 0 and down["FSR-4"]["standing_rank"] < 1.0  # shares only "controller"


def test_the_reason_says_when_the_parents_words_single_this_child_out():
    from safereq.agent.tasks.linking import rank_links

    ws = Workspace()
    ws.update("high.md", dedent(HIGH))
    ws.update("low.md", dedent(LOW))
    ranked = {s.item.id: s.reason for s in rank_links(workspace_view(ws, ws.item("FSR-1")), "parent", limit=None,
                                                        abstain=False)}
    assert "SG-2's words fit this one best" in ranked["SG-2"]
    assert "fit this one best" not in ranked["SG-1"]
