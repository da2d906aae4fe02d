"""Keep a workspace equal to the Markdown files under some folders, by polling the disk.

A long-running front end without an editor to report changes (the MCP server) calls :meth:`DiskMirror.refresh`
before it answers: the folders are walked again (the loader's rules: hidden folders, virtual environments and
excludes skipped), and only files whose stamp (modification time, size, inode) changed are read again and handed
to :meth:`Workspace.update`, which re-parses only the sections that changed; the checker's caches then re-check
only what moved. Nothing runs between calls, so nothing races and tests are deterministic.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from .loader import DEFAULT_MAX_BYTES, Excluder, LoadProblem, SourceFile, discover, display_path, read_source
from .workspace import Workspace

Stamp = tuple[int, int, int]


class DiskMirror:
    """The documents of ``folders`` in ``workspace``; paths are named relative to ``cwd`` (see display_path).

    ``accept`` can refuse a discovered file (the MCP server refuses one reached through a symbolic link that
    leads out of its folders). ``problems`` holds why a file could not be read, by path.
    """

    def __init__(self, workspace: Workspace, folders: list[Path], *, cwd: Path, excluder: Excluder | None = None,
                 accept: Callable[[Path], bool] | None = None, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.workspace = workspace
        self.folders = folders
        self.cwd = cwd
        self.excluder = excluder
        self.accept = accept
        self.max_bytes = max_bytes
        self.stamps: dict[str, Stamp] = {}
        self.files: dict[str, Path] = {}
        self.problems: dict[str, LoadProblem] = {}
        self.generation = 0  # counts refreshes that changed something

    def refresh(self, update_many: Callable[[list[SourceFile]], None] | None = None) -> list[str]:
        """Bring the workspace up to date with the disk; the paths that were added, changed or removed.

        ``update_many`` takes the documents read, all at once, instead of one ``Workspace.update`` each (the
        first load of a large workspace parses and checks them in worker processes, see checks.engine)."""
        found = discover(self.folders, excluder=self.excluder, cwd=self.cwd)
        stamps: dict[str, Stamp] = {}
        files: dict[str, Path] = {}
        changed: list[str] = []
        read: list[SourceFile] = []
        listing = {p.path: p for p in found.problems}
        for path in found.files:
            if self.accept is not None and not self.accept(path):
                continue
            key = display_path(path, self.cwd)
            try:
                st = os.stat(path)
            except OSError:
                continue  # gone between the walk and now: removed below
            stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
            stamps[key], files[key] = stamp, path
            if self.stamps.get(key) == stamp:
                continue
            changed.append(key)
            result = read_source(path, max_bytes=self.max_bytes, display=key)
            if isinstance(result, LoadProblem):
                self.workspace.remove(key)
                self.problems[key] = result
            else:
                self.problems.pop(key, None)
                read.append(result)
        if update_many is not None and read:
            update_many(read)
        else:
            for source in read:
                self.workspace.update(source.path, source.text)
        for key in [k for k in self.stamps if k not in stamps]:
            self.workspace.remove(key)
            self.problems.pop(key, None)
            changed.append(key)
        for key in [k for k in self.problems if k not in stamps and k not in listing]:
            del self.problems[key]
        self.problems.update(listing)
        self.stamps, self.files = stamps, files
        if changed:
            self.generation += 1
        return sorted(changed)
