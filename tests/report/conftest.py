"""The brake workspace of tests/fixtures plus a document with holes of every measure."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BRAKE = ROOT / "tests" / "fixtures" / "trace-brake-workspace"

HOLES = """\
# Parking brake

| ID | Hazardous event | S | E | C | ASIL | Safety goal |
|---|---|---|---|---|---|---|
| HE-20 | Parking brake releases on a slope | S3 | E3 | C3 | C | |

## SG-20: Keep a parked vehicle <standing>
The parking brake shall not release without a driver request.

- ASIL: C

## TSR-20: Hold the clamp force
The parking brake controller shall hold the clamp force while the vehicle is parked.

- ASIL: C
- Derived from: SG-20
"""


@pytest.fixture
def brake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "brake"
    shutil.copytree(BRAKE, root)
    (root / "parking.md").write_text(HOLES, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return root


def coverage_of(path: Path):
    from safereq.exchange.records import collect
    from safereq.report.coverage import compute
    from safereq.workspace import Workspace
    from safereq.workspace.loader import load

    loaded = load([str(path)])
    ws = Workspace()
    ws.update_many((s.path, s.text) for s in loaded.sources)
    return compute(collect(ws))
