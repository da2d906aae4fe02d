"""The engine's contracts, which let it reuse workspace-wide findings after most edits (checks/engine/checker.py),
held by every workspace-scope rule on the snapshot workspaces:

- a workspace-scope rule does not read statement text: rewording every statement leaves its findings as
  they were (the engine relies on it to keep them after a keystroke in a statement);
- a workspace-scope finding keeps positions out of its message: moving every item down by a line changes
  its spans only, never its message (the engine moves such findings along line changes);
- an item function registered with ``topics`` reports only on items that have one of them (the item
  dispatch, checks/engine/dispatch.py, skips it elsewhere).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from safereq.checks import Checker, Config
from safereq.checks.registry import checks, rule_infos
from safereq.workspace import Workspace

from .findings_snapshot import load_workspace

ROOT = Path(__file__).resolve().parents[1]
DEFECTS = ROOT / "checks" / "defects-workspace"  # every workspace-scope rule reports there
WORKSPACES = [DEFECTS, ROOT / "fixtures" / "trace-brake-workspace"]
WORKSPACE_RULES = {rid for rid, c in checks().items() if c.scope == "workspace"}


def _all_on() -> Checker:
    return Checker(Config(rules={rid: "on" for rid in rule_infos()}))


def _rebuilt(ws: Workspace, edit) -> Workspace:
    out = Workspace()
    for path, doc in ws.documents.items():
        out.update(path, edit(doc))
    return out


def _reworded(doc) -> str:
    """Every statement with words added at its end, on its own last line (no line moves)."""
    lines = doc.text.split("\n")
    for item in doc.items:
        if item.statement is not None and item.statement.text.strip():
            end = item.statement.span
            row = lines[end.end_line]
            lines[end.end_line] = row[:end.end_col] + " It also logs the event." + row[end.end_col:]
    return "\n".join(lines)


def _shifted(doc) -> str:
    """A blank line after each item heading: every item and everything below it moves down."""
    lines = doc.text.split("\n")
    for item in sorted(doc.items, key=lambda it: it.line, reverse=True):
        lines.insert(item.line + 1, "")
    return "\n".join(lines)


def _workspace_findings(ws: Workspace) -> list:
    return [f for f in _all_on().check(ws) if f.rule in WORKSPACE_RULES]


def test_workspace_rules_do_not_read_statement_text():
    ws = load_workspace(DEFECTS)
    before = _workspace_findings(ws)
    assert len({f.rule for f in before}) >= 8  # trace and ASIL findings to compare
    reworded = _rebuilt(ws, _reworded)
    assert sum(d.text.count("It also logs the event.") for d in reworded.documents.values()) > 10
    assert _workspace_findings(reworded) == before


def test_workspace_findings_keep_positions_out_of_their_messages():
    ws = load_workspace(DEFECTS)
    messages = Counter((f.rule, f.path, f.message) for f in _workspace_findings(ws))
    shifted = _workspace_findings(_rebuilt(ws, _shifted))
    assert Counter((f.rule, f.path, f.message) for f in shifted) == messages
    assert [f.span for f in shifted] != [f.span for f in _workspace_findings(ws)]  # they did move


@pytest.mark.parametrize("root", WORKSPACES, ids=lambda p: p.name)
def test_item_functions_report_only_under_their_topics(root, monkeypatch):
    """With the dispatch switched off (every item function called for every item), nothing is found that
    the dispatch would have skipped: the topics are never too narrow on these workspaces."""
    from safereq.checks.engine import dispatch

    ws = load_workspace(root)
    dispatched = _all_on().check(ws)
    monkeypatch.setattr(dispatch.ItemDispatch, "_choose",
                        lambda self, *key: tuple((rule, fn) for rule, fn, _needs in self._fns))
    everything = _all_on().check(load_workspace(root))
    assert everything == dispatched
