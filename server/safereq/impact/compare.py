"""The change impact of a revision range: read both sides from git (or the working tree), then diff them.

``safereq diff`` and the MCP server's ``change_impact`` tool both call :func:`compare_revisions`, so they
read the same documents, the same review file and report the same impact.
"""

from __future__ import annotations

from pathlib import Path

from ..model.vocabulary import Vocabulary
from ..workspace import Workspace
from ..workspace.loader import DEFAULT_MAX_BYTES, Excluder, display_path, load
from . import review_state
from .diff import WorkspaceDiff, diff_workspaces
from .revisions import RevisionError, Repository, read_revision, repository


def compare_revisions(old_rev: str, new_rev: str | None, paths: list[Path], *, root: Path, cwd: Path,
                      excluder: Excluder | None = None, vocabulary: Vocabulary | None = None,
                      keys: tuple[str, ...], current: Workspace | None = None) -> WorkspaceDiff:
    """What changed in the documents under ``paths`` from ``old_rev`` to ``new_rev`` (None: the working
    tree) and what that puts in question. ``root`` holds the review file; paths are shown relative to
    ``cwd``. ``current`` is the working tree's workspace when the caller already holds it (keyed as the
    loader names files relative to ``cwd``), so it is not read again. Raises :class:`RevisionError` for an
    unknown revision or a folder outside a repository."""
    for p in paths:
        if new_rev is None and not p.exists():
            raise RevisionError(f"{p}: no such file or folder")
    repo = repository(paths[0].resolve() if paths[0].exists() else cwd)

    def workspace(sources) -> Workspace:
        ws = Workspace(vocabulary)
        ws.update_many((s.path, s.text) for s in sources)
        return ws

    changed = repo.changed(old_rev, new_rev, repo.specs(paths))
    old_sources, _ = read_revision(repo, old_rev, paths, excluder=excluder, max_bytes=DEFAULT_MAX_BYTES, cwd=cwd,
                                   only=changed)
    if new_rev is None:
        new_ws = current if current is not None else workspace(load(paths, excluder=excluder, cwd=cwd).sources)
        review = review_state.load(root)
    else:
        new_sources, _ = read_revision(repo, new_rev, paths, excluder=excluder, max_bytes=DEFAULT_MAX_BYTES, cwd=cwd)
        new_ws = workspace(new_sources)
        review = review_at(repo, new_rev, root)
    shown = {display_path(repo.root / name, cwd) for name in changed}
    return diff_workspaces(workspace(old_sources), new_ws, review, keys, changed=shown)


def review_at(repo: Repository, rev: str, root: Path) -> review_state.ReviewState:
    """The review file as committed at ``rev`` (none there: an empty state)."""
    path = root / review_state.FILE_NAME
    try:
        rel = path.resolve().relative_to(repo.root)
        text = repo.git("show", f"{repo.resolve(rev)}:{rel.as_posix()}").decode("utf-8")
    except (ValueError, RevisionError, UnicodeDecodeError):
        return review_state.ReviewState(path=path)
    return review_state.parse(text, path)
