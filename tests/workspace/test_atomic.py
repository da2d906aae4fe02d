"""Atomic writes never go through a symbolic link, and clean up after a writer killed mid-write (issue 25,
item 12): ``report -o DIR`` wrote through links planted in DIR, outside it; kill -9 during ``review --all``
or ``check --fix`` left ``*.safereq-tmp`` files that nothing removed."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from safereq.cli.main import main
from safereq.workspace.atomic import remove_stale, write_atomically

GOALS = "# Goals\n\n## SG-1: Goal\n\nThe vehicle shall stop.\n\n- ASIL: D\n\n## FSR-1: Stop\n\nThe ECU shall stop.\n\n" \
        "- ASIL: D\n- Derived from: SG-1\n"
# A writer that creates its locked temporary file, says so, and waits to be killed.
HOLDER = """
import sys
from pathlib import Path
from safereq.workspace.atomic import _locked_temporary
fd, tmp = _locked_temporary(Path(sys.argv[1]))
print(tmp, flush=True)
sys.stdin.read()
"""


@pytest.mark.parametrize("fmt, names", [("html", ["index.html"]), ("json", ["report.json"]),
                                        ("csv", ["coverage.csv", "holes.csv", "matrix.csv"]),
                                        ("xlsx", ["report.xlsx"])])
def test_the_report_replaces_a_link_in_its_folder_instead_of_writing_through_it(tmp_path, monkeypatch, capsys,
                                                                                 fmt, names):
    (tmp_path / "goals.md").write_text(GOALS, encoding="utf-8")
    outside = tmp_path / "outside.txt"
    outside.write_text("not the report's", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    for name in names:
        (out / name).symlink_to(outside)
    monkeypatch.chdir(tmp_path)
    assert main(["report", "goals.md", "-o", "out", "--format", fmt]) == 0, capsys.readouterr().err
    assert outside.read_text(encoding="utf-8") == "not the report's"
    for name in names:
        assert not (out / name).is_symlink() and (out / name).stat().st_size > 0


def _killed_writer(target: Path) -> Path:
    """The temporary file of a writer of ``target`` killed with SIGKILL before its rename."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.Popen([sys.executable, "-c", HOLDER, str(target)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, env=env)
    tmp = Path(child.stdout.readline().strip())
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=120)
    child.stdin.close()
    child.stdout.close()
    assert tmp.exists() and tmp.name.startswith(f".{target.name}.") and tmp.name.endswith(".safereq-tmp")
    return tmp


def test_the_next_write_removes_what_a_killed_writer_left(tmp_path):
    target = tmp_path / "safereq-review.jsonl"
    stale = _killed_writer(target)
    write_atomically(target, b"new\n")
    assert target.read_bytes() == b"new\n" and not stale.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["safereq-review.jsonl"]


def test_a_temporary_file_a_live_writer_holds_and_other_files_are_kept(tmp_path):
    held = tmp_path / ".fsr.md.abcd1234.safereq-tmp"
    held.write_bytes(b"being written")
    others = [tmp_path / "fsr.md.safereq-tmp", tmp_path / ".fsr.md.not-ours-at-all.safereq-tmp",
              tmp_path / "fsr.md", tmp_path / ".fsr.md.abcd1234.safereq-tmp.bak"]
    for path in others:
        path.write_bytes(b"not ours")
    (tmp_path / ".link.md.abcd1234.safereq-tmp").symlink_to(tmp_path / "fsr.md")
    with open(held, "rb") as writer:
        fcntl.flock(writer, fcntl.LOCK_EX)  # another open file description: as another process would hold it
        assert remove_stale(tmp_path) == []
    assert held.exists() and all(p.exists() for p in others)
    assert remove_stale(tmp_path) == [held]  # released: stale now
    assert (tmp_path / ".link.md.abcd1234.safereq-tmp").is_symlink()


def test_review_all_after_a_kill_leaves_no_temporary_file(tmp_path, capsys):
    (tmp_path / "goals.md").write_text(GOALS, encoding="utf-8")
    stale = _killed_writer(tmp_path / "safereq-review.jsonl")
    assert main(["review", "--all", str(tmp_path)]) == 0, capsys.readouterr().err
    assert not stale.exists() and not list(tmp_path.glob("*.safereq-tmp")) + list(tmp_path.glob(".*.safereq-tmp"))
