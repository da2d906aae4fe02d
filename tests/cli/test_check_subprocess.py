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
    fsr = project / "docs" / "fsr.md"
    fsr.write_text(fsr.read_text().replace("arbiter shall limit", "arbiter must limit"))
    p = run("check", "docs", "--select", "modal", "--fix", cwd=project)
    assert p.returncode == 0 and p.stdout == ""
    assert p.stderr == ("safereq: fixed docs/fsr.md:7 FSR-STR-1: Replace 'must' with 'shall'\n"
                        "0 errors, 0 warnings in 2 files; 1 fix applied\n")
    assert "arbiter shall limit" in fsr.read_text()


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


def test_a_check_past_its_memory_limit_stops_with_one_clear_line(tmp_path, run):
    """Issue 12, item 6: peak memory is bounded by the limit; passing it is an error message, not a killed
    process or a swapping machine. 3 MB of ordinary requirements need about 130 MB above the interpreter."""
    text = "# Chain\n\n## SG-1: Goal\n\nThe vehicle shall stop.\n\n- ASIL: B\n\n" + "".join(
        f"## FSR-{i}: Item {i}\n\nThe function shall report the state within 10 ms.\n\n- ASIL: B\n"
        f"- Derived from: {f'FSR-{i - 1}' if i > 1 else 'SG-1'}\n\n" for i in range(1, 30_001))
    (tmp_path / "big.md").write_text(text, encoding="utf-8")
    p = run("check", "big.md", "--jobs", "1", "--max-memory", "60MB", cwd=tmp_path)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("safereq: checking stopped after using ") and p.stderr.count("\n") == 1
    assert "more than the limit of 60 MB (set with --max-memory)" in p.stderr and "Traceback" not in p.stderr
    p = run("check", "big.md", "--jobs", "1", "--max-memory", "1GB", cwd=tmp_path)
    assert p.returncode == 0 and p.stderr.startswith("0 errors"), p.stderr
    p = run("check", "big.md", "--jobs", "1", "--max-memory", "10MB", cwd=tmp_path)  # refused before reading
    assert p.returncode == 1 and "[io/too-large]" in p.stdout and "at least" in p.stdout



def test_a_misspelt_environment_variable_is_named(project, safereq_executable):
    import os

    env = {**os.environ, "SAFEREQ_LLM_MODLE": "qwen"}
    p = subprocess.run([str(safereq_executable), "check", "--select", "format"], cwd=project, env=env,
                       capture_output=True, text=True, timeout=120, check=False)
    assert p.returncode == 0 and p.stderr.startswith(
        "safereq: warning: SAFEREQ_LLM_MODLE is not a safereq setting and is ignored; did you mean "
        "SAFEREQ_LLM_MODEL?\n")
