"""The check engine's caches must never change the result: incremental runs equal fresh runs."""

import pytest

from safereq.checks.engine import Checker
from safereq.workspace import Workspace

GOALS = "# Goals\n\n## SG-1: Goal\nThe car shall not steer unintentionally.\n- ASIL: D\n"
REQS = "".join(
    f"## FSR-{i}: Requirement {i}\nThe arbiter must limit torque {i} quickly, TBD.\n\n- ASIL: {'B' if i % 3 else 'D'}\n"
    f"- Derived from: SG-{1 if i % 4 else 7}\n\n"
    for i in range(1, 30)
)

EDITS = [
    ("change a statement", lambda t: t.replace("torque 5 quickly", "torque 5 within 10 ms")),
    ("insert a line above items", lambda t: t.replace("## FSR-3:", "\n\n## FSR-3:")),
    ("delete a line", lambda t: t.replace("- ASIL: D\n- Derived from: SG-7\n", "- Derived from: SG-7\n", 1)),
    ("change a link", lambda t: t.replace("SG-7", "SG-1", 2)),
    ("rename an ID", lambda t: t.replace("## FSR-10:", "## FSR-100:")),
]


def fresh(docs):
    ws = Workspace()
    for path, text in docs.items():
        ws.update(path, text)
    return Checker().check(ws)


@pytest.mark.parametrize(("name", "edit"), EDITS, ids=[e[0] for e in EDITS])
def test_incremental_findings_equal_a_fresh_check(name, edit):
    ws = Workspace()
    checker = Checker()
    docs = {"goals.md": GOALS, "reqs.md": REQS}
    for path, text in docs.items():
        ws.update(path, text)
    assert checker.check(ws) == fresh(docs)
    docs["reqs.md"] = edit(docs["reqs.md"])
    ws.update("reqs.md", docs["reqs.md"])
    assert checker.check(ws) == fresh(docs)


def test_goal_change_updates_findings_in_other_documents():
    ws = Workspace()
    checker = Checker()
    ws.update("goals.md", GOALS)
    ws.update("reqs.md", REQS)
    before = {f.rule for f in checker.check(ws, ["reqs.md"])}
    ws.update("goals.md", GOALS + "\n## SG-7: Another goal\nThe car shall warn.\n- ASIL: B\n")
    after = {f.rule for f in checker.check(ws, ["reqs.md"])}
    assert "trace/dangling-link" in before and "trace/dangling-link" not in after


def test_a_failing_rule_is_recorded_and_the_others_still_report(monkeypatch):
    from safereq.checks import registry

    def broken(ctx, item):
        raise RuntimeError("boom")
        yield  # pragma: no cover - makes this a generator like the real checks

    original = registry.checks()
    patched = dict(original)
    patched["modal/missing"] = registry.Check("modal/missing", "item", broken)
    monkeypatch.setattr(registry, "checks", lambda: patched)
    monkeypatch.setattr("safereq.checks.engine.checks", lambda: patched)
    ws = Workspace()
    ws.update("reqs.md", REQS)
    checker = Checker()
    findings = checker.check(ws)
    assert "modal/non-standard-verb" in {f.rule for f in findings}
    assert checker.failures == {"modal/missing": "RuntimeError: boom"}
