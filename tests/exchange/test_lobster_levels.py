"""LOBSTER with one level per kind, the usual ISO 26262 set-up (hazards, goals, FSRs, tests): ``export --to
lobster --kind K`` writes one file per level, and each item keeps its up references to the other levels,
which lobster-report then traces."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from safereq.cli.main import main

BIN = Path(sys.executable).parent

CONF = """\
requirements "Hazardous events" { source: "he.lobster"; }
requirements "Safety goals" { source: "sg.lobster"; trace to: "Hazardous events"; }
requirements "Functional safety requirements" { source: "fsr.lobster"; trace to: "Safety goals"; }
requirements "Tests" { source: "tc.lobster"; trace to: "Functional safety requirements"; }
"""  # the set-up of docs/exchange.md


def test_one_file_per_kind_traces_through_every_level(wiper, tmp_path, capsys):
    fsr = wiper / "fsr.md"  # no dangling link: every message lobster-report gives is then about tracing
    fsr.write_text(fsr.read_text(encoding="utf-8").replace("SG-10, SG-99", "SG-10"), encoding="utf-8")
    for kind in ("HE", "SG", "FSR", "TC"):
        status = main(["export", str(wiper), "--to", "lobster", "--kind", kind, "-o", str(tmp_path / f"{kind.lower()}.lobster")])
        assert status == 0
    err = capsys.readouterr().err
    assert "exported 1 items" in err  # the one test case, alone in its file
    tests = json.loads((tmp_path / "tc.lobster").read_text(encoding="utf-8"))["data"]
    assert [(t["tag"], t["refs"]) for t in tests] == [("req TC-10", ["req FSR-10"])]
    (tmp_path / "lobster.conf").write_text(CONF, encoding="utf-8")
    run = subprocess.run([str(BIN / "lobster-report"), "--lobster-config", "lobster.conf", "--out", "report.lobster"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    levels = {level["name"]: {i["tag"]: i for i in level["items"]}
              for level in json.loads((tmp_path / "report.lobster").read_text(encoding="utf-8"))["levels"]}
    test = levels["Tests"]["req TC-10"]
    assert test["ref_up"] == ["req FSR-10"] and not test["messages"]
    assert levels["Functional safety requirements"]["req FSR-10"]["ref_down"] == ["req TC-10"]
    assert levels["Safety goals"]["req SG-10"]["ref_up"] == ["req HE-10"]


def test_kind_selection_takes_several_kinds_and_names_one_without_items(wiper, tmp_path, capsys):
    status = main(["export", str(wiper), "--to", "json", "--kind", "fsr,TC", "--kind", "XYZ"])
    captured = capsys.readouterr()
    assert status == 0 and "no items of kind XYZ" in captured.err
    ids = {i["id"] for i in json.loads(captured.out)["items"]}
    assert ids == {"FSR-10", "FSR-11", "FSR-ZH-1", "TC-10"}
