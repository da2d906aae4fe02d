"""Test results as verification evidence, from real JUnit files: pytest's (run here) and gtest's (a test
program built here with g++ and Debian's libgtest-dev). Failed and missing results are findings on what
they verify and its parents, unmatched test cases are listed, the report shows each "Verified by" result,
``--coverage-min KIND.passed`` gates on them, and hostile XML is refused with one line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from safereq.cli.main import main
from safereq.exchange.junit import JUnitError, read

SPEC = """# Spec

## SG-1: Avoid unintended steering
The steering system shall not apply unintended torque.

- ASIL: B

### FSR-1: Limit the torque
The ECU shall limit the torque to 3 Nm within 50 ms.

- ASIL: B
- Derived from: SG-1
- Verified by: TC-1, TC-2

### FSR-2: Report the fault
The ECU shall report the fault within 100 ms.

- ASIL: B
- Derived from: SG-1
- Verified by: TC-3

## TC-1: Torque limit test
The test shall request 5 Nm and check that 3 Nm is applied.

## TC-2: Torque limit timing
The test shall check the limit within 50 ms.

## TC-3: Fault report test
The test shall inject a fault and check the report.
"""
PYTEST_FILE = '''
import pytest

def test_TC_1_torque_limit():
    assert 3 == 3

def test_tc_2_timing():
    assert 50 > 60, "limit applied after 70 ms"

def test_report(record_property):
    record_property("requirements", "TC-3")
    pytest.skip("no fault injector on this bench")

def test_unrelated():
    pass
'''
GTEST_FILE = """
#include <gtest/gtest.h>
TEST(Torque, TC_1_Limit) { EXPECT_EQ(3, 3); }
TEST(Torque, Timing) {
  RecordProperty("requirements", "TC-2");
  EXPECT_LT(70, 50) << "limit applied after 70 ms";
}
TEST(Fault, DISABLED_TC_3_Report) {}
"""


def run(capsys, *args: str) -> tuple[int, str, str]:
    try:
        status = main(list(args))
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 2
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "spec.md").write_text(SPEC, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def pytest_results(spec: Path) -> Path:
    """results.xml written by a real pytest run of four tests: one passes, one fails, one is skipped (it
    names TC-3 in a property), one names nothing."""
    (spec / "checks").mkdir()
    (spec / "checks" / "test_ecu.py").write_text(PYTEST_FILE, encoding="utf-8")
    out = spec / "results.xml"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:asyncio",
                    f"--junitxml={out}", str(spec / "checks")], cwd=spec, capture_output=True, timeout=300)
    assert out.is_file()
    return out


def build_gtest(folder: Path) -> Path:
    """gtest.xml written by a real gtest program (skipped without g++ or libgtest-dev; scripts/test.sh
    installs them)."""
    if shutil.which("g++") is None or not Path("/usr/include/gtest/gtest.h").is_file():
        pytest.skip("g++ or libgtest-dev missing (scripts/test.sh installs them)")
    (folder / "ecu_test.cc").write_text(GTEST_FILE, encoding="utf-8")
    binary = folder / "ecu_test"
    subprocess.run(["g++", "-std=c++17", str(folder / "ecu_test.cc"), "-lgtest", "-lgtest_main", "-pthread", "-o",
                    str(binary)], check=True, capture_output=True, timeout=600)
    subprocess.run([str(binary), f"--gtest_output=xml:{folder / 'gtest.xml'}"], capture_output=True, timeout=120)
    return folder / "gtest.xml"


def test_pytest_results_give_findings_on_the_verified_items_and_their_parents(pytest_results, capsys):
    status, out, err = run(capsys, "check", "docs", "--test-results", "results.xml")
    assert status == 1
    lines = out.splitlines()
    assert ("docs/spec.md:13:22: error [evidence/failed-test] FSR-1 is not verified: TC-2 failed on the last run: "
            "checks.test_ecu::test_tc_2_timing: AssertionError: limit applied after 70 ms; assert 50 > 60") in lines
    assert ("docs/spec.md:20:16: warning [evidence/no-result] FSR-2 is not verified: TC-3 has no passing result: "
            "checks.test_ecu::test_report was skipped") in lines
    assert any(line.startswith("docs/spec.md:3:4: error [evidence/failed-test] SG-1 is in question: FSR-1") for line in lines)
    assert not any("TC-1" in line.split("]")[1].split(":")[0] for line in lines if "evidence/" in line)  # TC-1 passed
    assert "1 of 4 test cases name no verification item: checks.test_ecu::test_unrelated" in err


def test_gtest_results_are_read_the_same_way(spec, capsys):
    gtest = build_gtest(spec)
    cases = {c.full_name: c for c in read(gtest)}
    assert cases["Torque::TC_1_Limit"].status == "passed"
    assert cases["Torque::Timing"].status == "failed" and cases["Torque::Timing"].ids == ("TC-2",)
    assert "limit applied after 70 ms" in cases["Torque::Timing"].message
    assert cases["Fault::DISABLED_TC_3_Report"].status == "skipped"
    status, out, _err = run(capsys, "check", "docs", "--test-results", str(gtest))
    assert status == 1 and "TC-2 failed on the last run: Torque::Timing: " in out
    assert "Expected: (70) < (50), actual: 70 vs 50; limit applied after 70 ms" in out
    assert "TC-3 has no passing result: Fault::DISABLED_TC_3_Report was skipped" in out


def test_the_passed_gate_and_a_missing_result(pytest_results, capsys):
    status, _out, err = run(capsys, "check", "docs", "--test-results", "results.xml", "--coverage-min", "FSR.passed=50")
    assert status == 1 and "coverage FSR.passed is 0% (0/2), below 50%: FSR-1, FSR-2" in err
    # Only TC-1 in the results: TC-2 and TC-3 did not run.
    pytest_results.write_text('<testsuite><testcase classname="c" name="test_TC_1"/></testsuite>', encoding="utf-8")
    status, out, _err = run(capsys, "check", "docs", "--test-results", "results.xml")
    assert "TC-2 did not run: no test case in the results names it" in out
    assert "TC-3 did not run" in out and "evidence/failed-test" not in out


def test_the_configuration_gives_results_and_an_id_pattern(spec, capsys):
    (spec / "safereq.toml").write_text('test-results = ["out/*.xml"]\ntest-id-pattern = "verifies_(tc_[0-9]+)"\n',
                                       encoding="utf-8")
    (spec / "out").mkdir()
    (spec / "out" / "a.xml").write_text(
        '<testsuites><testsuite><testcase classname="suite" name="verifies_tc_1"/>'
        '<testcase classname="suite" name="test_TC_2"/></testsuite></testsuites>', encoding="utf-8")
    status, out, err = run(capsys, "check", "docs")
    # The pattern's group, tc_1, is TC-1 written another way; with a pattern, names are not searched otherwise.
    assert "TC-1 did not run" not in out and "TC-2 did not run" in out and status == 0
    assert "1 of 2 test cases name no verification item: suite::test_TC_2" in err
    (spec / "safereq.toml").write_text('test-id-pattern = "no group"\n', encoding="utf-8")
    status, _out, err = run(capsys, "check", "docs")
    assert status == 2 and "needs a group" in err


def test_the_report_shows_each_result_and_lists_the_test_cases(pytest_results, capsys):
    status, _out, err = run(capsys, "report", "docs", "--test-results", "results.xml", "-o", "r", "--format", "json")
    assert status == 0 and "4 test results (1 unmatched)" in err
    body = json.loads(Path("r/report.json").read_text(encoding="utf-8"))
    results = {m["id"]: m["results"] for m in body["matrix"]}
    assert results["FSR-1"] == ["TC-1 passed", "TC-2 failed"] and results["FSR-2"] == ["TC-3 skipped"]
    assert [(t["name"], t["status"], t["items"]) for t in body["tests"]] == [
        ("checks.test_ecu::test_TC_1_torque_limit", "passed", ["TC-1"]),
        ("checks.test_ecu::test_tc_2_timing", "failed", ["TC-2"]),
        ("checks.test_ecu::test_report", "skipped", ["TC-3"]),
        ("checks.test_ecu::test_unrelated", "passed", [])]
    passed = [r for r in body["coverage"] if r["by"] == "all" and r["measure"] == "passed"]
    assert passed == [{"by": "all", "group": "all", "measure": "passed", "covered": 0, "total": 2, "percent": 0.0,
                       "holes": ["FSR-1", "FSR-2"]}]
    assert run(capsys, "report", "docs", "--test-results", "results.xml", "-o", "page")[0] == 0
    page = Path("page/index.html").read_text(encoding="utf-8")
    assert '<span class="result" data-result="failed">failed</span>' in page and 'id="test-table"' in page


HOSTILE = {
    "billion laughs": '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;'
                      '&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><testsuite><testcase name="&c;"/></testsuite>',
    "external entity": '<?xml version="1.0"?><!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                       '<testsuite><testcase name="&x;"/></testsuite>',
    "not xml": "this is not xml <",
    "truncated": "<testsuites><testsuite><testcase name='a'>",
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_result_files_are_refused_with_one_line(spec, capsys, name):
    (spec / "bad.xml").write_text(HOSTILE[name], encoding="utf-8")
    with pytest.raises(JUnitError) as caught:
        read(spec / "bad.xml")
    assert "bad.xml" in str(caught.value) and "root:" not in str(caught.value)
    status, out, err = run(capsys, "check", "docs", "--test-results", "bad.xml")
    assert status == 2 and "bad.xml" in err and "Traceback" not in err and "root:" not in out + err


def test_a_pattern_that_names_no_file_is_a_usage_error(spec, capsys):
    status, _out, err = run(capsys, "check", "docs", "--test-results", "nowhere/*.xml")
    assert status == 2 and "nowhere/*.xml: no such file" in err
