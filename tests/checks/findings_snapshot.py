"""Findings of a workspace as plain JSON data, to compare the checks' output before and after a refactoring.

Every rule is switched on (also those off by default), paths are made relative to the workspace folder and
each finding is written out in full (message, span, fixes with their edits, related places, tags), so a
snapshot fails on any change of what the checks report.

    python tests/checks/findings_snapshot.py FOLDER OUT.json   # record a snapshot
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from safereq.checks.config import Config
from safereq.checks.engine import Checker
from safereq.checks.findings import Finding
from safereq.checks.registry import rule_infos
from safereq.workspace import Workspace
from safereq.workspace.loader import load


def all_rules_config() -> Config:
    """Every rule on, at its default severity."""
    return Config(rules={rid: "on" for rid in rule_infos()})


def load_workspace(root: Path) -> Workspace:
    ws = Workspace()
    for source in load([root], cwd=root).sources:
        ws.update(source.path, source.text)
    return ws


def _rel(path: str, root: Path) -> str:
    p = Path(path)
    return p.relative_to(root).as_posix() if p.is_absolute() else p.as_posix()


def as_data(findings: list[Finding], root: Path) -> list[dict]:
    """The findings as JSON-ready dicts, with paths relative to ``root``."""
    return [
        {
            "rule": f.rule, "severity": f.severity.label, "message": f.message, "path": _rel(f.path, root),
            "span": list(f.span),
            "fixes": [{"title": fx.title, "safe": fx.safe,
                       "edits": [{"path": _rel(e.path, root), "span": list(e.span), "new_text": e.new_text}
                                 for e in fx.edits]} for fx in f.fixes],
            "related": [{"path": _rel(r.path, root), "span": list(r.span), "message": r.message} for r in f.related],
            "tags": sorted(f.tags),
        }
        for f in findings
    ]


def snapshot(root: Path) -> list[dict]:
    """All findings of the workspace under ``root``, every rule on."""
    root = root.resolve()
    return as_data(Checker(all_rules_config()).check(load_workspace(root)), root)


if __name__ == "__main__":
    folder, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.write_text(json.dumps(snapshot(folder), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{out}: {len(json.loads(out.read_text(encoding='utf-8')))} findings")
