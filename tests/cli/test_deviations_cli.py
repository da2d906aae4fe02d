"""Accepted deviations on the command line: ``check`` leaves them out and says how many, SARIF marks them
suppressed with the reason as GitHub reads it, and ``report`` lists them with the commit and author that
``git blame`` gives in a real repository."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import jsonschema
import pytest

from .test_sarif_github import _gh_problems, _multitool

SCHEMA = Path(__file__).resolve().parents[1] / "fixtures" / "sarif" / "sarif-schema-2.1.0.json"
DOC = """# Requirements

## SG-1: Avoid unintended steering
The steering system shall not apply unintended torque.

- ASIL: B

### FSR-12: Warn the driver
The ECU should warn the driver within 200 ms.

- ASIL: B
- Derived from: SG-1
- Deviation: modal/non-binding-verb "should": quoted from the customer's specification CS-4
"""
LATER = "- Deviation: trace/orphan: reviewed by the safety manager\n"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository whose fsr.md has one committed deviation and one not yet committed."""
    env = {**os.environ, "GIT_AUTHOR_NAME": "Ada Assessor", "GIT_AUTHOR_EMAIL": "ada@example.com",
           "GIT_COMMITTER_NAME": "Ada Assessor", "GIT_COMMITTER_EMAIL": "ada@example.com",
           "GIT_AUTHOR_DATE": "2026-03-04T05:06:07Z", "GIT_COMMITTER_DATE": "2026-03-04T05:06:07Z"}
    (tmp_path / "fsr.md").write_text(DOC, encoding="utf-8")
    for args in (["init", "-q"], ["add", "fsr.md"], ["commit", "-q", "-m", "Accept the customer's wording"]):
        subprocess.run(["git", *args], cwd=tmp_path, env=env, check=True, capture_output=True)
    (tmp_path / "fsr.md").write_text(DOC + LATER, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_check_leaves_accepted_findings_out_and_counts_them(repo, safereq):
    result = safereq("check", "fsr.md")
    assert "non-binding-verb" not in result.out
    # FSR-12 has a parent, so its trace/orphan deviation accepts nothing and says so.
    assert result.out == "fsr.md:14:3: warning [deviation/unmatched] no trace/orphan finding in FSR-12 to accept: remove the deviation\n"
    assert result.err == "0 errors, 1 warning in 1 file; 1 accepted as deviations\n" and result.status == 0


def test_sarif_marks_accepted_findings_as_suppressed_with_the_reason(repo, safereq, tmp_path):
    log = json.loads(safereq("check", "--format", "sarif", "fsr.md").out)
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema).validate(log)
    results = log["runs"][0]["results"]
    suppressed = [r for r in results if "suppressions" in r]
    by_rule = {r["ruleId"]: r["suppressions"] for r in suppressed}
    assert by_rule["modal/non-binding-verb"] == [{"kind": "inSource", "status": "accepted", "justification":
                                                  "quoted from the customer's specification CS-4",
                                                  "properties": {"item": "FSR-12"}}]
    assert all("suppressions" not in r for r in results if r["ruleId"].startswith("deviation/"))


def test_github_ingestion_rules_accept_suppressed_results(repo, safereq, tmp_path):
    tool = _multitool()
    target = repo / "dev.sarif"
    safereq("check", "--format", "sarif", "-o", str(target), "fsr.md")
    assert _gh_problems(tool, [target], tmp_path / "validation.sarif")["dev.sarif"] == []


def test_report_lists_every_deviation_with_commit_and_author(repo, safereq):
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True).stdout.strip()
    result = safereq("report", "fsr.md", "-o", "out", "--format", "json")
    assert result.status == 0 and "2 accepted deviations" in result.err
    rows = json.loads((repo / "out" / "report.json").read_text(encoding="utf-8"))["deviations"]
    assert rows == [
        {"item": "FSR-12", "rule": "modal/non-binding-verb", "words": "should",
         "reason": "quoted from the customer's specification CS-4", "document": "fsr.md", "line": 13,
         "commit": head, "author": "Ada Assessor", "date": "2026-03-04T05:06:07Z"},
        {"item": "FSR-12", "rule": "trace/orphan", "words": None, "reason": "reviewed by the safety manager",
         "document": "fsr.md", "line": 14, "commit": None, "author": None, "date": None},  # not committed yet
    ]
    html = safereq("report", "fsr.md", "-o", "page")
    assert html.status == 0
    page = (repo / "page" / "index.html").read_text(encoding="utf-8")
    assert '<h2 id="deviations">Accepted deviations</h2>' in page and head[:12] in page and "Ada Assessor" in page


def test_report_outside_a_repository_still_lists_the_deviations(tmp_path, monkeypatch, safereq):
    (tmp_path / "fsr.md").write_text(DOC.replace("within 200 ms", "within 200 ms\x1b[31m<b>"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert safereq("report", "fsr.md", "-o", "out", "--format", "csv").status == 0
    lines = (tmp_path / "out" / "deviations.csv").read_text(encoding="utf-8").splitlines()
    assert lines == ["item,rule,words,reason,document,line,commit,author,date",
                     "FSR-12,modal/non-binding-verb,should,quoted from the customer's specification CS-4,fsr.md,13,,,"]
