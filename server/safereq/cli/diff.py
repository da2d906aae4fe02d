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
    from ..impact.compare import compare_revisions
    from ..impact.snapshot import keys_for
    from ..impact.report import render_json, render_markdown, render_text
    from ..impact.revisions import RevisionError
    from ..model.vocabulary import load_vocabulary
    from ..workspace.loader import Excluder

    if len(args.revs) > 2:
        raise RevisionError("at most two revisions: safereq diff [REV] [REV2]")
    old_rev = args.revs[0] if args.revs else "HEAD"
    new_rev = args.revs[1] if len(args.revs) > 1 else None
    cwd = Path.cwd()
    paths = [Path(p) for p in (args.paths or ["."])]
    if args.config:
        if not Path(args.config).is_file():
            raise RevisionError(f"{args.config}: configuration file not found")
        config = load_config_file(Path(args.config))
    else:
        config = load_config(Path(os.path.commonpath([os.path.abspath(p) for p in paths])))
    root = config.source.parent if config.source else cwd
    from ..workspace.memory import gc_paused  # parsing a whole workspace makes no cycles for the collector to find

    with gc_paused():
        result = compare_revisions(old_rev, new_rev, paths, root=root, cwd=cwd,
                                   excluder=Excluder(config.exclude, root),
                                   vocabulary=load_vocabulary(config.kinds) if config.kinds else None,
                                   keys=keys_for(config.impact_keys))
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

