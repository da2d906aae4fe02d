"""What completion may offer: IDs by link key, attribute keys, ASIL values with valid decompositions, S/E/C
classes and clause references."""

from __future__ import annotations

import pytest

from safereq.workspace import Workspace
from safereq.workspace.candidates import (
    asil_candidates,
    attribute_key_candidates,
    class_candidates,
    clause_candidates,
    id_candidates,
    partial_clause_ref,
)


@pytest.fixture(scope="module")
def ws():
    ws = Workspace()
    ws.update("/ws/a.md", """## SG-1: Avoid a collision

- ASIL: C

## FSR-1: Detect pedestrians

- ASIL: B(C)
- Derived from: SG-1

## FSR-2: Confirm

- Derived from: FSR-1
- Severity: S3
- Exposure: E4
- Controllability: C2

## TC-1: Track test
""")
    return ws


def test_ids_for_derived_from_rank_prefix_matches_first(ws):
    labels = [c.label for c in id_candidates(ws, "derived-from", "FSR", None)]
    assert labels[:2] == ["FSR-1", "FSR-2"] and "TC-1" not in labels  # verification items do not derive
    mine = [c.label for c in id_candidates(ws, "derived-from", "", ws.item("FSR-2"))]
    assert "FSR-2" not in mine and "FSR-1" not in mine  # itself, and what it already links
    assert [c.label for c in id_candidates(ws, "verified-by", "", ws.item("FSR-1"))] == ["TC-1"]
    detail = id_candidates(ws, "derived-from", "sg", None)[0]
    assert (detail.label, detail.detail) == ("SG-1", "Avoid a collision · ASIL C")


def test_asil_candidates_under_a_decomposed_parent(ws):
    found = asil_candidates(ws, ws.item("FSR-2"))
    assert found[0].label == "C" and found[0].preferred and "S/E/C S3/E4/C2" in found[0].detail
    labels = [c.label for c in found]
    assert labels[1] == "B(C)" and "A(C)" in labels and "QM(C)" in labels
    assert "C(C)" not in labels  # B(C) decomposes into A(C)+A(C) or B(C)+QM(C) only
    assert {"QM", "A", "B", "D"} <= set(labels) and len(labels) == len(set(labels))


def test_attribute_keys_missing_first_with_labels(ws):
    keys = attribute_key_candidates(ws.item("FSR-1"))
    labels = [c.label for c in keys]
    assert labels.index("ASIL") > labels.index("Hazard")  # FSR-1 already has an ASIL
    assert "FTTI" in labels and keys[0].text.endswith(": ")
    zh = [c.label for c in attribute_key_candidates(ws.item("FSR-1"), "zh")]
    assert "派生自" in zh


def test_classes():
    assert [c.label for c in class_candidates("exposure")] == ["E0", "E1", "E2", "E3", "E4"]


def test_partial_clause_references():
    assert partial_clause_ref("see ISO 26262-9:2018 §5.4") == (4, "ISO 26262-9:2018 §5.4")
    assert partial_clause_ref("Cites: ISO/PAS 88") == (7, "ISO/PAS 88")
    assert partial_clause_ref("the ISOLATION") is None
    assert partial_clause_ref("(ISO 26262") == (1, "ISO 26262")
    assert partial_clause_ref("UN R157 §5.1") == (0, "UN R157 §5.1")
    found, cut = clause_candidates("ISO 26262-9 5.4.1")
    assert not cut and [c.label for c in found] == ["ISO 26262-9:2018 §5.4.10", "ISO 26262-9:2018 §5.4.11"]
    many, cut = clause_candidates("ISO", limit=5)
    assert cut and len(many) == 5
