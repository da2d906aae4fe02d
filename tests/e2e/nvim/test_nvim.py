"""Neovim (headless, Debian's package) as a second real LSP client: it opens a workspace, receives the
diagnostics, and answers a hover and a go-to-definition, through init.lua. Positions are checked against the
files: Neovim turns the server's UTF-16 columns into byte columns, so Chinese text must land exactly."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
NVIM = shutil.which("nvim")

pytestmark = pytest.mark.skipif(NVIM is None, reason="Neovim is not installed (apt-get install neovim)")


def run_nvim(root: Path, files: list[str], at: str | None = None) -> list[str]:
    env = {**os.environ, "SAFEREQ_NVIM_PYTHON": sys.executable, "SAFEREQ_NVIM_ROOT": str(root),
           "SAFEREQ_NVIM_FILES": ";".join(files), "SAFEREQ_LSP_DEBOUNCE_MS": "20"}
    if at:
        env["SAFEREQ_NVIM_AT"] = at
    proc = subprocess.run([NVIM, "--headless", "--clean", "-u", str(HERE / "init.lua")], env=env,
                          capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and lines[-1] == "RESULT ok", proc.stdout + proc.stderr
    return lines


def diagnostics(lines: list[str]) -> list[tuple[str, int, int, int, str, str, str]]:
    out = []
    for line in lines:
        if line.startswith("DIAG "):
            rel, lnum, col, severity, source, code, message = line[5:].split("\t")
            out.append((rel, int(lnum), int(col), int(severity), source, code, message))
    return out


def test_examples_diagnostics_land_on_the_flagged_words():
    root = REPO / "examples"
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.md"))
    found = diagnostics(run_nvim(root, files))
    print("\n".join(f"{r}:{ln + 1}:{c} {code}: {msg}" for r, ln, c, _s, _src, code, msg in found))
    assert found and all(source == "safereq" and "/" in code for _r, _l, _c, _s, source, code, _m in found)
    quoted = 0
    for rel, lnum, col, _severity, _source, _code, message in found:
        if message.startswith("'"):
            word = message[1:message.index("'", 1)]
            line = (root / rel).read_text(encoding="utf-8").split("\n")[lnum]
            prefix = line.encode("utf-8")[:col].decode("utf-8")  # Neovim columns are bytes
            assert line[len(prefix):].startswith(word), (rel, lnum, col, word)
            quoted += 1
    assert quoted >= 1


def test_fixture_workspace_hover_definition_and_cross_file_diagnostics(tmp_path: Path):
    root = tmp_path / "system"
    shutil.copytree(REPO / "tests" / "lsp" / "fixtures" / "system", root)
    text = (root / "fsr.md").read_text(encoding="utf-8").split("\n")
    link_line = next(i for i, t in enumerate(text) if t == "- Derived from: SG-1")
    lines = run_nvim(root, ["fsr.md", "goals.md"], at=f"fsr.md:{link_line}:17")
    found = diagnostics(lines)
    dangling = [d for d in found if d[5] == "trace/dangling-link"]
    assert [(d[0], text[d[1]][d[2]:d[2] + 4]) for d in dangling] == [("fsr.md", "SG-9")]
    assert any(line.startswith("HOVER **SG-1** · safety goal · ASIL D") for line in lines)
    goals_line = (root / "goals.md").read_text(encoding="utf-8").split("\n").index(
        "## SG-1: Avoid a collision with a pedestrian caused by a missed detection")
    assert f"DEFINITION {(root / 'goals.md').as_uri()}\t{goals_line}" in lines
