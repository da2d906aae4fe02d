"""Load the workspace that PATH arguments name, as ``safereq check`` does, for commands that read it whole
(``export``, ``report``): the same configuration search, excludes and size limit, so they see what the
checker sees."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..checks.config import Config
    from ..workspace import Workspace
    from ..workspace.loader import LoadResult


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to read (default: .)")
    parser.add_argument("--config", metavar="FILE", help="use this safereq.toml or pyproject.toml instead of searching")


def load_workspace(args: argparse.Namespace) -> tuple[Workspace, LoadResult, Config]:
    """The parsed workspace of ``args.paths``; raises check.UsageError or ConfigError like ``check``."""
    from ..model.vocabulary import load_vocabulary
    from ..workspace import Workspace
    from ..workspace.loader import Excluder, load
    from .check import _load_config

    paths = args.paths or ["."]
    config = _load_config(args, paths)
    cwd = Path.cwd()
    excluder = Excluder(config.exclude, config.source.parent if config.source else cwd)
    loaded = load(paths, excluder=excluder, cwd=cwd)
    workspace = Workspace(load_vocabulary(config.kinds) if config.kinds else None)
    workspace.update_many((source.path, source.text) for source in loaded.sources)
    return workspace, loaded, config
