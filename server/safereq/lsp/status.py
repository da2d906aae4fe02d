"""The ``safereq/status`` notification: what the server is doing and where its knowledge-base index is.

Shape (agreed with the VS Code extension, client-vscode/src/protocol.ts)::

    {"state": "starting" | "ready" | "indexing" | "error", "message": str, "index": str | null,
     "indexProblem": str | null}

``index`` is the index folder when a table with data is there (an empty folder, or a table a cancelled first
run left without rows, is no index), else null. ``indexProblem`` says why the index there cannot be used (it is
damaged: the same message ``safereq search`` prints), else null.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..knowledge.location import IndexLocation, ObjectStoreURI

if TYPE_CHECKING:
    from .session import Session

METHOD = "safereq/status"
STATES = ("starting", "ready", "indexing", "error")


def index_path(session: Session) -> IndexLocation:
    """Where the knowledge-base index lives: client setting, then configuration file, then the default."""
    from ..knowledge.location import index_location
    from ..knowledge.paths import default_index_dir

    raw = session.settings.index.path or session.file_config.index.path
    if raw:
        return index_location(str(raw), base=session.root)

    return default_index_dir(session.root)


def has_index(path: IndexLocation) -> bool:
    """A table with at least one version and one data file (cheap: no LanceDB import, two directory listings).

    An object-store index counts as present: asking the store is not cheap, and whether it opens is reported
    as ``indexProblem`` once the knowledge reader has tried.
    """
    if isinstance(path, ObjectStoreURI):
        return True
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
