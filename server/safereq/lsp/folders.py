"""Each workspace folder's own configuration, in a multi-root workspace.

The documents of all folders form one workspace, so links, duplicate IDs and ASIL inheritance resolve across
folders; each document is checked with the configuration of the folder it is in (the innermost one, when
folders nest): its rule severities, word lists and excludes. Documents outside every folder (a buffer opened
from elsewhere) use the first folder's.

How documents *parse* cannot differ within one workspace: the item kinds (``[kinds]``) come from the first
folder that defines any. A folder whose ``[kinds]`` differ from those gets a warning on its configuration
file saying they are not used (see :func:`kind_conflicts`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from ..checks.config import Config, ConfigError, load_config
from ..workspace.loader import Excluder

log = logging.getLogger(__name__)


@dataclass
class FolderConfig:
    """One folder's configuration file (or defaults, when it has none or it is broken) and its excludes."""

    folder: Path
    file_config: Config
    error: ConfigError | None
    excluder: Excluder

    @classmethod
    def load(cls, folder: Path) -> FolderConfig:
        """Read the configuration that applies to ``folder``; on error keep the defaults and remember it."""
        try:
            file_config, error = load_config(folder), None
        except ConfigError as exc:
            log.warning("configuration error: %s", exc)
            file_config, error = Config(), exc
        base = file_config.source.parent if file_config.source else folder
        return cls(folder, file_config, error, Excluder(file_config.exclude, base))


def folder_of(path: Path, folders: list[Path]) -> int | None:
    """The index of the innermost folder holding ``path``, or None when it is in none of them."""
    best: tuple[int, int] | None = None
    for i, folder in enumerate(folders):
        try:
            depth = len(path.relative_to(folder).parts)
        except ValueError:
            continue
        if best is None or depth < best[1]:
            best = (i, depth)
    return best[0] if best else None


class FolderExcluders:
    """An excluder that applies each folder's own ``exclude`` globs to the files under it (for discovery)."""

    def __init__(self, configs: list[FolderConfig]) -> None:
        self._configs = configs

    def __bool__(self) -> bool:
        return any(c.excluder for c in self._configs)

    def excluded(self, path: Path) -> bool:
        i = folder_of(path, [c.folder for c in self._configs])
        return i is not None and self._configs[i].excluder.excluded(path)


def primary_kinds(configs: list[FolderConfig]):
    """The kinds every document is parsed with: the first folder's that defines any (else the defaults)."""
    return next((c.file_config.kinds for c in configs if c.file_config.kinds), None)


def kind_conflicts(configs: list[FolderConfig]) -> list[ConfigError]:
    """A warning for each configuration file whose ``[kinds]`` differ from the ones in force."""
    kinds = primary_kinds(configs)
    owner = next((c for c in configs if c.file_config.kinds), None)
    seen: set[Path] = set()
    out: list[ConfigError] = []
    for c in configs:
        source = c.file_config.source
        if owner is None or source is None or source in seen or source == owner.file_config.source:
            continue
        seen.add(source)
        if c.file_config.kinds and c.file_config.kinds != kinds:
            out.append(ConfigError(source, _kinds_line(source), f"[kinds] differ from those of {owner.file_config.source}; in a "
                                   "multi-root workspace every document is read with the first folder's kinds, "
                                   "so these are not used (rule severities, word lists and excludes are)"))
    return out


def _kinds_line(path: Path) -> int | None:
    """The 1-based line of the ``[kinds]`` table (or its first ``[kinds.…]``) in ``path``."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    for n, line in enumerate(lines, 1):
        if line.strip().startswith(("[kinds", "[tool.safereq.kinds")):
            return n
    return None
