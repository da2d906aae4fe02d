"""``safereq check --baseline``: today's findings are recorded, later runs report only new ones; fingerprints
survive moved lines and edits elsewhere in the item; ``--update-baseline`` only removes entries unless
``=all``; the configuration's ``baseline`` works the same; a broken file is a clear usage error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DOC = """# Requirements

## SG-1: Avoid unintended steering
The steering system shall not apply unintended torque.

- ASIL: B

### FSR-1: Warn the driver
The ECU must warn the driver quickly.

- ASIL: B
- Derived from: SG-1

### FSR-2: Limit the torque
The ECU shall limit the torque to 3 Nm within 50 ms.

- ASIL: B
- Derived from: SG-1
"""


@pytest.fixture
def spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "fsr.md").write_text(DOC, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "docs" / "fsr.md"


def rules(out: str) -> list[str]:
    return sorted(line.split("[", 1)[1].split("]", 1)[0] for line in out.splitlines() if "[" in line)


def test_a_missing_baseline_is_created_and_the_next_run_reports_nothing(spec, safereq):
    first = safereq("check", "docs", "--baseline", "baseline.json")
    assert first.status == 0 and first.out == ""
    assert "recorded 2 findings in the new baseline baseline.json" in first.err
    body = json.loads(Path("baseline.json").read_text(encoding="utf-8"))
    assert body["schema"] == "safereq-baseline" and body["version"] == 1
    assert [(e["path"], e["rule"], e["item"], e["text"], e["count"]) for e in body["findings"]] == [
        ("docs/fsr.md", "modal/non-standard-verb", "FSR-1", "must", 1),
        ("docs/fsr.md", "wording/vague-term", "FSR-1", "quickly", 1)]
    again = safereq("check", "docs", "--baseline", "baseline.json")
    assert again.status == 0 and again.out == "" and "; 2 in the baseline" in again.err


def test_fingerprints_survive_moved_lines_and_edits_elsewhere_in_the_item(spec, safereq):
    safereq("check", "docs", "--baseline", "baseline.json")
    text = DOC.replace("# Requirements\n", "# Requirements\n\nIntroduction.\n\n## REQ-9: New\nThe ECU shall log.\n\n")
    text = text.replace("The ECU must warn the driver quickly.", "On a fault, the ECU must warn the driver quickly.")
    text = text.replace("- Derived from: SG-1\n\n### FSR-2", "- Derived from: SG-1\n- Status: draft\n\n### FSR-2")
    spec.write_text(text, encoding="utf-8")
    result = safereq("check", "docs", "--baseline", "baseline.json")
    assert result.out == "" and "; 2 in the baseline" in result.err
    # A new finding (another vague term, even in the same item and of the same rule) is reported.
    spec.write_text(text.replace("warn the driver quickly", "warn the driver quickly and soon"), encoding="utf-8")
    result = safereq("check", "docs", "--baseline", "baseline.json")
    assert result.status == 0 and "'soon'" in result.out and rules(result.out) == ["wording/vague-term"]
    # The same words twice in one item: the second one is new.
    spec.write_text(text.replace("Limit the torque\nThe ECU shall", "Limit the torque\nThe ECU must"), encoding="utf-8")
    assert rules(safereq("check", "docs", "--baseline", "baseline.json").out) == ["modal/non-standard-verb"]


def test_update_only_removes_fixed_entries_unless_all(spec, safereq):
    safereq("check", "docs", "--baseline", "baseline.json")
    spec.write_text(DOC.replace("must warn the driver quickly", "shall warn the driver soon"), encoding="utf-8")
    result = safereq("check", "docs", "--baseline", "baseline.json", "--update-baseline")
    assert "baseline baseline.json: 2 removed, 0 kept" in result.err
    assert rules(result.out) == ["wording/vague-term"]  # 'soon' is new: reported, not added
    assert json.loads(Path("baseline.json").read_text(encoding="utf-8"))["findings"] == []
    result = safereq("check", "docs", "--baseline", "baseline.json", "--update-baseline=all")
    assert "1 added, 1 kept" in result.err and result.out == ""
    assert [e["text"] for e in json.loads(Path("baseline.json").read_text(encoding="utf-8"))["findings"]] == ["soon"]


def test_the_configuration_names_the_baseline_relative_to_its_folder(spec, safereq, tmp_path, monkeypatch):
    (tmp_path / "safereq.toml").write_text('baseline = "ci/baseline.json"\n', encoding="utf-8")
    (tmp_path / "ci").mkdir()
    safereq("check", "docs")
    assert (tmp_path / "ci" / "baseline.json").is_file()
    monkeypatch.chdir(tmp_path / "docs")  # another working directory: the paths are the baseline's own
    result = safereq("check", ".")
    assert result.out == "" and "; 2 in the baseline" in result.err
    assert json.loads((tmp_path / "ci" / "baseline.json").read_text(encoding="utf-8"))["findings"][0]["path"] == "../docs/fsr.md"


@pytest.mark.parametrize("content", ['{"schema": "other"}', "[1, 2", '{"schema": "safereq-baseline", "version": 1, '
                                     '"findings": [{"path": 1}]}', "[" * 100_000])
def test_a_broken_baseline_is_a_usage_error(spec, safereq, content):
    Path("baseline.json").write_text(content, encoding="utf-8")
    result = safereq("check", "docs", "--baseline", "baseline.json")
    assert result.status == 2 and "baseline" in result.err and "Traceback" not in result.err


def test_update_baseline_needs_a_baseline(spec, safereq):
    result = safereq("check", "docs", "--update-baseline")
    assert result.status == 2 and "--update-baseline needs a baseline" in result.err
