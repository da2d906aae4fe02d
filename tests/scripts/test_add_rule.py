"""scripts/add_rule.py on a copy of the checkout: the rule it scaffolds is registered, documented and tested
there. A word-list rule passes the copy's registry and word-list tests at once; a rule with code passes the
registry tests, and its generated test fails until the function reports something."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def checkout(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    for part in ("server", "rules", "scripts", "docs"):
        shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__", "_data"))
    (copy / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "conftest.py", copy / "tests" / "conftest.py")
    shutil.copytree(ROOT / "tests" / "checks", copy / "tests" / "checks", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "tests" / "fixtures", copy / "tests" / "fixtures", ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "tests" / "__init__.py").write_text("")
    return copy


def _run(copy: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(copy / "server")}
    return subprocess.run([sys.executable, *argv], cwd=copy, env=env, capture_output=True, text=True, timeout=300)


def _pytest(copy: Path, *tests: str) -> subprocess.CompletedProcess[str]:
    return _run(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(copy), *tests)


def test_a_word_list_rule_is_data_and_a_test_row(checkout):
    made = _run(checkout, "scripts/add_rule.py", "wording/hedge", "--summary", "A requirement hedges.",
                "--list", "hedges", "--word", "arguably", "--example", "The ECU shall {word} report the fault.",
                "--message", "'{word}' hedges the requirement: state it without reservation")
    assert made.returncode == 0, made.stderr
    assert "hedges:\n  - arguably" in (checkout / "rules" / "en" / "wording.yaml").read_text(encoding="utf-8")
    assert _run(checkout, "scripts/gen_rule_index.py").returncode == 0
    result = _pytest(checkout, "tests/checks/test_word_list_rules.py", "tests/checks/test_registry.py")
    assert result.returncode == 0, result.stdout[-3000:]
    assert "wording/hedge" in (checkout / "tests" / "checks" / "test_word_list_rules.py").read_text(encoding="utf-8")


def test_a_rule_with_code_gets_a_function_and_a_failing_test(checkout):
    made = _run(checkout, "scripts/add_rule.py", "trace/self-verified", "--scope", "item", "--severity", "error",
                "--summary", "A requirement names itself in Verified by.",
                "--example", "## FSR-1: Verify itself\\nThe ECU shall stop.\\n\\n- Verified by: FSR-1\\n")
    assert made.returncode == 0, made.stderr
    assert _run(checkout, "scripts/gen_rule_index.py").returncode == 0
    registry = _pytest(checkout, "tests/checks/test_registry.py")
    assert registry.returncode == 0, registry.stdout[-3000:]
    generated = _pytest(checkout, "tests/checks/test_rule_trace_self_verified.py")
    assert generated.returncode == 1 and "reports nothing on its own example yet" in generated.stdout


def test_an_existing_rule_or_unknown_family_is_refused_without_writing(checkout):
    before = (checkout / "rules" / "checks" / "wording.yaml").read_text(encoding="utf-8")
    again = _run(checkout, "scripts/add_rule.py", "wording/vague-term", "--summary", "x", "--scope", "item",
                 "--example", "x")
    assert again.returncode == 2 and "exists already" in again.stderr
    unknown = _run(checkout, "scripts/add_rule.py", "style/x", "--summary", "x", "--scope", "item", "--example", "x")
    assert unknown.returncode == 2 and "no family style" in unknown.stderr
    assert (checkout / "rules" / "checks" / "wording.yaml").read_text(encoding="utf-8") == before
