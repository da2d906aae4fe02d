"""Traceability coverage of a workspace: which items are refined, verified and covered, per kind and ASIL.

Measures (each counts items of one kind; an item is *covered* by a measure or is a *hole*):

- ``covered``  hazardous events (HARA rows and hazard items) with a safety goal: the row's goal column, or a
  goal whose ``Hazard`` names the event. Events rated QM need no safety goal and are not counted.
- ``refined``  safety goals with a functional or technical safety requirement derived from them, functional
  safety requirements with a technical (hardware, software) one: the kinds and child kinds of
  rules/coverage.yaml.
- ``verified`` safety requirements and requirements with at least one "Verified by" link to a defined item.
- ``passed``   the same items whose verification items all passed on the last run: measured only when test
  results are given (report/test_evidence.py), so a requirement without a verification item fails it too.

A CI gate names a kind and optionally a measure: ``FSR=90`` (every measure of FSR), ``TSR.verified=100``,
``all.verified=80`` (the measure over all kinds). It is computed from the exchange records, so the report,
the export and the gate read the same graph.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from ..data import load_rules_yaml
from ..exchange.records import DocumentRecord, Record, all_records
from ..workspace.asil import parse_asil

MEASURES = ("covered", "refined", "verified", "passed")
_DESCRIPTION = {
    "covered": "hazardous events with a safety goal",
    "refined": "items with a child requirement",
    "verified": "requirements with a verification item",
    "passed": "requirements whose verification items all passed",
}
ASIL_ORDER = ("D", "C", "B", "A", "QM", "none")
_CATEGORY_ORDER = ("hazard", "safety-goal", "safety-requirement", "requirement", "verification", "claim")


def asil_of(record: Record) -> str:
    """The record's ASIL level (the decomposed level ``B`` for ``B(D)``), ``QM``, or ``none``."""
    value = parse_asil(record.attributes.get("asil", ""))
    return str(value.level) if value is not None else "none"


@dataclass(slots=True)
class Row:
    """Coverage of one measure over a group (a kind, an ASIL, or everything)."""

    group: str
    measure: str
    covered: int = 0
    total: int = 0
    holes: list[str] = field(default_factory=list)

    @property
    def percent(self) -> float:
        return 100.0 if self.total == 0 else round(100.0 * self.covered / self.total, 1)


@dataclass(slots=True)
class Hole:
    record: Record
    measure: str
    asil: str

    @property
    def sort_key(self) -> tuple:
        """Most severe first: by ASIL (D first), then hazards, goals, requirements, then by ID."""
        return (ASIL_ORDER.index(self.asil), _category_rank(self.record.category), self.record.kind,
                _natural(self.record.id), self.measure)


@dataclass(slots=True)
class Coverage:
    by_kind: list[Row]
    by_asil: list[Row]
    overall: list[Row]
    holes: list[Hole]
    records: list[Record]
    children: dict[str, list[str]]
    verified_by: dict[str, list[str]]
    goals_of: dict[str, list[str]]
    events_of: dict[str, list[str]] = field(default_factory=dict)  # goal → the events it covers

    def row(self, group: str, measure: str) -> Row | None:
        for row in [*self.by_kind, *self.overall]:
            if row.group == group and row.measure == measure:
                return row
        return None


def _measures(record: Record, rules: dict, results: bool) -> list[str]:
    out = []
    if record.category in rules["covered"]:
        out.append("covered")
    if record.kind in rules["refined"]:
        out.append("refined")
    if record.category in rules["verified"]:
        out.append("verified")
        if results:
            out.append("passed")
    return out


def _category_rank(category: str) -> int:
    return _CATEGORY_ORDER.index(category) if category in _CATEGORY_ORDER else len(_CATEGORY_ORDER)


_DIGITS = re.compile(r"(\d+)")


@lru_cache(maxsize=1 << 16)
def _natural(text: str) -> tuple:
    """The sort key of an ID, numbers by value (FSR-2 before FSR-10); kept, as every coverage sorts the
    same IDs several times (the MCP server recomputes it after each change)."""
    return tuple(int(p) if p.isdigit() else p for p in _DIGITS.split(text))


def compute(documents: list[DocumentRecord], results: dict[str, str] | None = None) -> Coverage:
    """Coverage of the records; ``results`` (verification item ID → ``passed``, ``failed``, ``skipped``, the
    test results' statuses) adds the ``passed`` measure."""
    records: list[Record] = []
    seen: set[str] = set()
    for record in all_records(documents):
        if record.id not in seen:  # a duplicate ID counts once, as its first definition
            seen.add(record.id)
            records.append(record)
    rules = load_rules_yaml("coverage.yaml")
    kinds = {r.id: r.kind for r in records}
    children: dict[str, list[str]] = defaultdict(list)
    verified_by: dict[str, list[str]] = defaultdict(list)
    goals_of: dict[str, list[str]] = defaultdict(list)
    for r in records:
        for parent in r.links.get("derived-from", ()):
            if parent != r.id and r.id not in children[parent]:
                children[parent].append(r.id)
        verified_by[r.id] = [t for t in r.links.get("verified-by", ()) if t in kinds]
        for goal in r.links.get("safety-goal", ()):
            if goal in kinds and goal not in goals_of[r.id]:
                goals_of[r.id].append(goal)
        if r.category == "safety-goal":
            for event in r.links.get("hazard", ()):
                if r.id not in goals_of[event]:
                    goals_of[event].append(r.id)
    kind_rows: dict[tuple[str, str], Row] = {}
    asil_rows: dict[tuple[str, str], Row] = {}
    overall: dict[str, Row] = {}
    holes: list[Hole] = []
    for r in sorted(records, key=lambda r: (_category_rank(r.category), r.kind, _natural(r.id))):
        asil = asil_of(r)
        for measure in _measures(r, rules, results is not None):
            if measure == "covered" and asil == "QM":
                continue
            if measure == "covered":
                ok = bool(goals_of.get(r.id))
            elif measure == "refined":
                ok = any(kinds.get(c) in rules["refined"][r.kind] for c in children.get(r.id, ()))
            elif measure == "passed":
                tests = r.links.get("verified-by", ())  # external test cases count: their results are there
                ok = bool(tests) and all((results or {}).get(t) == "passed" for t in tests)
            else:
                ok = bool(verified_by.get(r.id))
            for table, key in ((kind_rows, (r.kind, measure)), (asil_rows, (asil, measure))):
                row = table.setdefault(key, Row(key[0], measure))
                row.total += 1
                row.covered += ok
                if not ok:
                    row.holes.append(r.id)
            row = overall.setdefault(measure, Row("all", measure))
            row.total += 1
            row.covered += ok
            if not ok:
                row.holes.append(r.id)
                holes.append(Hole(r, measure, asil))
    by_asil = sorted(asil_rows.values(), key=lambda row: (MEASURES.index(row.measure), ASIL_ORDER.index(row.group)))
    order = {kind: k for k, kind in enumerate(load_rules_yaml("kinds.yaml")["kinds"])}
    records.sort(key=lambda r: (_category_rank(r.category), order.get(r.kind, len(order)), r.kind, _natural(r.id)))
    by_kind = sorted(kind_rows.values(), key=lambda row: (order.get(row.group, len(order)), row.group,
                                                          MEASURES.index(row.measure)))
    events_of: dict[str, list[str]] = defaultdict(list)
    for event, goals in sorted(goals_of.items(), key=lambda kv: _natural(kv[0])):
        for goal in goals:
            events_of[goal].append(event)
    return Coverage(by_kind, by_asil, [overall[m] for m in MEASURES if m in overall],
                    sorted(holes, key=lambda h: h.sort_key), records, dict(children), dict(verified_by),
                    dict(goals_of), dict(events_of))


def describe(measure: str) -> str:
    return _DESCRIPTION[measure]


@dataclass(frozen=True, slots=True)
class Gate:
    """``KIND[.MEASURE]=PCT``: the least coverage a kind (or ``all``) must reach."""

    kind: str
    measure: str | None
    minimum: float

    @classmethod
    def parse(cls, text: str) -> Gate:
        target, sep, pct = text.partition("=")
        kind, _, measure = target.strip().partition(".")
        try:
            minimum = float(pct.strip().rstrip("%"))
        except ValueError:
            minimum = -1.0
        if not sep or not kind or not 0 <= minimum <= 100 or (measure and measure not in MEASURES):
            raise ValueError(f"expected KIND[.MEASURE]=PERCENT with MEASURE one of {', '.join(MEASURES)} "
                             f"(e.g. SG=100, TSR.verified=90, all.verified=80, FSR.passed=100; passed needs "
                             f"--test-results), got {text!r}")
        return cls(kind, measure or None, minimum)

    def failures(self, coverage: Coverage) -> list[str]:
        """What falls short, one line each; a gate that matches no row is a failure too (a typo passes nothing)."""
        rows = [row for row in (coverage.overall if self.kind == "all" else coverage.by_kind)
                if row.group == self.kind and (self.measure is None or row.measure == self.measure)]
        if not rows:
            what = f"{self.kind}.{self.measure}" if self.measure else self.kind
            return [f"coverage {what}: no such items or measure in the workspace"]
        out = []
        for row in rows:
            if row.percent < self.minimum:
                shown = ", ".join(row.holes[:10]) + (f" and {len(row.holes) - 10} more" if len(row.holes) > 10 else "")
                out.append(f"coverage {row.group}.{row.measure} is {row.percent:g}% ({row.covered}/{row.total}), "
                           f"below {self.minimum:g}%: {shown}")
        return out
