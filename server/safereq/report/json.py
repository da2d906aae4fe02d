"""A JSON array of findings, for scripts and other tools.

Each finding: ``path``, ``line``, ``column``, ``end_line``, ``end_column`` (1-based, end exclusive, columns in
code points), ``severity``, ``rule``, ``message``; ``fix`` (its ``title``, whether it is ``safe`` and its
``edits``) when there is one; ``related`` places when there are any. The field set is a public interface:
add fields, never rename them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..checks.findings import Finding, Fix
from ..model.ranges import Span
from . import dumps, one_based


def _position(span: Span) -> dict[str, int]:
    line, col, end_line, end_col = one_based(span)
    return {"line": line, "column": col, "end_line": end_line, "end_column": end_col}


def _fix(fix: Fix) -> dict[str, Any]:
    return {
        "title": fix.title,
        "safe": fix.safe,
        "edits": [{"path": e.path, **_position(e.span), "new_text": e.new_text} for e in fix.edits],
    }


def finding_dict(f: Finding) -> dict[str, Any]:
    out: dict[str, Any] = {"path": f.path, **_position(f.span), "severity": f.severity.label, "rule": f.rule,
                           "message": f.message}
    if f.fix is not None:
        out["fix"] = _fix(f.fix)
    if f.related:
        out["related"] = [{"path": r.path, **_position(r.span), "message": r.message} for r in f.related]
    return out


def render(findings: Iterable[Finding]) -> str:
    records = [finding_dict(f) for f in findings]
    return dumps(records, len(records))
