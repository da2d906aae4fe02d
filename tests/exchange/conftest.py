"""A small workspace that exercises what the exchange formats must carry: chapters, multi-line statements,
a HARA table, every link key, free-text attributes, a dangling link and a Chinese document."""

from __future__ import annotations

from pathlib import Path

import pytest

from safereq.exchange.records import Record, collect
from safereq.workspace import Workspace
from safereq.workspace.loader import load

DOCS = {
    "hara.md": """\
# Hazard analysis: wiper control

| ID | Hazardous event | Situation | S | E | C | ASIL | Safety goal |
|---|---|---|---|---|---|---|---|
| HE-10 | Wipers stop in heavy rain | Motorway, night | S2 | E3 | C2 | A | SG-10 |
| HE-11 | Wipers start on a dry screen | Urban | S1 | E4 | C1 | QM | |
""",
    "goals.md": """\
# Safety goals: wiper control

## SG-10: Keep the driver's view clear in rain
The wiper system shall not stop wiping while rain obstructs the driver's view.

- ASIL: A
- Hazard: HE-10
- Safe state: wipers at low speed
""",
    "fsr.md": """\
# Functional safety requirements: wiper control

Intro text that is no item.

## Rain detection

### FSR-10: Detect heavy rain
The rain sensor function shall report heavy rain within 200 ms
when the drop rate exceeds 40 drops/s.

A second paragraph explains the sensor's range & limits <on purpose>.

- ASIL: A
- Derived from: SG-10
- Verified by: TC-10
- FTTI: 500 ms
- Status: approved
- Cites: ISO 26262-3:2018 §7.4.2
- Cites: ISO 26262-4:2018 §6.4

#### Notes
A sub-heading of the item's body.

## Motor control

### FSR-11: Keep wiping after a sensor fault
The wiper control shall keep wiping at low speed when the rain sensor fails.

- ASIL: A
- Derived from: SG-10, SG-99
- Allocated to: body controller
- Rationale: A stopped wiper is worse than a wiper that runs
  without need.
""",
    "tests.md": """\
# Verification

## TC-10: Heavy-rain detection test
Spray 50 drops/s on the sensor; the function shall report heavy rain within 200 ms.
""",
    "zh/要求.md": """\
# 功能安全要求

## FSR-ZH-1: 雨量传感器故障检测
雨量传感器功能应在 100 ms 内报告故障。

- ASIL: A
- 派生自: SG-10
""",
}


@pytest.fixture
def wiper(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "wiper"
    for name, text in DOCS.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return root


def records_of(paths: list[str | Path]) -> list[Record]:
    loaded = load([str(p) for p in paths], cwd=Path.cwd())
    ws = Workspace()
    ws.update_many((s.path, s.text) for s in loaded.sources)
    return [r for doc in collect(ws) for r in doc.records]


def comparable(records: list[Record]) -> dict[str, tuple]:
    """What an export followed by an import must give back, by ID."""
    return {r.id: (r.kind, r.title, r.text, r.source, r.chapters, dict(r.attributes),
                   {k: sorted(v) for k, v in r.links.items() if v}) for r in records}
