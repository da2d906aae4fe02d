"""The real ``safereq`` command in a child process: the installed entry point, streams and exit status."""

from __future__ import annotations

import json
import subprocess

import pytest


@pytest.fixture
def run(safereq_executable):
    def _run(*args: str, cwd) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(safereq_executable), *args], cwd=cwd, capture_output=True, text=True,
                              timeout=120, check=False)

    return _run


def test_real_command_reports_and_exits(project, run):
    (project / "docs" / "bad.md").write_bytes(b"caf\xe9\n")
    p = run("check", "--select", "format", "--format", "json", cwd=project)
    assert p.returncode == 1, p.stderr
    found = {(f["path"], f["rule"]) for f in json.loads(p.stdout)}
    assert found == {("docs/fsr.md", "format/malformed-id"), ("docs/bad.md", "io/encoding")}
    assert p.stderr == ""


def test_real_command_fix_and_text_summary(project, run):
    p = run("check", "docs", "--select", "format", "--fix", cwd=project)
    assert p.returncode == 0 and p.stdout == ""
    assert p.stderr == "0 errors, 0 warnings in 2 files; 1 fix applied\n"
    assert "## FSR-STR-2:" in (project / "docs" / "fsr.md").read_text()


def test_real_command_configuration_error(project, run):
    (project / "safereq.toml").write_text("[rules]\n'format/x' = 'error'\n")
    p = run("check", cwd=project)
    assert p.returncode == 2
    assert p.stderr.startswith("safereq.toml:2: unknown rule 'format/x'") and "Traceback" not in p.stderr


def test_real_command_flushes_a_large_report_before_its_fast_exit(project, run):
    """``safereq check`` leaves without the interpreter's tear-down (cli.main.console): everything it
    printed must still arrive, also when the report is far larger than a pipe's buffer."""
    (project / "docs" / "many.md").write_text("".join(
        f"## FSR-M-{i}: Requirement {i}\nThe unit must respond quickly, TBD.\n\n" for i in range(1500)
    ))
    p = run("check", "docs/many.md", "--format", "json", cwd=project)
    assert p.returncode == 1 and len(p.stdout) > 200_000
    assert len([f for f in json.loads(p.stdout) if f["rule"] == "wording/placeholder"]) == 1500
