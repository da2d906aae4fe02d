"""The report's figures and matrix as data: ``safereq report --format json|csv|xlsx``.

Three tables, the same as the HTML page: ``coverage`` (group, measure, covered, total, percent, holes; the
groups are ``all``, each kind and each ASIL, told apart by ``by``), ``holes`` (most severe first) and
``matrix`` (one row per item). JSON holds all three; CSV writes ``coverage.csv``, ``holes.csv`` and
``matrix.csv``; XLSX one workbook with a sheet each (openpyxl, loaded only for it). A workspace with accepted
deviations adds a fourth table, ``deviations`` (report/deviations.py).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from collections.abc import Sequence
from typing import Any

from .. import __version__
from .coverage import Coverage, asil_of
from .deviations import DeviationRow
from .test_evidence import Evidence

_COVERAGE = ("by", "group", "measure", "covered", "total", "percent", "holes")
_HOLES = ("asil", "id", "kind", "measure", "title", "document", "line")
_MATRIX = ("id", "kind", "category", "asil", "title", "parents", "children", "verified_by", "safety_goals",
           "holes", "document", "line")
_DEVIATIONS = ("item", "rule", "words", "reason", "document", "line", "commit", "author", "date")
_TESTS = ("name", "status", "items", "message", "file")


def tables(coverage: Coverage, deviations: Sequence[DeviationRow] = (),
           evidence: Evidence | None = None) -> dict[str, list[dict[str, Any]]]:
    rows = [{"by": by, "group": r.group, "measure": r.measure, "covered": r.covered, "total": r.total,
             "percent": r.percent, "holes": list(r.holes)}
            for by, group in (("all", coverage.overall), ("kind", coverage.by_kind), ("asil", coverage.by_asil))
            for r in group]
    holes = [{"asil": h.asil, "id": h.record.id, "kind": h.record.kind, "measure": h.measure,
              "title": h.record.title, "document": h.record.document, "line": h.record.line} for h in coverage.holes]
    missing: dict[str, list[str]] = {}
    for h in coverage.holes:
        missing.setdefault(h.record.id, []).append(h.measure)
    matrix = [{"id": r.id, "kind": r.kind, "category": r.category, "asil": asil_of(r), "title": r.title,
               "parents": list(r.links.get("derived-from", ())), "children": coverage.children.get(r.id, []),
               "verified_by": coverage.verified_by.get(r.id, []), "safety_goals": coverage.goals_of.get(r.id, []),
               "holes": missing.get(r.id, []), "document": r.document, "line": r.line} for r in coverage.records]
    out = {"coverage": rows, "holes": holes, "matrix": matrix}
    if evidence is not None:
        for row in matrix:
            row["results"] = [f"{t} {evidence.status(t)}" for t in coverage.verified_by.get(row["id"], [])]
        items: dict[int, list[str]] = {}
        for item_id, cases in evidence.by_item.items():
            for case in cases:
                items.setdefault(id(case), []).append(item_id)
        out["tests"] = [{"name": c.full_name, "status": c.status, "items": sorted(items.get(id(c), [])),
                         "message": c.message, "file": c.file} for c in evidence.cases]
    if deviations:
        out["deviations"] = [{c: getattr(d, c) for c in _DEVIATIONS} for d in deviations]
    return out


def _named(data: dict[str, list[dict[str, Any]]]) -> list[tuple[str, tuple[str, ...]]]:
    """The tables of ``data`` with their columns, in the order they are written."""
    matrix = _MATRIX + ("results",) if data["matrix"] and "results" in data["matrix"][0] else _MATRIX
    named = [("coverage", _COVERAGE), ("holes", _HOLES), ("matrix", matrix), ("deviations", _DEVIATIONS),
             ("tests", _TESTS)]
    return [(name, columns) for name, columns in named if name in data]


def _flat(value: Any) -> Any:
    return ", ".join(value) if isinstance(value, list) else value


def write_json(coverage: Coverage, out_dir: Path, deviations: Sequence[DeviationRow] = (),
               evidence: Evidence | None = None) -> list[Path]:
    target = out_dir / "report.json"
    body = {"schema": "safereq-report", "version": 1, "generator": f"safereq {__version__}",
            **tables(coverage, deviations, evidence)}
    target.write_text(json.dumps(body, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return [target]


def write_csv(coverage: Coverage, out_dir: Path, deviations: Sequence[DeviationRow] = (),
               evidence: Evidence | None = None) -> list[Path]:
    written = []
    data = tables(coverage, deviations, evidence)
    for name, columns in _named(data):
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        for row in data[name]:
            writer.writerow([_flat(row[c]) for c in columns])
        target = out_dir / f"{name}.csv"
        target.write_text(buffer.getvalue(), encoding="utf-8")
        written.append(target)
    return written


def write_xlsx(coverage: Coverage, out_dir: Path, deviations: Sequence[DeviationRow] = (),
               evidence: Evidence | None = None) -> list[Path]:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook()
    book.remove(book.active)
    data = tables(coverage, deviations, evidence)
    for name, columns in _named(data):
        sheet = book.create_sheet(name.capitalize())
        sheet.append(list(columns))
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for row in data[name]:
            sheet.append([_flat(row[c]) for c in columns])
        sheet.freeze_panes = "A2"
        sheet.auto_filter.ref = sheet.dimensions
    target = out_dir / "report.xlsx"
    book.save(target)
    return [target]
