"""All files of one run form one workspace, so links between documents resolve (and are checked)."""

from __future__ import annotations

import pytest

from safereq.checks.registry import rule_infos


def test_every_file_is_loaded_into_one_workspace(project, safereq, monkeypatch):
    from safereq.checks.engine import Checker

    seen = {}
    original = Checker.check

    def spy(self, ws, paths=None):
        seen["documents"] = sorted(ws.documents)
        seen["children"] = [c.id for c in ws.children("SG-1")]
        return original(self, ws, paths)

    monkeypatch.setattr(Checker, "check", spy)
    safereq("check", "docs/goals.md", "docs", "--select", "format")  # a file given twice is read once
    assert seen["documents"] == ["docs/fsr.md", "docs/goals.md"]
    assert seen["children"] == ["FSR-STR-1"]


@pytest.mark.skipif("trace/dangling-link" not in rule_infos(), reason="trace rules not present")
def test_links_resolve_across_the_documents_checked_together(project, safereq):
    alone = safereq("check", "docs/fsr.md", "--select", "trace/dangling-link", "--format", "json")
    assert any("SG-1" in f["message"] for f in alone.json())
    together = safereq("check", "docs", "--select", "trace/dangling-link", "--format", "json")
    assert together.json() == []


def test_jobs_do_not_change_the_report(project, safereq, monkeypatch):
    from safereq.checks.engine import parallel

    monkeypatch.setattr(parallel, "MIN_BYTES", 0)  # the project is small: fork anyway
    one = safereq("check", "docs", "--format", "json", "--jobs", "1")
    two = safereq("check", "docs", "--format", "json", "--jobs", "2")
    assert one.json() == two.json() and one.status == two.status
