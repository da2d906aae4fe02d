"""The ``safereq/status`` notification: what the server is doing and where its knowledge-base index is.

Shape (agreed with the VS Code extension, client-vscode/src/protocol.ts)::

    {"state": "starting" | "ready" | "indexing" | "error", "message": str, "index": str | null,
     "indexProblem": str | null}

``index`` is the index folder when a table with data is there (an empty folder, or a table a cancelled first
run left without rows, is no index), else null. ``indexProblem`` says why the index there cannot be used (it is
damaged: the same message ``safereq search`` prints), else null.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .session import Session

METHOD = "safereq/status"
STATES = ("starting", "ready", "indexing", "error")


def index_path(session: Session) -> Path:
    """Where the knowledge-base index lives: client setting, then configuration file, then the default."""
    raw = session.settings.index.path or session.file_config.index.path
    if raw:
        path = Path(os.path.expanduser(str(raw)))
        return path if path.is_absolute() else session.root / path
    from ..knowledge.paths import default_index_dir

    return default_index_dir(session.root)


def has_index(path: Path) -> bool:
    """A table with at least one version and one data file (cheap: no LanceDB import, two directory listings)."""
    table = path / "chunks.lance"
    try:
        return any((table / "_versions").glob("*.manifest")) and any((table / "data").iterdir())
    except OSError:
        return False


def payload(session: Session | None, state: str, message: str,
            index_problem: str | None = None) -> dict[str, object]:
    assert state in STATES
    index = None
    if session is not None:
        path = index_path(session)
        index = str(path) if has_index(path) else None
    return {"state": state, "message": message, "index": index, "indexProblem": index_problem}
