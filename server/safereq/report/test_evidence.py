"""Test results as verification evidence: which verification item each test case is the result of, whether
it passed, and the findings a failed or missing result puts on what it verifies.

A test case names its verification item (exchange/junit.py reads the cases) in one of three ways, tried in
this order: a ``requirements`` / ``TC`` property (``record_property("requirements", "TC-3")``,
``RecordProperty("requirements", "TC-3")``); the configuration's ``test-id-pattern``, a regular expression
whose first group is the ID, searched in ``classname::name``; or, by default, an ID of a verification item
written in the name itself, where ``_`` may stand for ``-`` (``test_TC_3_brake_torque``). Cases that name
none are *unmatched*, and listed.

An item's result: ``failed`` when one of its cases failed (or errored), else ``passed`` when one passed,
else ``skipped`` when all were skipped, else ``not run``. A requirement verified by an item that failed gets
``evidence/failed-test`` on that ``Verified by`` link, and so do the requirements it is derived from, up to
the safety goal (they are in question too); one verified by an item without a passing result gets
``evidence/no-result``. These findings exist only in runs that were given test results.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..checks.findings import Finding, Severity
from ..exchange.junit import TestCase, read_all
from ..model.document import Item
from ..workspace import Workspace

FAILED = "evidence/failed-test"
NO_RESULT = "evidence/no-result"
NOT_RUN = "not run"
_CANDIDATE = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)+")


@dataclass
class Evidence:
    cases: list[TestCase] = field(default_factory=list)
    by_item: dict[str, list[TestCase]] = field(default_factory=dict)
    unmatched: list[TestCase] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)

    def status(self, item_id: str) -> str:
        cases = self.by_item.get(item_id)
        if not cases:
            return NOT_RUN
        if any(c.failed for c in cases):
            return "failed"
        if any(c.status == "passed" for c in cases):
            return "passed"
        return "skipped"

    def statuses(self) -> dict[str, str]:
        return {item_id: self.status(item_id) for item_id in self.by_item}


def verification_ids(ws: Workspace) -> set[str]:
    """The IDs a test case may be the result of: verification items, and every ``Verified by`` target."""
    ids = {item.id for item in ws.items() if ws.category(item) == "verification"}
    ids.update(link.target for item in ws.items() for link in item.links("verified-by") if link.valid)
    return ids


def _named(text: str, known: set[str], folded: dict[str, str]) -> list[str]:
    """The known IDs written in ``text`` (``_`` and ``.`` may stand for ``-``), longest match first."""
    out = []
    for m in _CANDIDATE.finditer(text):
        parts = re.split(r"[-_.]", m.group(0))
        start = 0
        while start < len(parts) - 1:
            for end in range(len(parts), start + 1, -1):
                found = folded.get("-".join(parts[start:end]).upper())
                if found is not None:
                    out.append(found)
                    start = end
                    break
            else:
                start += 1
    return out


def match(cases: Iterable[TestCase], known: set[str], pattern: str | None = None) -> Evidence:
    """Each case mapped to the verification items it names (see the module docstring)."""
    folded = {re.sub(r"[_.]", "-", i).upper(): i for i in known}
    regex = re.compile(pattern) if pattern else None
    evidence = Evidence()
    for case in cases:
        evidence.cases.append(case)
        ids = [folded.get(re.sub(r"[_.]", "-", i).upper(), i) for i in case.ids]
        if not ids and regex is not None:
            ids = [folded.get(re.sub(r"[_.]", "-", m.group(1)).upper(), m.group(1))
                   for m in regex.finditer(case.full_name) if m.group(1)]
        if not ids and regex is None:
            ids = _named(case.full_name, known, folded)
        ids = [i for i in dict.fromkeys(ids) if i in known]
        if not ids:
            evidence.unmatched.append(case)
        for item_id in ids:
            evidence.by_item.setdefault(item_id, []).append(case)
    return evidence


def load(patterns: Iterable[str], root: Path, ws: Workspace, pattern: str | None = None) -> Evidence:
    cases, problems, files = read_all(patterns, root)
    evidence = match(cases, verification_ids(ws), pattern)
    evidence.problems, evidence.files = problems, files
    return evidence


def _why(evidence: Evidence, target: str) -> str:
    status = evidence.status(target)
    cases = evidence.by_item.get(target, [])
    if status == "failed":
        case = next(c for c in cases if c.failed)
        more = f" (and {sum(c.failed for c in cases) - 1} more)" if sum(c.failed for c in cases) > 1 else ""
        return f"{target} failed on the last run: {case.full_name}{more}" + (f": {case.message}" if case.message else "")
    if status == "skipped":
        return f"{target} has no passing result: {cases[0].full_name} was skipped"
    return f"{target} did not run: no test case in the results names it"


def findings(ws: Workspace, evidence: Evidence, severities: Mapping[str, Severity | None]) -> list[Finding]:
    """The evidence findings of the workspace, sorted: on each ``Verified by`` link to an item without a passing
    result, and on the heading of each item the requirement is derived from, transitively."""
    out: list[Finding] = []
    known = verification_ids(ws)
    flagged: set[tuple[str, str, str]] = set()
    for item in ws.items():
        for link in item.links("verified-by"):
            if not link.valid or link.target not in known:
                continue
            status = evidence.status(link.target)
            if status == "passed":
                continue
            rule = FAILED if status == "failed" else NO_RESULT
            severity = severities.get(rule)
            if severity is None:
                continue
            why = _why(evidence, link.target)
            out.append(Finding(rule, severity, f"{item.id} is not verified: {why}", item.path, link.span))
            for ancestor in _ancestors(ws, item):
                key = (ancestor.id, link.target, rule)
                if key in flagged:
                    continue
                flagged.add(key)
                out.append(Finding(rule, severity, f"{ancestor.id} is in question: {item.id}, derived from it, is "
                                                   f"not verified: {why}", ancestor.path, ancestor.id_span))
    return sorted(out, key=Finding.sort_key)


def _ancestors(ws: Workspace, item: Item) -> list[Item]:
    """Every item ``item`` is derived from, directly or not, each once (cycles stop)."""
    out: list[Item] = []
    seen = {item.id}
    todo = [item]
    while todo:
        current = todo.pop()
        for link in ws.parents(current):
            if link.target in seen:
                continue
            seen.add(link.target)
            parent = ws.item(link.target)
            if parent is not None:
                out.append(parent)
                todo.append(parent)
    return out
