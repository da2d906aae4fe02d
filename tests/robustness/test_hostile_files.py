"""The CLI on hostile files: binary, invalid UTF-8, deeply nested, huge. Every file gives findings or an io
finding, never a traceback, an internal error or a hang (issue 12, robustness suite)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from .conftest import scale
from .fuzzers import hostile_bytes, nested_files

TIMEOUT = 120


def check(folder: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "safereq", "check", str(folder), "--format", "json", *extra],
                          capture_output=True, text=True, timeout=TIMEOUT, cwd=folder)


def assert_clean(result: subprocess.CompletedProcess) -> list[dict]:
    assert result.returncode in (0, 1), result.stderr[-2000:]
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr[-2000:]
    findings = json.loads(result.stdout)
    assert isinstance(findings, list)
    return findings


def test_deeply_nested_files_are_checked_or_reported(tmp_path):
    """A front matter nested 2,000 deep used to end in 'internal error: RecursionError' (after 15 s)."""
    files = nested_files(scale(2_000, 50_000))
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    findings = assert_clean(check(tmp_path))
    for name in ("front-matter-lists.md", "front-matter-flow.md"):  # PyYAML: recursion, and quadratic time
        (finding,) = [f for f in findings if f["path"].endswith(name) and f["rule"] == "format/front-matter"]
        assert "nested too deeply" in finding["message"]


def test_random_binary_and_badly_encoded_files(tmp_path):
    rng = random.Random(12)
    count = scale(40, 2_000)
    for i in range(count):
        (tmp_path / f"f{i}.md").write_bytes(hostile_bytes(rng))
    findings = assert_clean(check(tmp_path))
    io = {f["path"] for f in findings if f["rule"] in ("io/binary", "io/encoding")}
    assert len(io) >= count // 3  # the random-bytes and stray-byte files are refused, and said so


def test_a_huge_file_is_refused_or_checked_without_a_traceback(tmp_path):
    line = "The system shall report the state within 10 ms and keep it. "
    (tmp_path / "huge.md").write_text("# Huge\n\n## FSR-1: One line\n\n" + line * scale(12_000, 400_000) + "\n",
                                      encoding="utf-8")
    findings = assert_clean(check(tmp_path, "--max-file-size", "500KB"))
    assert [f["rule"] for f in findings] == ["io/too-large"]
    assert_clean(check(tmp_path, "--max-file-size", "1GB"))
