"""The checks report exactly what they reported before their per-item split and speed-ups.

The snapshots (tests/fixtures/findings-snapshot-*.json) were recorded with every rule on before the
document-scope rules were split into cached per-item parts and the text checks were made faster; any change
in a message, span, fix, related place or severity fails here. Re-record one with
``python tests/checks/findings_snapshot.py FOLDER tests/fixtures/findings-snapshot-NAME.json`` only for an
intended change of behaviour. The incremental path (edits re-checked with the caches) must give the
snapshot too, after an edit is undone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from safereq.checks.engine import Checker

from .findings_snapshot import all_rules_config, as_data, load_workspace, snapshot

TESTS = Path(__file__).resolve().parent.parent
WORKSPACES = {
    "examples": TESTS.parent / "examples",
    "trace-brake-workspace": TESTS / "fixtures" / "trace-brake-workspace",
    "defects-workspace": TESTS / "checks" / "defects-workspace",
}


def _recorded(name: str) -> list[dict]:
    return json.loads((TESTS / "fixtures" / f"findings-snapshot-{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(WORKSPACES))
def test_findings_equal_the_recorded_snapshot(name):
    assert snapshot(WORKSPACES[name]) == _recorded(name)


@pytest.mark.parametrize("name", sorted(WORKSPACES))
def test_cached_rechecks_after_edits_equal_the_snapshot(name):
    root = WORKSPACES[name].resolve()
    ws = load_workspace(root)
    checker = Checker(all_rules_config())
    checker.check(ws)
    for path in sorted(ws.documents):
        original = ws.documents[path].text
        # An inserted line moves every item below it; an edited line changes one item only.
        ws.update(path, "\n" + original)
        checker.check(ws)
        ws.update(path, original.replace(" shall ", " must ", 1))
        checker.check(ws)
        ws.update(path, original)
    assert as_data(checker.check(ws), root) == _recorded(name)
