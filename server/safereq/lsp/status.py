"""The ``safereq/status`` notification: what the server is doing and where its knowledge-base index is.

Shape (agreed with the VS Code extension, client-vscode/src/protocol.ts)::

    {"state": "starting" | "ready" | "indexing" | "error", "message": str, "index": str | null}

``index`` is the index folder when one has been built there, else null.
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


def payload(session: Session | None, state: str, message: str) -> dict[str, object]:
    assert state in STATES
    index = None
    if session is not None:
        path = index_path(session)
        index = str(path) if path.is_dir() and any(path.iterdir()) else None
    return {"state": state, "message": message, "index": index}
