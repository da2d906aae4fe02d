"""``review``, ``check`` and ``diff`` refuse a review file that is not a regular file, at once (issue 25, item 8).

A named pipe in place of ``safereq-review.jsonl`` used to block every command that reads it for good (the
read waits for a writer), and a link to ``/dev/zero`` would read without end. Each kind is made for real and
each command runs as its own process, bounded by a generous timeout, so a hang fails the test instead of
stopping the suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "impact-workspace"
NAME = "safereq-review.jsonl"


def _fifo(p: Path) -> None:
    os.mkfifo(p)


def _folder(p: Path) -> None:
    p.mkdir()


def _link_to_zero(p: Path) -> None:
    p.symlink_to("/dev/zero")


def _link_to_fifo(p: Path) -> None:
    os.mkfifo(p.with_name("pipe"))
    p.symlink_to("pipe")


KINDS = {"named pipe": _fifo, "folder": _folder, "link to /dev/zero": _link_to_zero, "link to a pipe": _link_to_fifo}
COMMANDS = (["check", "."], ["review"], ["review", "--all"], ["diff"])


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    for doc in FIXTURE.glob("*.md"):
        (tmp_path / doc.name).write_text(doc.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "safereq.toml").write_text("", encoding="utf-8")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org"}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "requirements"]):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True, env=env)
    return tmp_path


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
@pytest.mark.parametrize("kind", list(KINDS))
def test_a_review_file_that_is_not_a_regular_file_is_refused_at_once(workspace, kind):
    KINDS[kind](workspace / NAME)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "server")}
    for args in COMMANDS:
        done = subprocess.run([sys.executable, "-m", "safereq", *args], cwd=workspace, capture_output=True, text=True,
                              env=env, timeout=120)
        assert done.returncode == 2, (args, done.stderr)
        assert f"{NAME}: not a regular file" in done.stderr and "Traceback" not in done.stderr, (args, done.stderr)
