"""Helpers for the CLI tests: a small realistic workspace on disk and an in-process ``safereq`` runner."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from safereq.cli.main import main

GOALS = """\
# Lane keeping: safety goals

| ID | Hazardous event | S | E | C | ASIL | Safety goal |
|---|---|---|---|---|---|---|
| HE-1 | Unintended steering torque at highway speed | S3 | E4 | C3 | D | SG-1 |

## SG-1: Avoid unintended steering torque
The steering system shall not apply a steering torque that the driver did not request.
- ASIL: D
"""

FSRS = """\
---
kind: FSR
---
# Functional safety requirements: steering

## FSR-STR-1: Limit the steering torque request
The steering arbiter shall limit the requested steering torque to 3 Nm.
- ASIL: D
- Derived from: SG-1

## fsr-str-2: Detect an implausible torque request
The steering arbiter shall reject a torque request whose message counter did not change.
- ASIL: D
- Derived from: SG-1
"""


@dataclass
class Result:
    status: int
    out: str
    err: str

    def json(self):
        return json.loads(self.out)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder (the working directory) with docs/goals.md and docs/fsr.md."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "goals.md").write_text(GOALS, encoding="utf-8")
    (docs / "fsr.md").write_text(FSRS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def safereq(capsys: pytest.CaptureFixture[str]):
    """Run ``safereq ARGS`` in-process; returns exit status, stdout and stderr."""

    def run(*args: str) -> Result:
        try:
            status = main(list(args))
        except SystemExit as exc:  # argparse usage errors
            status = exc.code if isinstance(exc.code, int) else 2
        captured = capsys.readouterr()
        return Result(status, captured.out, captured.err)

    return run


@pytest.fixture
def safereq_executable() -> Path:
    """The installed console script of the interpreter running the tests (the real ``safereq`` command)."""
    path = Path(sys.executable).parent / ("safereq.exe" if os.name == "nt" else "safereq")
    assert path.exists(), f"{path} missing: install the package (pip install -e .)"
    return path
