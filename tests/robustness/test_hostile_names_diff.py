"""``safereq diff`` reads the old documents right whatever the other changed files are called.

A commit that lowers SG-1 from ASIL D to QM and also touches a file with a hostile name (a newline, a tab, a
revision-looking ``HEAD:`` prefix …) must still report the ASIL change: the blobs are asked of git by object
id, so a name cannot shift the batch protocol and make the old ``goals.md`` be read from the new commit.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from safereq.cli.main import main

from .hostile_names import markdown_names

GOAL = "# Goals\n\n## SG-1: Avoid unintended steering\n\nThe system shall avoid unintended steering.\n\n- ASIL: {asil}\n"
NOTE = "# Notes\n\n## FSR-1: Note {n}\n\nThe system shall log {n}.\n\n- ASIL: QM\n- Derived from: SG-1\n"


def git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


# The names that speak to a line protocol (newline, carriage return, tab, a revision prefix); all legal on Linux.
NAMES = [n for n in markdown_names() if any(c in n for c in ("\n", "\r", "\t", "HEAD:"))]


@pytest.mark.parametrize("name", NAMES, ids=repr)
def test_an_asil_lowered_beside_a_hostile_name_is_reported(tmp_path, monkeypatch, capsys, name):
    (tmp_path / "safereq.toml").write_text("", encoding="utf-8")
    (tmp_path / "a.md").write_text(GOAL.format(asil="D"), encoding="utf-8")
    (tmp_path / name).write_text(NOTE.format(n=1), encoding="utf-8")
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "one")
    (tmp_path / "a.md").write_text(GOAL.format(asil="QM"), encoding="utf-8")
    (tmp_path / name).write_text(NOTE.format(n=2), encoding="utf-8")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "lower SG-1")
    monkeypatch.chdir(tmp_path)
    assert main(["diff", "--format", "json", "HEAD~1", "HEAD"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["asil_changes"] == [{"id": "SG-1", "old": "D", "new": "QM"}]
