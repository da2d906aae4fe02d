"""``safereq review``: record that linked items were reviewed against their targets as they are now.

The review file (``safereq-review.jsonl`` at the workspace root, committed with the documents) is what the
rule ``trace/suspect-link`` and ``safereq diff`` compare against. ``--all`` records the whole workspace (how
a workspace starts clean); ``--item``, ``--link`` and ``--document`` record part of it; with none of them the
command only reports the state. See docs/change-impact.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


from .errors import UsageError


def _link(text: str) -> tuple[str, str]:
    child, sep, parent = text.partition(":")
    if not sep or not child.strip() or not parent.strip():
        raise argparse.ArgumentTypeError(f"expected CHILD:PARENT (e.g. FSR-1:SG-1), got {text!r}")
    return child.strip(), parent.strip()


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "review", help="mark trace links reviewed (the state suspect links are found against)",
        description="Record in safereq-review.jsonl that linked items were reviewed against their targets as "
                    "they are now. Without --all, --item, --link or --document, report suspect and unrecorded "
                    "links. Exit status: 0, 1 when reporting finds suspect links, 2 for a usage problem.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders of the workspace (default: .)")
    p.add_argument("--all", action="store_true", help="record every link of the workspace (and forget links "
                                                       "that no longer exist)")
    p.add_argument("--item", action="append", default=[], metavar="ID",
                   help="record every link of this item to the items it depends on (repeatable)")
    p.add_argument("--link", action="append", default=[], type=_link, metavar="CHILD:PARENT",
                   help="record one link (repeatable)")
    p.add_argument("--document", action="append", default=[], metavar="FILE",
                   help="record every link of the items in FILE (repeatable)")
    p.add_argument("--config", metavar="FILE", help="use this safereq.toml or pyproject.toml instead of searching")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..impact.review_state import ReviewStateError
    from .errors import guarded

    return guarded(_run, args, ReviewStateError)



def _run(args: argparse.Namespace) -> int:
    from ..checks.config import load_config, load_config_file
    from ..impact import review_state
    from ..impact.suspect import SnapshotCache, mark_reviewed, suspects, trace_links
    from ..impact.snapshot import describe, keys_for
    from ..model.vocabulary import load_vocabulary
    from ..workspace import Workspace
    from ..workspace.loader import Excluder, display_path, load

    paths = args.paths or ["."]
    for p in paths:
        if not Path(p).exists():
            raise UsageError(f"{p}: no such file or folder")
    if args.config:
        if not Path(args.config).is_file():
            raise UsageError(f"{args.config}: configuration file not found")
        config = load_config_file(Path(args.config))
    else:
        config = load_config(Path(os.path.commonpath([os.path.abspath(p) for p in paths])))
    cwd = Path.cwd()
    root = config.source.parent if config.source else Path(os.path.commonpath([os.path.abspath(p) for p in paths]))
    if root.is_file():
        root = root.parent
    loaded = load(paths, excluder=Excluder(config.exclude, root), cwd=cwd)
    ws = Workspace(load_vocabulary(config.kinds) if config.kinds else None)
    ws.update_many((s.path, s.text) for s in loaded.sources)
    state = review_state.load(root)
    cache = SnapshotCache(keys_for(config.impact_keys))
    links = list(trace_links(ws))
    shown = display_path(state.path or root / review_state.FILE_NAME, cwd)

    chosen = []
    if args.all:
        chosen = links
    else:
        items, wanted = set(args.item), set(args.link)
        documents = {display_path(Path(d), cwd) for d in args.document}
        for d in args.document:
            if display_path(Path(d), cwd) not in ws.documents:
                raise UsageError(f"{d}: not a document of this workspace")
        for i in items:
            if ws.item(i) is None:
                raise UsageError(f"no item {i} in this workspace")
        known = {(tl.child.id, tl.parent.id) for tl in links}
        for child, parent in wanted:
            if (child, parent) not in known:
                raise UsageError(f"no link between {child} and {parent} in this workspace")
        chosen = [tl for tl in links if tl.child.id in items or (tl.child.id, tl.parent.id) in wanted
                  or tl.child.path in documents]
    if not (args.all or args.item or args.link or args.document):
        found = suspects(ws, state, cache)
        recorded = {(tl.child.id, tl.parent.id) for tl in links if state.reviewed(tl.child.id, tl.parent.id)}
        for s in found:
            tl = s.link
            print(f"{tl.holder.path}:{tl.link.span.start_line + 1}: {tl.child.id} → {tl.parent.id}: "
                  f"{describe(s.changed)}")
        print(f"safereq: {len(links)} links, {len(recorded)} recorded in {shown}, {len(found)} suspect"
              + ("" if state.recorded else " (no review recorded yet: run `safereq review --all`)"),
              file=sys.stderr)
        return 1 if found else 0
    changed = mark_reviewed(ws, state, chosen, cache)
    dropped = state.forget({review_state.link_key(tl.child.id, tl.parent.id) for tl in links}) if args.all else 0
    if changed or dropped or not (root / review_state.FILE_NAME).exists():
        state.save(root / review_state.FILE_NAME)
    print(f"safereq: {len(chosen)} link{'s' if len(chosen) != 1 else ''} reviewed ({changed} updated"
          + (f", {dropped} no longer in the workspace forgotten" if dropped else "") + f") in {shown}",
          file=sys.stderr)
    return 0
