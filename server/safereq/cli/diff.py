"""``safereq diff [REV] [REV2]``: what changed in the requirements between two git revisions, and its impact.

REV defaults to ``HEAD`` and REV2 to the working tree, so ``safereq diff`` shows what the uncommitted
changes do; ``safereq diff origin/main HEAD`` is the pull request's. See docs/change-impact.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

WORKTREE = "working tree"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "diff", help="requirement changes between git revisions, and what they put in question",
        description="Compare the requirement documents at two git revisions (default: HEAD against the "
                    "working tree): items added, removed, changed (per attribute, old and new), renamed, ASIL "
                    "changes, links added or removed, and every item downstream of a change that was not "
                    "reviewed since. Exit status: 0, or 2 for a usage, repository or configuration problem.",
    )
    p.add_argument("revs", nargs="*", metavar="REV", help="the old revision (default HEAD) and the new one "
                                                          "(default: the working tree)")
    p.add_argument("-p", "--path", dest="paths", action="append", default=[], metavar="PATH",
                   help="compare only documents under PATH (repeatable; default: the current folder)")
    p.add_argument("--format", choices=("text", "json", "markdown"), default="text",
                   help="output format (default: text; markdown is meant for a pull request)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE instead of standard output")
    p.add_argument("--config", metavar="FILE", help="use this safereq.toml or pyproject.toml instead of searching")
    p.set_defaults(handler=run, fast_exit=True)


def run(args: argparse.Namespace) -> int:
    from ..impact.review_state import ReviewStateError
    from ..impact.revisions import RevisionError
    from .errors import guarded

    return guarded(_run, args, RevisionError, ReviewStateError)



def _run(args: argparse.Namespace) -> int:
    from ..checks.config import load_config, load_config_file
    from ..impact import review_state
    from ..impact.diff import diff_workspaces
    from ..impact.snapshot import keys_for
    from ..impact.report import render_json, render_markdown, render_text
    from ..impact.revisions import RevisionError, read_revision, repository
    from ..model.vocabulary import load_vocabulary
    from ..workspace import Workspace
    from ..workspace.loader import DEFAULT_MAX_BYTES, Excluder, display_path, load

    if len(args.revs) > 2:
        raise RevisionError("at most two revisions: safereq diff [REV] [REV2]")
    old_rev = args.revs[0] if args.revs else "HEAD"
    new_rev = args.revs[1] if len(args.revs) > 1 else None
    cwd = Path.cwd()
    paths = [Path(p) for p in (args.paths or ["."])]
    for p in paths:
        if new_rev is None and not p.exists():
            raise RevisionError(f"{p}: no such file or folder")
    if args.config:
        if not Path(args.config).is_file():
            raise RevisionError(f"{args.config}: configuration file not found")
        config = load_config_file(Path(args.config))
    else:
        config = load_config(Path(os.path.commonpath([os.path.abspath(p) for p in paths])))
    root = config.source.parent if config.source else cwd
    excluder = Excluder(config.exclude, root)
    repo = repository(paths[0].resolve() if paths[0].exists() else cwd)
    vocabulary = load_vocabulary(config.kinds) if config.kinds else None

    def workspace(sources) -> Workspace:
        ws = Workspace(vocabulary)
        ws.update_many((s.path, s.text) for s in sources)
        return ws

    changed = repo.changed(old_rev, new_rev, repo.specs(paths))
    old_sources, _ = read_revision(repo, old_rev, paths, excluder=excluder, max_bytes=DEFAULT_MAX_BYTES, cwd=cwd,
                                   only=changed)
    if new_rev is None:
        new_sources = load(paths, excluder=excluder, cwd=cwd).sources
        review = review_state.load(root)
    else:
        new_sources, _ = read_revision(repo, new_rev, paths, excluder=excluder, max_bytes=DEFAULT_MAX_BYTES, cwd=cwd)
        review = _review_at(repo, new_rev, root)
    shown = {display_path(repo.root / name, cwd) for name in changed}
    from .check import _gc_paused  # parsing a whole workspace makes no cycles for the collector to find

    with _gc_paused():
        result = diff_workspaces(workspace(old_sources), workspace(new_sources), review,
                                 keys_for(config.impact_keys), changed=shown)
        args.retained = result  # freed by the process's exit, not one object at a time (see cli.main)
    shown_new = new_rev or WORKTREE
    render = {"json": render_json, "markdown": render_markdown}.get(args.format, render_text)
    report = render(result, old_rev, shown_new)
    if args.output:
        try:
            Path(args.output).write_text(report, encoding="utf-8")
        except OSError as exc:
            raise RevisionError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    else:
        sys.stdout.write(report)
    return 0


def _review_at(repo, rev: str, root: Path):
    """The review file as committed at ``rev`` (none there: an empty state)."""
    from ..impact import review_state
    from ..impact.revisions import RevisionError

    path = root / review_state.FILE_NAME
    try:
        rel = path.resolve().relative_to(repo.root)
        text = repo.git("show", f"{repo.resolve(rev)}:{rel.as_posix()}").decode("utf-8")
    except (ValueError, RevisionError, UnicodeDecodeError):
        return review_state.ReviewState(path=path)
    return review_state.parse(text, path)
