"""The review file: which version of each link's target the linking item was last reviewed against.

Why a committed file rather than a fingerprint written onto each link (``Derived from: SG-1 @3f2a9c``):
the documents stay as engineers write them (no hashes in the prose that reviewers read, nothing that an
editor's rename or a merge of two branches has to keep in step), the file is written only by safereq, and
it diffs well: one line per link and one line per recorded version of a target, sorted, so marking one link
reviewed changes one line and two branches that review different links merge without conflict. A snapshot
keeps the target's values as they were reviewed, so a suspect link can say what changed (old and new).

The file, ``safereq-review.jsonl``, lives at the workspace root (beside ``safereq.toml`` or
``pyproject.toml``) and is committed with the documents. It is JSON Lines, one record per line, so that no
line's text depends on its neighbours (no trailing commas to change) and git merges line by line:

    {"format": "safereq-review", "version": 1}
    {"link": "FSR-1 -> SG-1", "reviewed": "3f2a9c0d41be"}
    {"snapshot": "3f2a9c0d41be", "id": "SG-1", "asil": "D", "statement": "..."}
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..workspace.json_input import NumberTooLong, loads
from ..workspace.atomic import write_atomically
from .snapshot import Snapshot

FILE_NAME = "safereq-review.jsonl"
FORMAT = "safereq-review"
VERSION = 1
MAX_BYTES = 64 * 1024 * 1024


class ReviewStateError(Exception):
    """The review file cannot be read: ``path`` and a message that says what to do."""

    def __init__(self, path: Path, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def link_key(child: str, parent: str) -> str:
    return f"{child} -> {parent}"


def split_key(key: str) -> tuple[str, str] | None:
    child, sep, parent = key.partition(" -> ")
    return (child, parent) if sep and child and parent else None


@dataclass
class ReviewState:
    """Reviewed links (``child -> parent`` → fingerprint of the parent as reviewed) and those snapshots."""

    links: dict[str, str] = field(default_factory=dict)
    snapshots: dict[str, Snapshot] = field(default_factory=dict)
    path: Path | None = None

    @property
    def recorded(self) -> bool:
        """False for a workspace that never recorded a review: no link can then be suspect."""
        return bool(self.links)

    def reviewed(self, child: str, parent: str) -> tuple[str, Snapshot] | None:
        """The fingerprint and snapshot of ``parent`` that ``child`` was last reviewed against."""
        fp = self.links.get(link_key(child, parent))
        if fp is None:
            return None
        return fp, self.snapshots.get(fp, {})

    def mark(self, child: str, parent: str, fp: str, snap: Mapping[str, str]) -> bool:
        """Record that ``child`` was reviewed against ``parent`` as it is now; True when that changed anything."""
        key = link_key(child, parent)
        before = self.links.get(key)
        self.links[key] = fp
        self.snapshots[fp] = {"id": parent, **dict(snap)}
        return before != fp

    def forget(self, keep: Iterable[str]) -> int:
        """Drop links not in ``keep`` (links that no longer exist); the number dropped."""
        keep = set(keep)
        gone = [k for k in self.links if k not in keep]
        for k in gone:
            del self.links[k]
        return len(gone)

    # -- file ----------------------------------------------------------------------------------------------
    def dumps(self) -> str:
        """The file's text: the header, then links and the snapshots they use, each sorted, one per line."""
        used = set(self.links.values())
        lines = [json.dumps({"format": FORMAT, "version": VERSION})]
        lines += [json.dumps({"link": k, "reviewed": v}, ensure_ascii=False) for k, v in sorted(self.links.items())]
        lines += [json.dumps({"snapshot": fp, **dict(sorted(s.items(), key=_snap_order))}, ensure_ascii=False)
                  for fp, s in sorted(self.snapshots.items()) if fp in used]
        return "\n".join(lines) + "\n"

    def save(self, path: Path | None = None) -> Path:
        """Write atomically (a temporary file in the same folder, then a rename): never half a file."""
        target = Path(path or self.path or FILE_NAME)
        text = self.dumps()
        write_atomically(target, text.encode("utf-8"))
        self.path = target
        return target


def _snap_order(entry: tuple[str, str]) -> tuple[int, str]:
    return (0 if entry[0] == "id" else 2 if entry[0] == "statement" else 1, entry[0])


def parse(text: str, path: Path) -> ReviewState:
    """Read the file's text; anything that is not a review file of this version is a :class:`ReviewStateError`."""
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = loads(line)
        except NumberTooLong as exc:
            raise ReviewStateError(path, f"line {number} is not a line safereq wrote: {exc}; restore the file "
                                         "from git, or delete it and run `safereq review --all`") from None
        except (json.JSONDecodeError, RecursionError):
            raise ReviewStateError(path, f"line {number} is not valid JSON; restore the file from git, or delete "
                                         "it and run `safereq review --all` to record the current state") from None
        if not isinstance(record, dict):
            raise ReviewStateError(path, f"line {number} is not a JSON object")
        records.append(record)
    if not records or records[0].get("format") != FORMAT:
        raise ReviewStateError(path, 'not a safereq review file (its first line has no "format": "safereq-review")')
    if records[0].get("version") != VERSION:
        raise ReviewStateError(path, f"review file version {records[0].get('version')!r} is not supported "
                                     f"(this safereq reads version {VERSION})")
    state = ReviewState(path=path)
    for record in records[1:]:
        link, fp = record.get("link"), record.get("reviewed")
        if isinstance(link, str) and isinstance(fp, str) and split_key(link):
            state.links[link] = fp
        snap = record.get("snapshot")
        if isinstance(snap, str):
            state.snapshots[snap] = {str(k): v for k, v in record.items() if k != "snapshot" and isinstance(v, str)}
    return state


def load(root: Path) -> ReviewState:
    """The review state of the workspace rooted at ``root``; an empty one when there is no file yet.

    Only a regular file is read: a named pipe (or a device) in its place would block the reader for good, so
    the file is opened without blocking and refused unless it is a regular file.
    """
    path = root / FILE_NAME
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise ReviewStateError(path, "not a regular file (a named pipe, a device or a folder): replace it "
                                             "with the review file, or remove it")
            if info.st_size > MAX_BYTES:
                raise ReviewStateError(path, f"larger than {MAX_BYTES // (1024 * 1024)} MB; not read")
            text = f.read(MAX_BYTES + 1).decode("utf-8")
    except FileNotFoundError:
        return ReviewState(path=path)
    except UnicodeDecodeError:
        raise ReviewStateError(path, "not UTF-8 text") from None
    except IsADirectoryError:
        raise ReviewStateError(path, "not a regular file (a folder): remove it") from None
    except OSError as exc:
        raise ReviewStateError(path, f"cannot be read: {exc.strerror or exc}") from None
    return parse(text, path)

