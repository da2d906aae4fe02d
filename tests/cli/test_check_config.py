"""Configuration for ``safereq check``: found upward from the checked paths, --config, errors as path:line."""

from __future__ import annotations

import pytest


def test_config_found_upward_from_the_checked_path(project, safereq):
    (project / "safereq.toml").write_text('[rules]\n"format/malformed-id" = "error"\n')
    r = safereq("check", "docs/fsr.md", "--select", "format")
    assert "error [format/malformed-id]" in r.out and r.status == 1


def test_pyproject_tool_table(project, safereq):
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.safereq.rules]\n"format/malformed-id" = "info"\n')
    r = safereq("check", "--select", "format", "--format", "json")
    assert [f["severity"] for f in r.json()] == ["info"]


def test_rule_switched_off_in_the_configuration(project, safereq):
    (project / "safereq.toml").write_text('[rules]\n"format/malformed-id" = "off"\n')
    r = safereq("check", "--select", "format/front-matter")
    assert r.out == "" and r.status == 0


def test_explicit_config_file_wins(project, safereq, tmp_path_factory):
    (project / "safereq.toml").write_text('[rules]\n"format/malformed-id" = "error"\n')
    other = tmp_path_factory.mktemp("cfg") / "ci.toml"
    other.write_text('[rules]\n"format/malformed-id" = "info"\n')
    r = safereq("check", "--config", str(other), "--select", "format", "--format", "json")
    assert [f["severity"] for f in r.json()] == ["info"]


@pytest.mark.parametrize(("text", "line", "message"), [
    ('exclude = ["x"]\n\n[rules]\n"format/malformd-id" = "error"\n', 4,
     "unknown rule 'format/malformd-id'; did you mean 'format/malformed-id'?"),
    ('[rules]\n"format/malformed-id" = "loud"\n', 2, "rule 'format/malformed-id': unknown severity 'loud'"),
    ('colour = "red"\n', 1, "unknown setting 'colour'"),
    ('[rules\n', 1, "invalid TOML"),
])
def test_config_errors_print_path_and_line_and_exit_two(project, safereq, text, line, message):
    (project / "safereq.toml").write_text(text)
    r = safereq("check")
    assert r.status == 2 and r.out == ""
    assert r.err.startswith(f"safereq.toml:{line}: {message}")
    assert "Traceback" not in r.err and r.err.count("\n") == 1


def test_config_error_in_pyproject_points_into_it(project, safereq):
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.safereq]\nexclude = "drafts"\n')
    r = safereq("check")
    assert r.status == 2
    assert r.err.strip() == "pyproject.toml:5: 'exclude' must be a list of glob patterns"


def test_exclude_globs_are_honoured(project, safereq):
    (project / "docs" / "drafts").mkdir()
    (project / "docs" / "drafts" / "wip.md").write_text("## sg-9: Draft\n")
    (project / "docs" / "old.draft.md").write_text("## sg-8: Draft\n")
    (project / "safereq.toml").write_text('exclude = ["drafts", "*.draft.md"]\n')
    r = safereq("check", "--select", "format", "--format", "json")
    assert {f["path"] for f in r.json()} == {"docs/fsr.md"}
    # A file named on the command line is checked even when excluded.
    r = safereq("check", "docs/old.draft.md", "--select", "format", "--format", "json")
    assert {f["path"] for f in r.json()} == {"docs/old.draft.md"}


def test_config_kinds_reach_the_parser(project, safereq, monkeypatch):
    (project / "safereq.toml").write_text('[kinds]\nSYSR = { name = "system requirement", category = "requirement" }\n')
    (project / "docs" / "sys.md").write_text("## SYSR-1: Steering\nThe system shall steer.\n- Derived from: SG-1\n")
    from safereq.checks.engine import Checker

    seen = {}
    original = Checker.check

    def spy(self, ws, paths=None):
        seen["kind"] = ws.vocabulary.kind_of("SYSR")
        seen["item"] = ws.item("SYSR-1")
        return original(self, ws, paths)

    monkeypatch.setattr(Checker, "check", spy)
    assert safereq("check", "--select", "format").status == 0
    assert seen["kind"].name == "system requirement" and seen["item"].kind == "SYSR"


@pytest.mark.parametrize("value", ["[" * 5000 + "]" * 5000, "{a = " * 3000 + "1" + "}" * 3000],
                         ids=["arrays", "inline tables"])
def test_deeply_nested_toml_is_a_configuration_error(project, safereq, value):
    """Issue 12: tomllib recurses per level; 5,000 levels used to end in 'internal error: RecursionError'."""
    (project / "safereq.toml").write_text(f"[rules]\nx = {value}\n")
    r = safereq("check")
    assert r.status == 2 and r.out == ""
    assert r.err.strip() == "safereq.toml: invalid TOML: arrays or inline tables nested too deeply"
