"""The list of accepted deviations an assessor asks for: where, which rule, why, and who wrote it when.

The deviations are read from the documents (checks/engine/deviations.py reads the same lines); who wrote
each one and in which commit comes from ``git blame`` of its line, one call per document, where the
document is in a git repository and the line is committed. Without git, outside a repository or for a line
not yet committed the fields stay empty: the list is still complete.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from ..checks.engine.deviations import deviations
from ..workspace import Workspace

GIT_TIMEOUT = 120
_UNCOMMITTED = "0" * 40


@dataclass(frozen=True, slots=True)
class DeviationRow:
    item: str
    rule: str
    words: str | None
    reason: str
    document: str
    line: int  # 1-based, as editors and git show it
    commit: str | None = None
    author: str | None = None
    date: str | None = None  # the author date, ISO 8601 in UTC


def collect(workspace: Workspace, *, blame: bool = True) -> list[DeviationRow]:
    """Every deviation of the workspace, by document and line, with its commit and author where git knows them."""
    out: list[DeviationRow] = []
    for path in sorted(workspace.documents):
        found = deviations(workspace.documents[path])
        if not found:
            continue
        lines = [dev.span.start_line + 1 for _item, dev in found]
        who = _blame(Path(path), lines) if blame else {}
        for (_item, dev), line in zip(found, lines):
            commit, author, date = who.get(line, (None, None, None))
            out.append(DeviationRow(dev.item_id, dev.rule, dev.words, dev.reason, path, line, commit, author, date))
    return out


def _blame(path: Path, lines: Iterable[int]) -> dict[int, tuple[str, str, str]]:
    """line -> (commit, author, date) of the committed ones among ``lines`` of ``path``; {} when git cannot say."""
    wanted = sorted(set(lines))
    args = ["git", "-C", str(path.parent if str(path.parent) else "."), "blame", "--porcelain"]
    for line in wanted:
        args += ["-L", f"{line},{line}"]
    try:
        done = subprocess.run([*args, "--", path.name], capture_output=True, timeout=GIT_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    if done.returncode != 0:
        return {}
    return _parse(done.stdout.decode("utf-8", "replace"))


def _parse(porcelain: str) -> dict[int, tuple[str, str, str]]:
    """``git blame --porcelain`` output as line -> (commit, author, date); a commit's headers come only with
    its first line, so they are remembered by commit."""
    authors: dict[str, str] = {}
    times: dict[str, str] = {}
    out: dict[int, tuple[str, str, str]] = {}
    current: str | None = None
    pending: list[tuple[int, str]] = []
    for text in porcelain.split("\n"):
        if text.startswith("\t"):
            continue
        head, _, rest = text.partition(" ")
        if len(head) == 40 and all(c in "0123456789abcdef" for c in head):
            fields = rest.split()
            current = head
            if len(fields) >= 2 and fields[1].isdigit():
                pending.append((int(fields[1]), head))
        elif current is not None and head == "author":
            authors[current] = rest
        elif current is not None and head == "author-time" and rest.isdigit():
            times[current] = datetime.fromtimestamp(int(rest), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    for line, commit in pending:
        if commit != _UNCOMMITTED:
            out[line] = (commit, authors.get(commit, ""), times.get(commit, ""))
    return out
