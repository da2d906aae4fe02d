"""The workspace indexes: definitions, references, children, incremental document updates."""

from safereq.workspace import Workspace

GOALS = "## SG-1: Goal\nThe car shall not steer unintentionally.\n- ASIL: D\n"
FSRS = "## FSR-1: Limit\nThe arbiter shall limit torque.\n- ASIL: D\n- Derived from: SG-1, SG-2\n"


def test_references_and_children_across_documents():
    ws = Workspace()
    ws.update("goals.md", GOALS)
    ws.update("fsr.md", FSRS)
    assert ws.item("SG-1").path == "goals.md"
    assert [c.id for c in ws.children("SG-1")] == ["FSR-1"]
    assert [r.path for r in ws.references("SG-2")] == ["fsr.md"]
    assert not ws.is_defined("SG-2")


def test_updating_a_document_replaces_only_its_contributions():
    ws = Workspace()
    ws.update("goals.md", GOALS)
    ws.update("fsr.md", FSRS)
    ws.update("goals.md", GOALS + "## SG-2: Second\nThe car shall warn.\n- ASIL: B\n")
    assert ws.is_defined("SG-2")
    ws.update("fsr.md", FSRS.replace("SG-1, SG-2", "SG-2"))
    assert ws.children("SG-1") == []
    assert [c.id for c in ws.children("SG-2")] == ["FSR-1"]
    ws.remove("goals.md")
    assert not ws.is_defined("SG-1") and ws.references("SG-2")


def test_duplicates_are_kept_in_order():
    ws = Workspace()
    ws.update("b.md", GOALS)
    ws.update("a.md", GOALS)
    assert [i.path for i in ws.definitions("SG-1")] == ["a.md", "b.md"]


def test_hara_safety_goal_column_is_a_reference():
    ws = Workspace()
    ws.update("hara.md", "| ID | S | E | C | ASIL | Safety goal |\n|---|---|---|---|---|---|\n| HE-1 | S3 | E4 | C3 | D | SG-1 |\n")
    (ref,) = ws.references("SG-1")
    assert ref.key == "safety-goal" and ref.event_id == "HE-1"
    assert ws.is_defined("HE-1")


def test_an_edit_above_moves_items_and_references_without_replacing_them():
    """Inserting lines moves later items in place: the index keeps the same objects, whose positions and
    whose references' positions are those of a fresh parse."""
    ws = Workspace()
    ws.update("fsr.md", GOALS + FSRS)
    item, (ref,) = ws.item("FSR-1"), ws.references("SG-2")
    ws.update("fsr.md", "# Requirements\n\nIntro.\n" + GOALS + FSRS)
    fresh = Workspace()
    fresh.update("fsr.md", ws.documents["fsr.md"].text)
    assert ws.item("FSR-1") is item and ws.references("SG-2")[0] is ref
    assert item.heading_span == fresh.item("FSR-1").heading_span and item.end_line == fresh.item("FSR-1").end_line
    assert ref.link.span == fresh.references("SG-2")[0].link.span == (9, 22, 9, 26)
    assert [a.value_span for a in item.attributes] == [a.value_span for a in fresh.item("FSR-1").attributes]
