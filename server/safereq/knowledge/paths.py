"""Where the shipped corpora live and where an index goes by default.

In a wheel the corpora are packaged as ``safereq/_data/corpora`` (see pyproject's force-include); in a source
checkout (editable install) they are the repository's ``corpora/`` folder. ``SAFEREQ_CORPORA`` overrides both.
"""

from __future__ import annotations

from pathlib import Path

from ..config import Environment

INDEX_DIRNAME = Path(".safereq") / "index"
# The source name of a shipped corpus file in an index starts with this (``corpora:nhtsa/...``).
SHIPPED_PREFIX = "corpora:"


def corpora_dir() -> Path:
    """The folder that holds ``manifest.yaml``, the shipped texts and ``catalogue/``."""
    env = Environment.read().corpora
    if env:
        return Path(env)
    package = Path(__file__).resolve().parent.parent
    packaged = package / "_data" / "corpora"
    if packaged.is_dir():
        return packaged
    return package.parent.parent / "corpora"


def catalogue_dir() -> Path:
    return corpora_dir() / "catalogue"


def default_index_dir(workspace: Path | None = None) -> Path:
    """``$SAFEREQ_INDEX`` if set, else ``<workspace>/.safereq/index`` (workspace defaults to the current directory)."""
    env = Environment.read().index
    if env:
        return Path(env)
    return (workspace or Path.cwd()) / INDEX_DIRNAME
