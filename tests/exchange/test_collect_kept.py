"""collect() with ``kept``: unchanged documents reuse their records, and the result is what a fresh collect gives."""

from __future__ import annotations

from safereq.exchange.records import collect
from safereq.workspace import Workspace

A = "# A\n\n## SG-1: Goal\nThe car shall stay safe.\n- ASIL: D\n"
B = "# B\n\n## FSR-1: Limit\nThe arbiter shall limit torque.\n- Derived from: SG-1\n"


def _shape(docs):
    return [(d.path, d.title, [(r.id, r.title, r.text, r.line, r.links) for r in d.records]) for d in docs]


def test_kept_records_are_reused_only_for_unchanged_documents():
    ws = Workspace()
    ws.update("a.md", A)
    ws.update("b.md", B)
    kept: dict = {}
    first = collect(ws, kept)
    assert set(kept) == {"a.md", "b.md"}
    ws.update("b.md", B.replace("limit torque", "limit the torque"))
    ws.update("c.md", "# C\n\n## TC-1: Test\nCheck it.\n")
    second = collect(ws, kept)
    assert second[0] is first[0]  # a.md unchanged: the same record
    assert second[1] is not first[1] and "the torque" in second[1].records[0].text
    assert _shape(second) == _shape(collect(ws))
    ws.remove("a.md")
    third = collect(ws, kept)
    assert set(kept) == {"b.md", "c.md"} and _shape(third) == _shape(collect(ws))
