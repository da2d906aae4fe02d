"""``safereq check --fragment`` and ``safereq merge``: the union checked in one run and the merge of its parts'
fragments give the same findings; fragments are stable, reused when unchanged, and refused when broken."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from safereq.cli.main import main

EXAMPLE_REPOS = {
    "goals-repo/goals.md": """# Safety goals

## SG-1: Avoid unintended steering torque

The lane centering assist shall not apply unintended steering torque.

- ASIL: D

## SG-1: Duplicate of the goal

The system shall keep the lane.

- ASIL: B
""",
    "fsr-repo/fsr.md": """# Functional safety requirements

## FSR-1: Limit the torque

The torque arbiter shall limit the steering torque request to 3 Nm.

- ASIL: C
- Derived from: SG-1
- Verified by: TC-9

## FSR-2: Detect implausible requests

The torque arbiter should detect an implausible torque request within 20 ms.

- ASIL: D
- Derived from: SG-7
""",
    "fsr-repo/more/tsr.md": """# Technical safety requirements

## TSR-1: Check the sensor

The torque sensor monitor shall check the sensor signal every 10 ms.

- ASIL: B
- Derived from: FSR-1
""",
}


@pytest.fixture
def programme(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for rel, text in EXAMPLE_REPOS.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def findings(capsys, argv: list[str]) -> tuple[int, list[dict]]:
    code = main([*argv, "--format", "json", "-q"])
    return code, json.loads(capsys.readouterr().out)


def test_merge_of_the_parts_equals_one_run_over_the_union(programme: Path, capsys):
    union_code, union = findings(capsys, ["check", "goals-repo", "fsr-repo"])
    assert union_code == 1
    rules = {f["rule"] for f in union}
    # rules that need both repositories, and local ones
    assert {"trace/duplicate-id", "trace/dangling-link", "asil/lower-than-parent", "modal/non-binding-verb"} <= rules
    for repo in ("goals-repo", "fsr-repo"):
        assert main(["check", repo, "--fragment", f"{repo}.json", "-q", "--format", "json"]) in (0, 1)
        capsys.readouterr()
    code, merged = findings(capsys, ["merge", "goals-repo.json", "fsr-repo.json"])
    assert code == union_code
    assert merged == union


def test_a_part_alone_misses_what_only_the_merge_sees(programme: Path, capsys):
    def dangling(found: list[dict]) -> set[str]:
        return {f["message"].split(" names ")[1].split(",")[0] for f in found if f["rule"] == "trace/dangling-link"}

    _, alone = findings(capsys, ["check", "fsr-repo", "--fragment", "fsr.json"])
    assert dangling(alone) == {"SG-1", "SG-7", "TC-9"}
    main(["check", "goals-repo", "--fragment", "goals.json", "-q"])
    capsys.readouterr()
    _, merged = findings(capsys, ["merge", "goals.json", "fsr.json"])
    assert dangling(merged) == {"SG-7", "TC-9"}  # SG-1 lives in the other repository
    assert [f["path"] for f in merged if f["rule"] == "modal/non-binding-verb"] == ["fsr-repo/fsr.md"]
    assert {f["path"] for f in merged if f["rule"] == "asil/lower-than-parent"} == {"fsr-repo/fsr.md", "fsr-repo/more/tsr.md"}


def test_fragments_are_stable_and_reused_when_nothing_changed(programme: Path, capsys):
    assert main(["check", "fsr-repo", "--fragment", "f.json", "-q"]) == 1
    first = (programme / "f.json").read_bytes()
    data = json.loads(first)
    assert data["format"] == "safereq-fragment" and data["source"] == "fsr-repo"
    assert [d["path"] for d in data["documents"]] == ["fsr.md", "more/tsr.md"]
    assert {i["id"]: i["links"] for i in data["items"]}["FSR-1"] == {"derived-from": ["SG-1"], "verified-by": ["TC-9"]}
    assert {f["scope"] for f in data["findings"]} == {"local", "workspace"}
    # reused: a fragment for the same inputs is not checked again, nor written again
    mtime = (programme / "f.json").stat().st_mtime_ns
    main(["check", "fsr-repo", "--fragment", "f.json", "-q"])
    assert (programme / "f.json").stat().st_mtime_ns == mtime
    # but never one edited since it was written (its seal no longer holds): checked and written again
    data["findings"][0]["message"] = "marker"
    (programme / "f.json").write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    _, again = findings(capsys, ["check", "fsr-repo", "--fragment", "f.json"])
    assert "marker" not in {f["message"] for f in again} and (programme / "f.json").read_bytes() == first
    # a changed document makes a new fragment, byte for byte the same as a fresh one
    (programme / "fsr-repo" / "fsr.md").write_text(EXAMPLE_REPOS["fsr-repo/fsr.md"] + "\n", encoding="utf-8")
    main(["check", "fsr-repo", "--fragment", "f.json", "-q"])
    (programme / "fsr-repo" / "fsr.md").write_text(EXAMPLE_REPOS["fsr-repo/fsr.md"], encoding="utf-8")
    main(["check", "fsr-repo", "--fragment", "f.json", "-q"])
    assert (programme / "f.json").read_bytes() == first


def test_gzip_and_sarif_output(programme: Path, capsys):
    main(["check", "goals-repo", "--fragment", "g.json.gz", "-q"])
    main(["check", "fsr-repo", "--fragment", "f.json.gz", "-q"])
    capsys.readouterr()
    assert (programme / "g.json.gz").read_bytes()[:2] == b"\x1f\x8b"
    assert main(["merge", "g.json.gz", "f.json.gz", "--format", "sarif", "-q"]) == 1
    sarif = json.loads(capsys.readouterr().out)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
    assert uris == {"goals-repo/goals.md", "fsr-repo/fsr.md", "fsr-repo/more/tsr.md"}


@pytest.mark.parametrize("content, message", [
    (b"{not json", "not a fragment (not JSON)"),
    (b'{"format": "x"}', "not a safereq fragment"),
    (b'{"format": "safereq-fragment", "version": 9}', "fragment version 9 is not supported"),
    (b'{"format": "safereq-fragment", "version": 1}', "fragment version 1 is not supported"),
    (b'{"format": "safereq-fragment", "version": 2}', "its seal does not match its content"),
    (b"\x1f\x8b\x08garbage", "cannot be read"),
])
def test_broken_fragments_are_a_clear_message(programme: Path, capsys, content: bytes, message: str):
    (programme / "bad.json").write_bytes(content)
    assert main(["merge", "bad.json"]) == 2
    assert message in capsys.readouterr().err


def test_two_fragments_with_the_same_name_are_refused(programme: Path, capsys):
    main(["check", "fsr-repo", "--fragment", "a.json", "-q"])
    shutil.copy(programme / "a.json", programme / "b.json")
    capsys.readouterr()
    assert main(["merge", "a.json", "b.json"]) == 2
    assert "give each repository its own --fragment-name" in capsys.readouterr().err


def test_documents_with_any_line_ends_and_a_bom_merge(tmp_path: Path, monkeypatch, capsys):
    """Each document's text is verified against the text digest the fragment carries, whatever the file's
    bytes were (a byte-order mark, CRLF, lone CRs, a mix)."""
    repo = tmp_path / "r"
    repo.mkdir()
    (repo / "a.md").write_bytes(b"\xef\xbb\xbf# A\r\n\r\n## FSR-1: X\r\n\r\nThe system shall stop.\r\n\r\n- ASIL: B\r\n")
    (repo / "b.md").write_bytes(b"# B\r\r## FSR-2: Y\r\rThe system shall go.\r\r- ASIL: B\r")
    (repo / "c.md").write_bytes(b"# C\n\n## FSR-3: Z\r\n\nThe system shall wait.\r- ASIL: A\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "r", "--fragment", "f.json", "-q"]) == 0
    capsys.readouterr()
    assert main(["merge", "f.json", "-q"]) == 0, capsys.readouterr().err
