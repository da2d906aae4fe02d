"""DiskMirror keeps a workspace equal to the files on disk, reading again only what changed."""

from __future__ import annotations

import os
from pathlib import Path

from safereq.workspace import Workspace
from safereq.workspace.disk import DiskMirror
from safereq.workspace.loader import Excluder

A = "# A\n\n## REQ-1: First\nThe unit shall start.\n\n## REQ-2: Second\nThe unit shall stop.\n"
B = "# B\n\n## REQ-3: Third\nThe unit shall wait.\n"


def write(path: Path, text: str) -> None:
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    later = max(before, path.stat().st_mtime_ns) + 2_000_000_000  # a new stamp however coarse the clock
    os.utime(path, ns=(later, later))


def test_refresh_reads_new_changed_and_removed_files_only(tmp_path, monkeypatch):
    from safereq.workspace import disk

    reads: list[str] = []
    real = disk.read_source
    monkeypatch.setattr(disk, "read_source", lambda path, **kw: reads.append(path.name) or real(path, **kw))
    write(tmp_path / "a.md", A)
    write(tmp_path / "b.md", B)
    ws = Workspace()
    mirror = DiskMirror(ws, [tmp_path], cwd=tmp_path)
    assert mirror.refresh() == ["a.md", "b.md"]
    assert sorted(ws.documents) == ["a.md", "b.md"]
    b_doc = ws.documents["b.md"]

    assert reads == ["a.md", "b.md"]
    assert mirror.refresh() == [] and mirror.generation == 1 and len(reads) == 2  # nothing changed: nothing read
    write(tmp_path / "a.md", A.replace("shall start", "shall start at once"))
    assert mirror.refresh() == ["a.md"] and reads[2:] == ["a.md"]
    assert ws.documents["b.md"] is b_doc
    assert ws.item("REQ-1").statement.text == "The unit shall start at once."

    (tmp_path / "b.md").unlink()
    assert mirror.refresh() == ["b.md"] and ws.item("REQ-3") is None


def test_unreadable_files_become_problems_and_excludes_and_refusals_apply(tmp_path):
    write(tmp_path / "a.md", A)
    (tmp_path / "bad.md").write_bytes(b"\xff\xfe not utf-8")
    (tmp_path / "drafts").mkdir()
    write(tmp_path / "drafts" / "d.md", B)
    write(tmp_path / "refused.md", B)
    ws = Workspace()
    mirror = DiskMirror(ws, [tmp_path], cwd=tmp_path, excluder=Excluder(["drafts/**"], tmp_path),
                        accept=lambda p: p.name != "refused.md")
    mirror.refresh()
    assert sorted(ws.documents) == ["a.md"]
    assert {k: p.code for k, p in mirror.problems.items()} == {"bad.md": "io/encoding"}
    write(tmp_path / "bad.md", B)
    mirror.refresh()
    assert mirror.problems == {} and sorted(ws.documents) == ["a.md", "bad.md"]
