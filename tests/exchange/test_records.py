"""The neutral records every format is written from: what they read from the workspace."""

from __future__ import annotations

from .conftest import records_of


def test_records_carry_chapters_text_attributes_and_links(wiper):
    by_id = {r.id: r for r in records_of([wiper])}
    fsr = by_id["FSR-10"]
    assert fsr.chapters == ("Rain detection",)
    assert fsr.text == ("The rain sensor function shall report heavy rain within 200 ms\n"
                        "when the drop rate exceeds 40 drops/s.\n\n"
                        "A second paragraph explains the sensor's range & limits <on purpose>.\n\n"
                        "A sub-heading of the item's body.")
    assert fsr.attributes == {"asil": "A", "ftti": "500 ms", "status": "approved",
                              "cites": "ISO 26262-3:2018 §7.4.2\nISO 26262-4:2018 §6.4"}
    assert fsr.links == {"derived-from": ["SG-10"], "verified-by": ["TC-10"]}
    assert by_id["FSR-11"].chapters == ("Motor control",)
    assert by_id["FSR-11"].attributes["rationale"] == "A stopped wiper is worse than a wiper that runs without need."
    assert by_id["FSR-11"].links["derived-from"] == ["SG-10", "SG-99"]


def test_hara_rows_are_records_with_their_classes_and_goal(wiper):
    by_id = {r.id: r for r in records_of([wiper])}
    row = by_id["HE-10"]
    assert (row.source, row.title, row.category) == ("hara", "Wipers stop in heavy rain", "hazard")
    assert row.attributes == {"severity": "S2", "exposure": "E3", "controllability": "C2", "asil": "A",
                              "situation": "Motorway, night"}
    assert row.links == {"safety-goal": ["SG-10"]}
    assert by_id["HE-11"].links == {}
    assert by_id["FSR-ZH-1"].links == {"derived-from": ["SG-10"]}
