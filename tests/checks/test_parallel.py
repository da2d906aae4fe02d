"""Checking in forked workers finds exactly what one process finds, and survives a worker that dies."""

import os

import pytest

from safereq.checks import parallel
from safereq.checks.engine import Checker
from safereq.checks.registry import checks
from safereq.workspace import Workspace

pytestmark = pytest.mark.skipif(not parallel.can_fork(), reason="workers are forked only on Linux")

GOALS = "# Goals\n\n## SG-1: Goal\nThe car shall not steer unintentionally.\n- ASIL: D\n"


def workspace() -> Workspace:
    ws = Workspace()
    ws.update("goals.md", GOALS)
    for d in range(6):
        ws.update(f"reqs-{d}.md", "".join(
            f"## FSR-{d}{i}: Requirement {i}\nThe arbiter must limit torque {i} quickly, TBD.\n\n"
            f"- ASIL: {'B' if i % 3 else 'D'}\n- Derived from: SG-{1 if i % 4 else 7}\n\n"
            for i in range(1, 20)
        ))
    return ws


def test_workers_find_what_one_process_finds(monkeypatch):
    serial = Checker().check(workspace())
    adopted = []
    adopt = Checker.adopt_local
    monkeypatch.setattr(Checker, "adopt_local", lambda self, doc, found: (adopted.append(doc.path), adopt(self, doc, found)))
    assert parallel.check_workspace(Checker(), workspace(), jobs=3, min_items=0) == serial
    assert serial  # the documents do have findings to compare
    assert 2 <= len(adopted) < 7  # two workers checked some of the seven documents, the parent the rest


def test_small_workspaces_are_checked_in_one_process(monkeypatch):
    monkeypatch.setattr(parallel, "_work", lambda *args: pytest.fail("a worker was started"))
    ws = workspace()
    assert parallel.check_workspace(Checker(), ws, jobs=3) == Checker().check(ws)


def test_a_worker_that_dies_costs_no_findings(monkeypatch):
    monkeypatch.setattr(parallel, "_work", lambda *args: os._exit(3))  # runs in the forked worker only
    serial = Checker().check(workspace())
    assert parallel.check_workspace(Checker(), workspace(), jobs=2, min_items=0) == serial


def test_a_rule_failing_in_a_worker_is_reported(monkeypatch):
    check = checks()["wording/placeholder"]
    parent = os.getpid()

    def broken_in_workers(ctx, item):
        if os.getpid() != parent:
            raise RuntimeError("boom")
        return check.fn(ctx, item)

    monkeypatch.setitem(checks(), "wording/placeholder", type(check)(check.rule, check.scope, broken_in_workers))
    checker = Checker()
    findings = parallel.check_workspace(checker, workspace(), jobs=2, min_items=0)
    assert checker.failures == {"wording/placeholder": "RuntimeError: boom"}
    # The parent's own share still reports the rule: only the worker's documents miss its findings.
    assert any(f.rule == "wording/placeholder" for f in findings)
