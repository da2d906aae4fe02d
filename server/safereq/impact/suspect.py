"""Suspect links: a trace link whose target changed since the linking item was last reviewed against it.

A link is suspect when the review file records a version of its target (a fingerprint of the target's
snapshot) and the target's snapshot now has another fingerprint. A link the file does not record is not
suspect: a workspace that never recorded a review starts clean, and a link made after the last review was
made against the target as it is (``safereq review`` records it). A target that is not an item of the
workspace (a HARA row, an external test case, a dangling ID) has no snapshot and is left to the other rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..model.document import Item, Link
from ..workspace import Workspace
from ..workspace.workspace import LINK_KEYS
from .review_state import ReviewState
from .snapshot import DEFAULT_KEYS, Snapshot, changes, fingerprint, snapshot


#: Links whose holder depends on their target (a child on its parent, a safety goal on its hazardous event);
#: the other direction for verification: a test depends on the requirement it verifies.
DEPENDS_ON_TARGET = ("derived-from", "hazard")
VERIFICATION = "verified-by"


@dataclass(frozen=True, slots=True)
class TraceLink:
    """One link between two items of the workspace: ``holder`` writes ``link`` under ``key``; ``child``
    depends on ``parent`` (for ``Verified by`` the test is the child, the verified requirement the parent)."""

    holder: Item
    key: str
    link: Link
    child: Item
    parent: Item


@dataclass(frozen=True, slots=True)
class Suspect:
    """A suspect link with the parent's values as reviewed (``old``) and as they are (``new``)."""

    link: TraceLink
    old_fingerprint: str
    new_fingerprint: str
    old: Snapshot
    new: Snapshot

    @property
    def changed(self) -> list[tuple[str, str | None, str | None]]:
        return changes(self.old, self.new)


def trace_links(ws: Workspace, items: Iterable[Item] | None = None) -> Iterator[TraceLink]:
    """Every link held by ``items`` (default: the workspace's) whose target is an item of the workspace."""
    for holder in ws.items() if items is None else items:
        for key in LINK_KEYS:
            for link in holder.links(key):
                if not link.valid or link.target == holder.id:
                    continue
                target = ws.item(link.target)
                if target is None:
                    continue
                if key == VERIFICATION:
                    yield TraceLink(holder, key, link, target, holder)
                else:
                    yield TraceLink(holder, key, link, holder, target)


class SnapshotCache:
    """Snapshots and fingerprints of the workspace's items, computed once per item object.

    Items keep their identity while their section is unchanged, so an incremental check re-fingerprints
    only what an edit replaced.
    """

    def __init__(self, keys: Iterable[str] = DEFAULT_KEYS) -> None:
        self.keys = tuple(keys)
        self._cache: dict[int, tuple[Item, Snapshot, str]] = {}

    def get(self, item: Item) -> tuple[Snapshot, str]:
        hit = self._cache.get(id(item))
        if hit is not None and hit[0] is item:
            return hit[1], hit[2]
        snap = snapshot(item, self.keys)
        fp = fingerprint(snap)
        self._cache[id(item)] = (item, snap, fp)
        return snap, fp

    def __len__(self) -> int:
        return len(self._cache)

    def prune(self, live: Iterable[Item]) -> None:
        keep = {id(i) for i in live}
        for k in [k for k in self._cache if k not in keep]:
            del self._cache[k]


def suspects(ws: Workspace, state: ReviewState, cache: SnapshotCache | None = None,
             items: Iterable[Item] | None = None) -> list[Suspect]:
    """The suspect links held by ``items`` (default: all), in workspace order."""
    if not state.recorded:
        return []
    cache = cache if cache is not None else SnapshotCache()  # an empty cache is falsy (it has a length)
    out: list[Suspect] = []
    for tl in trace_links(ws, items):
        reviewed = state.reviewed(tl.child.id, tl.parent.id)
        if reviewed is None:
            continue
        old_fp, old_snap = reviewed
        new_snap, new_fp = cache.get(tl.parent)
        if new_fp != old_fp:
            old = {k: v for k, v in old_snap.items() if k != "id"}
            out.append(Suspect(tl, old_fp, new_fp, old, new_snap))
    return out


def mark_reviewed(ws: Workspace, state: ReviewState, links: Iterable[TraceLink],
                  cache: SnapshotCache | None = None) -> int:
    """Record each link as reviewed against its parent as it is now; the number of links that changed."""
    cache = cache if cache is not None else SnapshotCache()  # an empty cache is falsy (it has a length)
    count = 0
    for tl in links:
        snap, fp = cache.get(tl.parent)
        count += state.mark(tl.child.id, tl.parent.id, fp, snap)
    return count
