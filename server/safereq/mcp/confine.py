"""Paths a client names are confined to the workspace folders: no ``..``, no symbolic link leading out.

Every path a tool or resource takes goes through :func:`confine`; the loader's files go through
:meth:`Confinement.inside`, so a symbolic link in a folder cannot bring a file from elsewhere into view.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from ..workspace.loader import display_path
from .errors import Refused

MAX_PATH = 1024


class Confinement:
    """The workspace folders (resolved once) and the folder paths are shown relative to (``cwd``)."""

    def __init__(self, folders: list[Path], cwd: Path) -> None:
        self.folders = folders
        self.real = [os.path.realpath(f) for f in folders]
        self.cwd = cwd

    def inside(self, path: Path) -> bool:
        """True when ``path``, with every symbolic link followed, lies in one of the folders."""
        real = os.path.realpath(path)
        return any(real == top or real.startswith(top.rstrip(os.sep) + os.sep) for top in self.real)

    def confine(self, raw: str) -> str:
        """The workspace's name for the path ``raw`` (relative to the first folder, or absolute inside a
        folder); :class:`Refused` for a path with ``..``, a NUL or a link out of the folders."""
        if not isinstance(raw, str) or not raw.strip():
            raise Refused("give a path, relative to the workspace folder (e.g. docs/fsc.md)")
        if len(raw) > MAX_PATH or "\0" in raw:
            raise Refused("not a usable path (too long, or a NUL character)")
        text = raw.strip().replace("\\", "/")
        if ".." in PurePosixPath(text).parts:
            raise Refused(f"{raw!r}: '..' is not allowed; paths stay inside the workspace folders")
        path = Path(text)
        candidate = path if path.is_absolute() else self.folders[0] / path
        if not self.inside(candidate):
            raise Refused(f"{raw!r} is outside the workspace folders (symbolic links out of them are not followed)")
        return display_path(candidate, self.cwd)
