"""``--format sarif``: SARIF 2.1.0 that validates against the official schema and carries what GitHub reads."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from safereq.checks.findings import Edit, Finding, Fix, Related, Severity
from safereq.checks import all_rule_infos
from safereq.model.ranges import Span
from safereq.report import sarif

SCHEMA = Path(__file__).resolve().parents[1] / "fixtures" / "sarif" / "sarif-schema-2.1.0.json"


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert schema["id"].endswith("/sarif-schema-2.1.0.json")
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def _valid(validator, log: dict) -> dict:
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])
    return log


def test_cli_sarif_validates_and_locates_results(project, safereq, validator):
    (project / "docs" / "bad.md").write_bytes(b"\x00binary")
    r = safereq("check", "--format", "sarif")
    log = _valid(validator, json.loads(r.out))
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    ids = [rule["id"] for rule in rules]
    assert "format/malformed-id" in ids and "io/binary" in ids
    assert run["columnKind"] == "utf16CodeUnits"
    # No absolute path of the machine: GitHub resolves %SRCROOT% to the checkout.
    assert "uri" not in run["originalUriBaseIds"]["%SRCROOT%"]
    assert str(project.resolve()) not in r.out
    by_rule = {res["ruleId"]: res for res in run["results"]}
    res = by_rule["format/malformed-id"]
    assert ids[res["ruleIndex"]] == "format/malformed-id"
    assert res["level"] == "warning"
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "docs/fsr.md", "uriBaseId": "%SRCROOT%"}
    assert loc["region"] == {"startLine": 11, "startColumn": 4, "endLine": 11, "endColumn": 13}
    assert res["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"] == {"text": "FSR-STR-2"}
    assert by_rule["io/binary"]["level"] == "error"


def test_rule_descriptors_carry_help_from_the_rule_docs(project, safereq, validator):
    log = json.loads(safereq("check", "--format", "sarif").out)
    rules = {rule["id"]: rule for rule in log["runs"][0]["tool"]["driver"]["rules"]}
    rule = rules["format/malformed-id"]
    assert rule["help"]["markdown"].startswith("# format/malformed-id")
    assert "**" not in rule["help"]["text"]
    assert rule["fullDescription"]["text"].startswith("Reports a heading")
    assert rule["defaultConfiguration"] == {"enabled": True, "level": "warning"}
    assert set(rules) == set(all_rule_infos())


def test_disabled_rules_are_marked_and_severity_overrides_show(project, safereq):
    log = json.loads(safereq("check", "--format", "sarif", "--rule", "format/malformed-id=error",
                             "--ignore", "format/front-matter").out)
    rules = {rule["id"]: rule for rule in log["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["format/malformed-id"]["defaultConfiguration"]["level"] == "error"
    assert rules["format/front-matter"]["defaultConfiguration"]["enabled"] is False


def test_paths_outside_the_working_directory_and_related_places(validator, tmp_path):
    outside = "/elsewhere/spec with space.md"
    f = Finding("asil/lower-than-parent", Severity.INFO, "m", "docs/a b.md", Span(2, 0, 3, 0),
                fixes=(Fix("t", (Edit("docs/a b.md", Span(2, 0, 2, 1), "D"),)),),
                related=(Related(outside, Span(0, 0, 0, 4), "parent"),))
    log = _valid(validator, json.loads(sarif.render([f], all_rule_infos(), {}, tmp_path)))
    (res,) = log["runs"][0]["results"]
    assert res["level"] == "note"
    assert res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "docs/a%20b.md"
    rel = res["relatedLocations"][0]
    assert rel["physicalLocation"]["artifactLocation"] == {"uri": "file:///elsewhere/spec%20with%20space.md"}
    assert rel["message"] == {"text": "parent"}
    assert res["message"]["text"] == "m (see [parent](0))"


def test_empty_run_validates(validator, tmp_path):
    _valid(validator, json.loads(sarif.render([], all_rule_infos(), {}, tmp_path)))
