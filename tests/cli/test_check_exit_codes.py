"""Exit status: 0 when no error remains, 1 when one does, 2 for usage and configuration errors."""

from __future__ import annotations

import pytest


def test_warnings_only_exit_zero(project, safereq):
    r = safereq("check", "--select", "format")
    assert r.status == 0 and "warning" in r.out


def test_an_error_exits_one(project, safereq):
    r = safereq("check", "--select", "format", "--rule", "format/malformed-id=error")
    assert r.status == 1


def test_io_errors_exit_one_and_can_be_downgraded(project, safereq):
    assert safereq("check", "docs", "missing.md", "--select", "format").status == 1
    r = safereq("check", "docs", "missing.md", "--select", "format", "--rule", "io/not-found=warning")
    assert r.status == 0 and "warning [io/not-found]" in r.out


@pytest.mark.parametrize("args", [
    ["check", "--format", "xml"],
    ["check", "--rule", "format/malformed-id"],
    ["check", "--rule", "format/no-such-rule=error"],
    ["check", "--rule", "format/malformed-id=fatal"],
    ["check", "--rule", "io/binary=fatal"],
    ["check", "--select", "nonsense"],
    ["check", "--max-file-size", "lots"],
    ["check", "--jobs", "0"],
    ["check", "--jobs", "many"],
    ["check", "--config", "does-not-exist.toml"],
    ["check", "--output", "no/such/dir/report.txt"],
    [],
])
def test_usage_errors_exit_two_with_one_line(project, safereq, args):
    r = safereq(*args)
    assert r.status == 2
    assert "Traceback" not in r.err


def test_unknown_rule_gets_a_suggestion(project, safereq):
    r = safereq("check", "--ignore", "format/malformd-id")
    assert r.status == 2
    assert r.err.strip() == "safereq: unknown rule 'format/malformd-id'; did you mean 'format/malformed-id'?"


def test_internal_error_is_one_line_and_exit_two(project, safereq, monkeypatch):
    from safereq.checks.engine import Checker

    def broken(self, ws, paths=None):
        raise RuntimeError("rule exploded")

    monkeypatch.setattr(Checker, "check", broken)
    monkeypatch.delenv("SAFEREQ_DEBUG", raising=False)
    r = safereq("check")
    assert r.status == 2
    assert r.err.startswith("safereq: internal error: RuntimeError: rule exploded") and r.err.count("\n") == 1
    monkeypatch.setenv("SAFEREQ_DEBUG", "1")
    with pytest.raises(RuntimeError):
        safereq("check")
