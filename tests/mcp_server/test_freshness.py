"""The server keeps its workspace current from the disk: edits, new and deleted files, configuration.

Each write moves the file's modification time on explicitly, so the change is seen however coarse the file
system's clock is (the server compares time, size and inode, not content).
"""

from __future__ import annotations

import os
from pathlib import Path

from .conftest import call, serve


def write(path: Path, text: str) -> None:
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    later = max(before, path.stat().st_mtime_ns) + 2_000_000_000
    os.utime(path, ns=(later, later))


async def test_edits_new_and_deleted_files_are_seen_on_the_next_call(workspace):
    fsc = workspace / "functional-safety-concept.md"
    async with serve(workspace) as client:
        first = await call(client, "get_item", {"id": "FSR-1"})
        assert "3.0 Nm" in first["untrusted_statement"]
        write(fsc, fsc.read_text(encoding="utf-8").replace("to 3.0 Nm.", "to 2.5 Nm.", 1))
        assert "2.5 Nm" in (await call(client, "get_item", {"id": "FSR-1"}))["untrusted_statement"]

        write(workspace / "extra.md", "# Extra\n\n## REQ-7: A new requirement\nThe logger should record faults.\n\n"
                                      "- Derived from: NOPE-9\n")
        found = await call(client, "find_items", {"id": "REQ-7"})
        assert found["items"][0]["location"]["path"] == "extra.md"
        extra = await call(client, "check", {"path": "extra.md", "limit": 200})
        assert {"trace/dangling-link"} <= {f["rule"] for f in extra["findings"]}

        (workspace / "extra.md").unlink()
        assert (await call(client, "find_items", {"id": "REQ-7"}))["total"] == 0
        after = await call(client, "check", {"limit": 200})
        assert all(f["path"] != "extra.md" for f in after["findings"])


async def test_a_configuration_change_applies_to_the_next_check(workspace):
    async with serve(workspace) as client:
        before = await call(client, "check", {"rule": "wording/vague-term", "limit": 200})
        assert before["total"] > 0
        write(workspace / "safereq.toml", '[rules]\n"wording/vague-term" = "off"\n')
        assert (await call(client, "check", {"rule": "wording/vague-term", "limit": 200}))["total"] == 0
        write(workspace / "safereq.toml", '[rules]\n"wording/vague-trem" = "off"\n')
        broken = await call(client, "check", {"rule": "wording/vague-term", "limit": 200})
        assert broken["notes"] and "vague-trem" in broken["notes"][0]
        assert broken["total"] == before["total"]  # a broken configuration: the defaults, and a note


async def test_an_unreadable_document_is_a_finding_not_a_failure(workspace):
    async with serve(workspace) as client:
        (workspace / "binary.md").write_bytes(b"# X\0\0\0")
        found = await call(client, "check", {"rule": "io", "limit": 200})
        assert [(f["path"], f["rule"]) for f in found["findings"]] == [("binary.md", "io/binary")]


async def test_coverage_follows_an_edit_though_it_is_kept_between_calls(workspace):
    fsc = workspace / "functional-safety-concept.md"
    async with serve(workspace) as client:
        before = await call(client, "coverage", {"limit": 200})
        assert ("FSR-1", "verified") not in {(h["id"], h["measure"]) for h in before["holes"]}
        assert await call(client, "coverage", {"limit": 200}) == before  # unchanged: the kept answer
        write(fsc, fsc.read_text(encoding="utf-8").replace("- Verified by: TC-1\n", "", 1))
        after = await call(client, "coverage", {"limit": 200})
        assert ("FSR-1", "verified") in {(h["id"], h["measure"]) for h in after["holes"]}


async def test_excludes_and_kinds_of_a_new_configuration_apply(workspace):
    config = workspace / "safereq.toml"
    async with serve(workspace) as client:
        assert (await call(client, "find_items", {"id": "TC-1"}))["total"] == 1
        write(config, 'exclude = ["verification.md"]\n')
        assert (await call(client, "find_items", {"id": "TC-1"}))["total"] == 0
        write(workspace / "extra.md", "# Extra\n\n## SYSR-1: System requirement\nThe system shall log faults.\n")
        before = await call(client, "find_items", {"id": "SYSR-1"})
        assert before["items"][0]["category"] != "safety-requirement"
        write(config, '[kinds]\nSYSR = { name = "system requirement", category = "safety-requirement" }\n')
        found = await call(client, "find_items", {"kind": "safety-requirement", "id": "SYSR-*"})
        assert [i["id"] for i in found["items"]] == ["SYSR-1"]
        assert (await call(client, "find_items", {"id": "TC-1"}))["total"] == 1  # no longer excluded
