"""--select, --ignore and --rule ID=SEVERITY on top of the configuration."""

from __future__ import annotations


def _rules(result) -> set[str]:
    return {f["rule"] for f in result.json()}


def test_select_limits_to_a_family_and_keeps_io(project, safereq):
    r = safereq("check", "docs", "gone.md", "--select", "format", "--format", "json")
    assert _rules(r) == {"format/malformed-id", "io/not-found"}


def test_ignore_a_rule_and_an_io_family(project, safereq):
    r = safereq("check", "docs", "gone.md", "--select", "format", "--ignore", "format/malformed-id,io", "--format", "json")
    assert r.json() == [] and r.status == 0


def test_rule_severity_override_and_last_one_wins(project, safereq):
    r = safereq("check", "--select", "format", "--rule", "format=info", "--rule", "format/malformed-id=hint",
                "--format", "json")
    assert [f["severity"] for f in r.json()] == ["hint"]


def test_select_keeps_a_severity_from_the_configuration(project, safereq):
    (project / "safereq.toml").write_text('[rules]\n"format/malformed-id" = "error"\n')
    r = safereq("check", "--select", "format/malformed-id", "--format", "json")
    assert [f["severity"] for f in r.json()] == ["error"]
    assert r.status == 1
