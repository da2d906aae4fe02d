"""Every occurrence of an ID, and renaming it across documents."""

from __future__ import annotations

import pytest

from safereq.model.ranges import Span
from safereq.workspace import Workspace
from safereq.workspace.refactor import RenameError, occurrences, rename_edits


@pytest.fixture
def ws():
    ws = Workspace()
    ws.update("/ws/goals.md", "## SG-1: Goal\n\n- ASIL: D\n\n## SG-2: Other\n")
    ws.update("/ws/reqs.md", "## FSR-1: Req\n\n- Derived from: SG-1, SG-2\n")
    ws.update("/ws/hara.md", "| ID | S | E | C | ASIL | Safety goal |\n|---|---|---|---|---|---|\n"
                             "| HZ-1 | S3 | E4 | C3 | D | SG-1 |\n")
    return ws


def test_occurrences_cover_headings_links_and_hara_cells(ws):
    found = [(o.path, o.span, o.definition) for o in occurrences(ws, "SG-1")]
    assert found == [
        ("/ws/goals.md", Span(0, 3, 0, 7), True),
        ("/ws/hara.md", Span(2, 28, 2, 32), False),
        ("/ws/reqs.md", Span(2, 16, 2, 20), False),
    ]
    assert [o.definition for o in occurrences(ws, "HZ-1")] == [True]


def test_rename_edits(ws):
    edits = rename_edits(ws, "SG-1", " SG-10 ")
    assert {(e.path, e.new_text) for e in edits} == {(p, "SG-10") for p in ("/ws/goals.md", "/ws/hara.md", "/ws/reqs.md")}
    assert rename_edits(ws, "SG-1", "SG-1") == []


@pytest.mark.parametrize("new, message", [
    ("SG-2", "SG-2 is already defined (in /ws/goals.md, line 5)"),
    ("sg-3", "'sg-3' is not an item ID"),
    ("SG", "'SG' is not an item ID"),
])
def test_invalid_renames(ws, new, message):
    with pytest.raises(RenameError, match=message.replace("(", r"\(").replace(")", r"\)")):
        rename_edits(ws, "SG-1", new)


def test_renaming_an_unknown_id(ws):
    with pytest.raises(RenameError, match="neither defined nor linked"):
        rename_edits(ws, "SG-77", "SG-78")
