"""README's test command on a busy machine (issue 25, item 15): it waits for apt's lock instead of failing, runs
every suite even when one fails (and then exits non-zero), and fails under CI when the run changed the
checkout. Run against a copy of the scripts with stand-ins for apt-get, npm, the Python suite and the VS Code
run, so that only the scripts' own logic is under test."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("bash") is None or shutil.which("git") is None,
                                reason="needs bash and git")


def _tool(path: Path, body: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/usr/bin/env bash\n" + body + "\n", encoding="utf-8")
    path.chmod(0o755)


def _checkout(tmp: Path, pytest_rc: int, touch_tracked: bool = False) -> tuple[Path, Path, Path]:
    """A git checkout holding the two scripts, with stand-ins that log to ``calls``; returns (root, bin, calls)."""
    root, bin_dir, calls = tmp / "repo", tmp / "bin", tmp / "calls.log"
    (root / "scripts").mkdir(parents=True)
    for name in ("test.sh", "apt-install.sh", "install_mcp_inspector.sh"):
        shutil.copy(REPO / "scripts" / name, root / "scripts" / name)
    (root / "tracked.txt").write_text("as committed\n", encoding="utf-8")
    (root / ".gitignore").write_text(".venv/\n.cache/\n", encoding="utf-8")
    change = "echo changed >> tracked.txt" if touch_tracked else ":"
    _tool(root / ".venv/bin/python", f'echo "python $*" >> "{calls}"\n'
                                     f'case "$*" in *pytest*) {change}; exit {pytest_rc};; esac')
    for tool in ("sarif-multitool/node_modules/.bin/sarif-multitool", "mcp-inspector/node_modules/.bin/mcp-inspector",
                 "strictdoc/bin/strictdoc"):  # the tools test.sh installs, as installed already
        _tool(root / ".cache" / tool, "")
    _tool(root / "tests/e2e/vscode/run.sh", f'echo "vscode e2e" >> "{calls}"')
    (root / "client-vscode").mkdir()
    _tool(bin_dir / "npm", f'echo "npm $*" >> "{calls}"')
    for name in ("nvim", "dot", "chromium"):
        _tool(bin_dir / name, "")
    _tool(bin_dir / "apt-get", f'echo "apt-get $*" >> "{calls}"')  # a machine without gtest installs nothing real
    _tool(bin_dir / "sudo", 'exec "$@"')
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run([*git, "-C", str(root), "add", "-A"], check=True)
    subprocess.run([*git, "-C", str(root), "commit", "-q", "-m", "x"], check=True)
    return root, bin_dir, calls


def _run(root: Path, bin_dir: Path, **env: str) -> subprocess.CompletedProcess:
    full = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", **env}
    full.pop("SAFEREQ_SKIP_VSCODE_E2E", None)
    return subprocess.run(["bash", "scripts/test.sh"], cwd=root, env=full, capture_output=True, text=True,
                          timeout=300)


def test_a_failing_python_suite_does_not_skip_the_node_and_vscode_suites(tmp_path):
    root, bin_dir, calls = _checkout(tmp_path, pytest_rc=1)
    run = _run(root, bin_dir)
    log = calls.read_text(encoding="utf-8")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "npm test" in log and "vscode e2e" in log  # both ran after pytest failed
    assert "FAILED: Python (pytest)" in run.stdout


def test_a_passing_run_exits_zero_and_a_changed_checkout_fails_under_ci(tmp_path):
    root, bin_dir, _ = _checkout(tmp_path / "clean", pytest_rc=0)
    assert _run(root, bin_dir, CI="true").returncode == 0
    root, bin_dir, _ = _checkout(tmp_path / "dirty", pytest_rc=0, touch_tracked=True)
    run = _run(root, bin_dir, CI="true")
    assert run.returncode == 1 and "FAILED: a clean checkout" in run.stdout
    assert "tracked.txt" in run.stdout
    assert _run(root, bin_dir, CI="false").returncode == 0  # a developer's run only says so


def test_apt_waits_for_a_lock_another_process_holds(tmp_path):
    """The stand-in apt-get fails twice the way a held lock fails, then succeeds; the install goes through and
    every apt-get call carried the dpkg lock timeout."""
    bin_dir, calls, count = tmp_path / "bin", tmp_path / "calls.log", tmp_path / "count"
    _tool(bin_dir / "apt-get", f'echo "$*" >> "{calls}"\n'
                               f'n=$(cat "{count}" 2>/dev/null || echo 0); echo $((n + 1)) > "{count}"\n'
                               '[ "$n" -ge 2 ] && exit 0\n'
                               'echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 7" >&2\n'
                               'exit 100')
    _tool(bin_dir / "sudo", 'exec "$@"')
    _tool(bin_dir / "sleep", "")  # no real waiting in the test
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    run = subprocess.run(["bash", str(REPO / "scripts/apt-install.sh"), "graphviz"], env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = calls.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4 and lines[-1].endswith("install -y -qq graphviz")
    assert all("DPkg::Lock::Timeout=600" in line for line in lines)
    assert "another process holds apt's lock" in run.stderr


def test_apt_reports_other_failures_at_once(tmp_path):
    bin_dir, calls = tmp_path / "bin", tmp_path / "calls.log"
    _tool(bin_dir / "apt-get", f'echo "$*" >> "{calls}"; echo "E: Unable to locate package nope" >&2; exit 100')
    _tool(bin_dir / "sudo", 'exec "$@"')
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    run = subprocess.run(["bash", str(REPO / "scripts/apt-install.sh"), "nope"], env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode != 0 and "Unable to locate package nope" in run.stderr
    assert len(calls.read_text(encoding="utf-8").splitlines()) == 1
