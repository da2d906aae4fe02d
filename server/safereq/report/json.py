"""A JSON array of findings, for scripts and other tools.

Each finding: ``path``, ``line``, ``column``, ``end_line``, ``end_column`` (1-based, end exclusive, columns in
code points), ``severity``, ``rule``, ``message``; ``fix`` (its ``title``, whether it is ``safe`` and its
``edits``) when there is one; ``related`` places when there are any. The field set is a public interface:
add fields, never rename them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..checks.findings import Finding, Fix, Severity
from ..model.ranges import Span
from . import dumps_array

_LABELS = {severity: severity.label for severity in Severity}


def _place(path: str, span: Span, key: str, value: Any) -> dict[str, Any]:
    """A place and one more field; written out, as a report builds one for every finding, edit and related
    place (tens of thousands)."""
    return {"path": path, "line": span.start_line + 1, "column": span.start_col + 1, "end_line": span.end_line + 1,
            "end_column": span.end_col + 1, key: value}


def _fix(fix: Fix) -> dict[str, Any]:
    return {
        "title": fix.title,
        "safe": fix.safe,
        "edits": [_place(e.path, e.span, "new_text", e.new_text) for e in fix.edits],
    }


def finding_dict(f: Finding) -> dict[str, Any]:
    out = _place(f.path, f.span, "severity", _LABELS[f.severity])
    out["rule"] = f.rule
    out["message"] = f.message
    if f.fixes:
        out["fix"] = _fix(f.fixes[0])
    if f.related:
        out["related"] = [_place(r.path, r.span, "message", r.message) for r in f.related]
    return out


def render(findings: Iterable[Finding]) -> str:
    findings = list(findings)
    return dumps_array(map(finding_dict, findings), len(findings)) + "\n"
