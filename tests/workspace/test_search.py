"""Fuzzy item search for workspace symbols."""

from __future__ import annotations

from safereq.workspace import Workspace
from safereq.workspace.search import search_items


def _ws() -> Workspace:
    ws = Workspace()
    ws.update("/ws/a.md", "## FSR-PER-12: Detect degraded camera images\n\n## FSR-PER-2: Fuse radar and camera\n\n"
                          "## SG-1: Avoid a collision with a pedestrian\n")
    return ws


def test_prefix_of_an_id_ranks_first():
    assert [it.id for it in search_items(_ws(), "FSR-PER")] == ["FSR-PER-12", "FSR-PER-2"]


def test_sloppy_title_query():
    assert search_items(_ws(), "pedestrain colision")[0].id == "SG-1"


def test_empty_query_lists_by_id_and_limit_applies():
    ws = _ws()
    assert [it.id for it in search_items(ws, "")] == ["FSR-PER-12", "FSR-PER-2", "SG-1"]
    assert len(search_items(ws, "", limit=1)) == 1
