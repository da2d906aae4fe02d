"""A small requirement workspace in a real git repository, for the change-impact tests."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "impact-workspace"
GOALS = (FIXTURE / "goals.md").read_text(encoding="utf-8")
FSR = (FIXTURE / "fsr.md").read_text(encoding="utf-8")


class Repo:
    def __init__(self, root: Path) -> None:
        self.root = root

    def git(self, *args: str) -> str:
        env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
        return subprocess.run(["git", "-C", str(self.root), *args], check=True, capture_output=True, text=True,
                              env=env).stdout

    def write(self, name: str, text: str) -> None:
        (self.root / name).write_text(text, encoding="utf-8")

    def edit(self, name: str, old: str, new: str) -> None:
        text = (self.root / name).read_text(encoding="utf-8")
        assert old in text, old
        self.write(name, text.replace(old, new, 1))

    def commit(self, message: str) -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Repo:
    r = Repo(tmp_path)
    r.git("init", "-q", "-b", "main")
    r.write("safereq.toml", "")
    r.write("goals.md", GOALS)
    r.write("fsr.md", FSR)
    r.commit("requirements")
    monkeypatch.chdir(tmp_path)
    return r
