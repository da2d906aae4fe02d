"""SARIF as GitHub code scanning ingests it: fingerprints, UTF-16 columns, rule metadata, message links,
the result cap — checked against the SARIF 2.1.0 schema and by Microsoft's sarif-multitool with GitHub's
ingestion rules (``validate --rule-kind Gh``), which scripts/test.sh installs from npm."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest

from safereq.checks.findings import Finding, Related, Severity
from safereq.checks import all_rule_infos
from safereq.model.ranges import Span
from safereq.report import sarif
from safereq.report.line_hash import line_hashes

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "tests" / "fixtures" / "sarif" / "sarif-schema-2.1.0.json"
BRAKE = ROOT / "tests" / "fixtures" / "trace-brake-workspace"
MULTITOOL = ROOT / ".cache" / "sarif-multitool" / "node_modules" / ".bin" / "sarif-multitool"

EMOJI_DOC = """\
# Requirements

## REQ-1: Show the 🚗 symbol
The 🚗 display must show the symbol.
- Derived from: REQ-99
"""


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


@pytest.fixture
def workspace(tmp_path, monkeypatch) -> Path:
    shutil.copytree(BRAKE, tmp_path / "brake")
    (tmp_path / "brake" / "emoji.md").write_text(EMOJI_DOC, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _check_sarif(safereq, *paths: str) -> dict:
    return json.loads(safereq("check", "--format", "sarif", *paths).out)


def _valid(validator, log):
    errors = list(validator.iter_errors(log))
    assert not errors, errors[0].message
    return log


def test_every_result_has_the_line_hash_github_computes(workspace, safereq, validator):
    log = _valid(validator, _check_sarif(safereq, "brake"))
    results = log["runs"][0]["results"]
    assert len(results) >= 2
    for result in results:
        location = result["locations"][0]["physicalLocation"]
        path = workspace / location["artifactLocation"]["uri"]
        expected = line_hashes(path.read_text(encoding="utf-8"))[location["region"]["startLine"] - 1]
        assert result["partialFingerprints"] == {"primaryLocationLineHash": expected}


def test_columns_are_utf16_code_units(workspace, safereq):
    log = _check_sarif(safereq, "brake/emoji.md")
    assert log["runs"][0]["columnKind"] == "utf16CodeUnits"
    (must,) = [r for r in log["runs"][0]["results"] if r["ruleId"] == "modal/non-standard-verb"]
    region = must["locations"][0]["physicalLocation"]["region"]
    line = EMOJI_DOC.split("\n")[region["startLine"] - 1]
    # "must" starts at code point 14 (1-based 15), which is UTF-16 unit 15 (1-based 16): 🚗 is two units.
    assert line.index("must") == 14 and region["startColumn"] == 16 and region["endColumn"] == 20


def test_rules_carry_help_uri_precision_and_problem_severity(workspace, safereq):
    driver = _check_sarif(safereq, "brake")["runs"][0]["tool"]["driver"]
    assert driver["informationUri"].startswith("https://")
    rules = {rule["id"]: rule for rule in driver["rules"]}
    for rule in rules.values():
        assert rule["helpUri"].startswith("https://")
        assert rule["properties"]["precision"] in {"very-high", "high", "medium", "low"}
        assert rule["properties"]["problem.severity"] in {"error", "warning", "recommendation"}
    assert rules["trace/dangling-link"]["properties"] == {
        "tags": ["safety-requirements", "trace"], "precision": "very-high", "problem.severity": "error"}
    assert rules["wording/vague-term"]["properties"]["precision"] == "medium"


def test_related_places_are_linked_from_the_message(tmp_path, validator):
    f = Finding("asil/lower-than-parent", Severity.ERROR, "FSR-2 [draft] is ASIL B, below its parent",
                "a.md", Span(0, 0, 0, 1), related=(Related("b.md", Span(1, 0, 1, 4), "SG-1 is ASIL D"),))
    log = _valid(validator, json.loads(sarif.render([f], all_rule_infos(), {}, tmp_path)))
    (result,) = log["runs"][0]["results"]
    assert result["message"]["text"] == "FSR-2 \\[draft\\] is ASIL B, below its parent (see [SG-1 is ASIL D](0))"
    assert result["relatedLocations"][0]["id"] == 0


def test_a_run_over_the_result_cap_keeps_errors_and_says_so(tmp_path, validator):
    findings = [Finding("wording/vague-term", Severity.WARNING, f"w{k}", "a.md", Span(k, 0, k, 1)) for k in range(4)]
    findings.insert(2, Finding("trace/dangling-link", Severity.ERROR, "e", "a.md", Span(9, 0, 9, 1)))
    log = _valid(validator, json.loads(sarif.render(findings, all_rule_infos(), {}, tmp_path, limit=3)))
    run = log["runs"][0]
    assert [r["message"]["text"] for r in run["results"]] == ["w0", "w1", "e"]
    (note,) = run["invocations"][0]["toolExecutionNotifications"]
    assert note["message"]["text"].startswith("2 of 5 results are left out")


def _multitool() -> Path:
    found = Path(os.environ.get("SAFEREQ_SARIF_MULTITOOL", MULTITOOL))
    if not found.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{found} missing: scripts/test.sh installs @microsoft/sarif-multitool from npm")
        pytest.skip("sarif-multitool not installed (scripts/test.sh installs it)")
    return found


def _gh_problems(tool: Path, logs: list[Path], out: Path) -> dict[str, list[str]]:
    """GitHub-rule errors and warnings per validated file (one run of the tool for all: it starts slowly)."""
    run = subprocess.run([str(tool), "validate", *map(str, logs), "--rule-kind", "Gh", "-o", str(out),
                          "--log", "ForceOverwrite"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    problems: dict[str, list[str]] = {log.name: [] for log in logs}
    for result in json.loads(out.read_text(encoding="utf-8-sig"))["runs"][0]["results"]:
        if result.get("level") in ("error", "warning"):
            uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            problems[uri.rsplit("/", 1)[-1]].append(f"{result['ruleId']}: {result['message'].get('arguments')}")
    return problems


def test_github_ingestion_rules_accept_the_output(workspace, safereq, tmp_path):
    tool = _multitool()
    target = workspace / "safereq.sarif"
    safereq("check", "--format", "sarif", "-o", str(target), "brake")
    # The validator does see GitHub's rules: a result without text breaks one.
    broken = json.loads(target.read_text(encoding="utf-8"))
    broken["runs"][0]["results"][0]["message"] = {"id": "none"}
    (tmp_path / "broken.sarif").write_text(json.dumps(broken), encoding="utf-8")
    problems = _gh_problems(tool, [target, tmp_path / "broken.sarif"], tmp_path / "validation.sarif")
    assert problems["safereq.sarif"] == []
    assert problems["broken.sarif"]
