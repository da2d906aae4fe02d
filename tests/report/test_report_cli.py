"""``safereq report`` outputs and ``safereq check --coverage-min``."""

from __future__ import annotations

import csv
import json

from safereq.cli.main import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_json_has_the_figures_holes_and_matrix(brake, tmp_path, capsys):
    status, _out, err = run(capsys, "report", "brake", "-o", str(tmp_path / "r"), "--format", "json")
    assert status == 0 and "3 holes" in err
    body = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    fsr = [r for r in body["coverage"] if (r["by"], r["group"], r["measure"]) == ("kind", "FSR", "refined")]
    assert fsr == [{"by": "kind", "group": "FSR", "measure": "refined", "covered": 2, "total": 3,
                    "percent": 66.7, "holes": ["FSR-3"]}]
    assert [h["id"] for h in body["holes"]] == ["HE-20", "FSR-3", "TSR-20"]
    matrix = {m["id"]: m for m in body["matrix"]}
    assert matrix["FSR-1"]["children"] == ["TSR-1", "TSR-2"] and matrix["FSR-1"]["verified_by"] == ["TC-1"]
    assert matrix["HE-1"]["safety_goals"] == ["SG-1"] and matrix["TSR-20"]["holes"] == ["verified"]
    # Hazards first, then goals, requirements by level, then verification.
    kinds = [m["kind"] for m in body["matrix"]]
    assert kinds.index("HE") < kinds.index("SG") < kinds.index("FSR") < kinds.index("TSR") < kinds.index("TC")


def test_csv_writes_three_tables(brake, tmp_path, capsys):
    assert run(capsys, "report", "brake", "-o", str(tmp_path / "r"), "--format", "csv")[0] == 0
    matrix = list(csv.DictReader((tmp_path / "r" / "matrix.csv").open(encoding="utf-8")))
    assert {r["id"]: r["children"] for r in matrix}["FSR-1"] == "TSR-1, TSR-2"
    holes = list(csv.DictReader((tmp_path / "r" / "holes.csv").open(encoding="utf-8")))
    assert [h["id"] for h in holes] == ["HE-20", "FSR-3", "TSR-20"]
    assert (tmp_path / "r" / "coverage.csv").read_text(encoding="utf-8").startswith("by,group,measure")


def test_xlsx_has_a_sheet_per_table(brake, tmp_path, capsys):
    from openpyxl import load_workbook

    assert run(capsys, "report", "brake", "-o", str(tmp_path / "r"), "--format", "xlsx")[0] == 0
    book = load_workbook(tmp_path / "r" / "report.xlsx")
    assert book.sheetnames == ["Coverage", "Holes", "Matrix"]
    holes = [row[1] for row in book["Holes"].iter_rows(min_row=2, values_only=True)]
    assert holes == ["HE-20", "FSR-3", "TSR-20"]
    header = [c.value for c in book["Matrix"][1]]
    assert header[:4] == ["id", "kind", "category", "asil"]


def test_html_is_one_self_contained_file(brake, tmp_path, capsys):
    assert run(capsys, "report", "brake", "-o", str(tmp_path / "r"))[0] == 0
    page = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 3  # one trace graph per safety goal
    assert "src=" not in page and "<link" not in page and "http" not in page.split("<svg")[0]
    assert "Keep a parked vehicle &lt;standing&gt;" in page and "<standing>" not in page  # escaped, SVG too


def test_check_coverage_gate(brake, capsys):
    assert run(capsys, "check", "-q", "brake")[0] == 0
    assert run(capsys, "check", "-q", "brake", "--coverage-min", "SG=100", "--coverage-min", "TSR.verified=75")[0] == 0
    status, _out, err = run(capsys, "check", "-q", "brake", "--coverage-min", "SG=100", "--coverage-min",
                            "FSR.refined=90")
    assert status == 1
    assert err.strip() == "safereq: coverage FSR.refined is 66.7% (2/3), below 90%: FSR-3"


def test_a_bad_gate_is_a_usage_error(brake, capsys):
    import pytest

    with pytest.raises(SystemExit) as exited:
        main(["check", "brake", "--coverage-min", "FSR.nope=90"])
    assert exited.value.code == 2 and "expected KIND[.MEASURE]=PERCENT" in capsys.readouterr().err


def test_report_into_an_unwritable_place_is_a_usage_error(brake, capsys):
    (brake.parent / "file").write_text("x", encoding="utf-8")
    status, _out, err = run(capsys, "report", "brake", "-o", str(brake.parent / "file" / "sub"))
    assert status == 2 and err.startswith("safereq: cannot write into")


def test_a_deep_chain_is_cut_and_says_so(tmp_path, monkeypatch, capsys):
    lines = ["# Chain", "", "## SG-1: Top", "The system shall stay safe.", "", "- ASIL: B", ""]
    parent = "SG-1"
    for k in range(1, 13):
        lines += [f"## FSR-{k}: Level {k}", "The function shall hold.", "", "- ASIL: B", f"- Derived from: {parent}", ""]
        parent = f"FSR-{k}"
    (tmp_path / "chain.md").write_text("\n".join(lines), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "report", "chain.md", "-o", "r")[0] == 0
    page = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    svg = page[page.index("<svg"):page.index("</svg>")]
    assert "FSR-8" in svg and "FSR-9" not in svg and "cut at 120 items / 8 levels" in svg


def test_at_most_max_graphs_are_drawn_goals_with_holes_first(brake, tmp_path, monkeypatch, capsys):
    from safereq.report.html import page as page_module

    monkeypatch.setattr(page_module, "MAX_GRAPHS", 2)
    # SG-20 (ASIL C) loses its only child: a hole, so it is drawn before SG-2 (also C).
    text = (brake / "parking.md").read_text(encoding="utf-8")
    (brake / "parking.md").write_text(text.replace("- Derived from: SG-20", "- Derived from: SG-99"), encoding="utf-8")
    assert run(capsys, "report", "brake", "-o", str(tmp_path / "r"))[0] == 0
    html = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    assert html.count("<svg") == 2
    assert 'id="graph-SG-1"' in html and 'id="graph-SG-20"' in html and 'id="graph-SG-2"' not in html
    assert "1 more safety goals are not drawn" in html
