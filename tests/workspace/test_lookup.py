"""What is at a position: IDs in headings and links, ASIL values, S/E/C classes, clause references, HARA cells."""

from __future__ import annotations

import pytest

from safereq.workspace import Workspace
from safereq.workspace.lookup import AsilAt, ClassAt, ClauseAt, IdAt, KeyAt, element_at

TEXT = """# Goals

## SG-1: Avoid a collision

The vehicle shall brake. See ISO 26262-9:2018 §5.4.10.

- ASIL: D
- Hazard: HZ-1
- Severity: S3

| ID | S | E | C | ASIL | Safety goal |
|---|---|---|---|---|---|
| HZ-1 | S3 | E4 | C3 | D | SG-1, SG-2 |
"""


@pytest.fixture(scope="module")
def doc():
    return Workspace().update("/ws/goals.md", TEXT)


def at(doc, needle: str, offset: int = 0, nth: int = 0):
    start = -1
    for _ in range(nth + 1):
        start = TEXT.index(needle, start + 1)
    line = TEXT.count("\n", 0, start)
    col = start - (TEXT.rfind("\n", 0, start) + 1) + offset
    return element_at(doc, line, col)


def test_heading_id_is_a_definition(doc):
    found = at(doc, "SG-1", 1)
    assert isinstance(found, IdAt) and found.id == "SG-1" and found.definition and found.key is None


def test_link_is_a_reference_with_its_key(doc):
    found = at(doc, "HZ-1")
    assert isinstance(found, IdAt) and not found.definition and found.key == "hazard" and found.item.id == "SG-1"


def test_position_just_after_an_id_still_hits_it(doc):
    assert isinstance(at(doc, "HZ-1", 4), IdAt)


def test_values_keys_and_clause_references(doc):
    assert isinstance(at(doc, "D\n"), AsilAt)
    sec = at(doc, "S3")
    assert isinstance(sec, ClassAt) and sec.kind == "severity" and sec.text == "S3"
    assert isinstance(at(doc, "Hazard"), KeyAt)
    clause = at(doc, "26262", 2)
    assert isinstance(clause, ClauseAt) and clause.ref.clause == "5.4.10"


def test_hara_cells(doc):
    row_id = at(doc, "HZ-1", 1, nth=1)
    assert isinstance(row_id, IdAt) and row_id.definition and row_id.row is not None
    goal = at(doc, "SG-2", 1)
    assert isinstance(goal, IdAt) and goal.id == "SG-2" and goal.key == "safety-goal"
    assert isinstance(at(doc, "| D |", 2), AsilAt)
    assert isinstance(at(doc, "E4"), ClassAt)


def test_prose_is_nothing(doc):
    assert at(doc, "vehicle") is None
