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
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import __version__
from ..exchange.cells import as_text_cells, inert
from ..workspace.atomic import write_atomically
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
    """Every table of the report; ``tests`` and the matrix's ``results`` with test results, ``deviations`` when
    the workspace accepted any."""
    matrix = matrix_rows(coverage)
    out = {"coverage": coverage_rows(coverage), "holes": hole_rows(coverage), "matrix": matrix}
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


def coverage_rows(coverage: Coverage) -> list[dict[str, Any]]:
    return [{"by": by, "group": r.group, "measure": r.measure, "covered": r.covered, "total": r.total,
             "percent": r.percent, "holes": list(r.holes)}
            for by, group in (("all", coverage.overall), ("kind", coverage.by_kind), ("asil", coverage.by_asil))
            for r in group]


def hole_rows(coverage: Coverage) -> list[dict[str, Any]]:
    return [{"asil": h.asil, "id": h.record.id, "kind": h.record.kind, "measure": h.measure,
             "title": h.record.title, "document": h.record.document, "line": h.record.line} for h in coverage.holes]


def matrix_rows(coverage: Coverage) -> list[dict[str, Any]]:
    """One row per item (the longest table: built only by who asks for it)."""
    missing: dict[str, list[str]] = {}
    for h in coverage.holes:
        missing.setdefault(h.record.id, []).append(h.measure)
    return [{"id": r.id, "kind": r.kind, "category": r.category, "asil": asil_of(r), "title": r.title,
             "parents": list(r.links.get("derived-from", ())), "children": coverage.children.get(r.id, []),
             "verified_by": coverage.verified_by.get(r.id, []), "safety_goals": coverage.goals_of.get(r.id, []),
             "holes": missing.get(r.id, []), "document": r.document, "line": r.line} for r in coverage.records]


def _flat(value: Any) -> Any:
    return ", ".join(value) if isinstance(value, list) else value


def write_json(coverage: Coverage, out_dir: Path, deviations: Sequence[DeviationRow] = (),
               evidence: Evidence | None = None, file_name: str = "report.json") -> list[Path]:
    target = out_dir / file_name
    body = {"schema": "safereq-report", "version": 1, "generator": f"safereq {__version__}",
            **tables(coverage, deviations, evidence)}
    write_atomically(target, (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
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
            writer.writerow([inert(_flat(row[c])) for c in columns])
        target = out_dir / f"{name}.csv"
        write_atomically(target, buffer.getvalue().encode("utf-8"))
        written.append(target)
    return written


# The most characters an Excel cell holds.
XLSX_CELL_MAX = 32_767
# What XML 1.0 does not allow in text (openpyxl's own pattern misses U+FFFE, U+FFFF and lone surrogates).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xlsx_cell(value: Any) -> Any:
    """A value as a worksheet may hold it (issue 25, item 11: a control character in a title made openpyxl
    refuse the workbook, an "internal error"): characters XML 1.0 forbids become U+FFFD, text is cut at
    Excel's 32,767 characters; text stays text (see write_xlsx)."""
    if not isinstance(value, str):
        return value
    value = _NOT_XML.sub("\ufffd", value)
    return value if len(value) <= XLSX_CELL_MAX else value[: XLSX_CELL_MAX - 1] + "…"


def write_xlsx(coverage: Coverage, out_dir: Path, deviations: Sequence[DeviationRow] = (),
               evidence: Evidence | None = None, file_name: str = "report.xlsx") -> list[Path]:
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
            sheet.append([_xlsx_cell(_flat(row[c])) for c in columns])
            as_text_cells(sheet[sheet.max_row])  # a title "=HYPERLINK(...)" stays text
        sheet.freeze_panes = "A2"
        sheet.auto_filter.ref = sheet.dimensions
    target = out_dir / file_name
    saved = io.BytesIO()
    book.save(saved)
    write_atomically(target, saved.getvalue())
    return [target]
