"""The package and its data as they were at an earlier commit, for benchmarks that run both versions side by
side (each in its own process, with its own ``PYTHONPATH`` or ``sys.path``)."""

from __future__ import annotations

import subprocess
import tarfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def unpack(rev: str, into: Path) -> Path:
    """``server/`` and ``rules/`` of ``rev`` extracted under ``into`` (made; it must not exist yet)."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "server", "rules"], check=True,
                          capture_output=True).stdout
    into.mkdir(parents=True)
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into
