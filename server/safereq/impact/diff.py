"""What changed between two versions of a workspace, and what that puts in question downstream.

Items are matched by ID. An ID that disappeared while another appeared with the same statement (or one
nearly the same, and of a matching title) was renamed, not removed and added. A change is *relevant* when it
touches what linked items depend on (:mod:`.snapshot`: statement, ASIL, safe state, FTTI, allocation, the
project's own keys); a new title or status alone puts nothing in question. The impact of a relevant change
(or a removal) is every item downstream of it in the new version — children, grandchildren, verification
items — each marked with whether it was reviewed against the new version since (the review file).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..model.document import Item
from ..workspace import Workspace
from ..workspace.workspace import LINK_KEYS
from .review_state import ReviewState
from .snapshot import DEFAULT_KEYS, STATEMENT, changes, fingerprint, snapshot
from .suspect import DEPENDS_ON_TARGET, VERIFICATION

RENAME_SIMILARITY = 90.0

Change = tuple[str, "str | None", "str | None"]


@dataclass(frozen=True)
class ItemChange:
    """One item's change: ``fields`` as (name, old, new); ``relevant`` when linked items depend on one of them."""

    id: str
    old: Item | None
    new: Item | None
    fields: list[Change] = field(default_factory=list)
    relevant: bool = False
    renamed_from: str | None = None

    @property
    def path(self) -> str:
        return (self.new or self.old).path  # type: ignore[union-attr]


@dataclass(frozen=True)
class LinkChange:
    holder: str
    key: str
    target: str
    added: bool
    path: str


@dataclass(frozen=True)
class Impacted:
    """An item downstream of a relevant change: ``via`` runs from the changed item ``source`` down to the
    item ``item`` depends on directly."""

    item: Item
    source: str
    via: tuple[str, ...]
    reviewed: bool


@dataclass
class WorkspaceDiff:
    added: list[ItemChange] = field(default_factory=list)
    removed: list[ItemChange] = field(default_factory=list)
    changed: list[ItemChange] = field(default_factory=list)
    renamed: list[ItemChange] = field(default_factory=list)
    links_added: list[LinkChange] = field(default_factory=list)
    links_removed: list[LinkChange] = field(default_factory=list)
    impact: list[Impacted] = field(default_factory=list)

    @property
    def asil_changes(self) -> list[tuple[str, str | None, str | None]]:
        return [(c.id, o, n) for c in self.changed + self.renamed for k, o, n in c.fields if k == "asil"]

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed or self.renamed or self.links_added
                    or self.links_removed)


def _first_items(ws: Workspace, paths: set[str] | None) -> dict[str, Item]:
    """ID → its first definition, in workspace order (a duplicate ID is the checks' business), of the
    documents ``paths`` (None: all)."""
    out: dict[str, Item] = {}
    docs = ws.documents.values() if paths is None else (d for p, d in ws.documents.items() if p in paths)
    for doc in docs:
        for item in doc.items:
            out.setdefault(item.id, item)
    return out


def _fields(item: Item) -> dict[str, str]:
    """Everything an item says except its links (reported as link changes): title, statement, attributes."""
    out: dict[str, str] = {"title": item.title.strip()}
    snap = snapshot(item, ())
    if STATEMENT in snap:
        out[STATEMENT] = snap[STATEMENT]
    for attr in item.attributes:
        if attr.key in LINK_KEYS:
            continue
        value = " ".join(attr.value.split())
        out[attr.key] = f"{out[attr.key]}; {value}" if attr.key in out else value
    return out


def _links(item: Item) -> set[tuple[str, str]]:
    return {(key, link.target) for key in LINK_KEYS for link in item.links(key) if link.valid}


def _renames(removed: dict[str, Item], added: dict[str, Item]) -> dict[str, str]:
    """old ID → new ID for removed items that reappear under another ID (same or nearly the same statement)."""
    if not removed or not added:
        return {}
    from rapidfuzz import fuzz, process

    def text(item: Item) -> str:
        return snapshot(item, ()).get(STATEMENT, "") or item.title.strip()

    by_text: dict[str, list[str]] = {}
    for new_id, item in added.items():
        by_text.setdefault(text(item), []).append(new_id)
    out: dict[str, str] = {}
    taken: set[str] = set()
    left: list[str] = []
    for old_id, item in removed.items():
        same = [n for n in by_text.get(text(item), ()) if n not in taken]
        if same and text(item):
            out[old_id] = same[0]
            taken.add(same[0])
        else:
            left.append(old_id)
    pool = {n: text(added[n]) for n in added if n not in taken and text(added[n])}
    for old_id in left:
        old_text = text(removed[old_id])
        if not old_text or not pool:
            continue
        hit = process.extractOne(old_text, pool, scorer=fuzz.ratio, score_cutoff=RENAME_SIMILARITY)
        if hit is not None:
            new_id = hit[2]
            out[old_id] = new_id
            del pool[new_id]
    return out


def diff_workspaces(old: Workspace, new: Workspace, review: ReviewState | None = None,
                    keys: Iterable[str] = DEFAULT_KEYS, changed: set[str] | None = None) -> WorkspaceDiff:
    """The difference from ``old`` to ``new``. ``changed`` names the documents whose text differs (from
    git); items of every other document are the same on both sides and are not compared, so ``old`` need
    hold only those documents. ``new`` must be whole: the impact follows its links."""
    keys = tuple(keys)
    before, after = _first_items(old, changed), _first_items(new, changed)
    gone = {i: it for i, it in before.items() if i not in after}
    came = {i: it for i, it in after.items() if i not in before}
    renames = _renames(gone, came)
    result = WorkspaceDiff()
    relevant_sources: list[str] = []
    lines: dict[int, list[str]] = {}

    def source(ws: Workspace, item: Item) -> str:
        """The item's lines as written: equal text on both sides is the common case, and cheap to compare."""
        doc = ws.documents[item.path]
        got = lines.get(id(doc))
        if got is None:
            got = lines[id(doc)] = doc.text.split("\n")
        return "\n".join(got[item.line:item.end_line + 1])

    def compare(old_item: Item, new_item: Item, renamed_from: str | None) -> ItemChange | None:
        fields = changes(_fields(old_item), _fields(new_item))
        relevant = snapshot(old_item, keys) != snapshot(new_item, keys)
        if not fields and renamed_from is None:
            return None
        return ItemChange(new_item.id, old_item, new_item, fields, relevant, renamed_from)

    for item_id in after:
        if item_id in before:
            if source(old, before[item_id]) == source(new, after[item_id]):
                continue
            change = compare(before[item_id], after[item_id], None)
            if change is not None:
                result.changed.append(change)
                if change.relevant:
                    relevant_sources.append(item_id)
    for old_id, new_id in renames.items():
        change = compare(gone[old_id], came[new_id], old_id)
        assert change is not None
        result.renamed.append(change)
        if change.relevant:
            relevant_sources.append(new_id)
    renamed_to = set(renames.values())
    result.added = [ItemChange(i, None, it) for i, it in came.items() if i not in renamed_to]
    result.removed = [ItemChange(i, it, None, relevant=True) for i, it in gone.items() if i not in renames]

    # Links, compared per holder (a renamed holder compares with its old self; a link to a renamed target
    # that was updated with it is not a change).
    old_of = {v: k for k, v in renames.items()}
    for item_id, item in after.items():
        prior = before.get(old_of.get(item_id, item_id))
        was = {(k, renames.get(t, t)) for k, t in _links(prior)} if prior is not None else set()
        now = _links(item)
        for key, target in sorted(now - was):
            result.links_added.append(LinkChange(item_id, key, target, True, item.path))
        for key, target in sorted(was - now):
            result.links_removed.append(LinkChange(item_id, key, target, False, item.path))
    for item_id, item in gone.items():
        if item_id not in renames:
            for key, target in sorted(_links(item)):
                result.links_removed.append(LinkChange(item_id, key, target, False, item.path))

    # Removed items put their former dependents (which still link the old ID) in question too.
    relevant_sources += [c.id for c in result.removed]
    result.impact = list(_downstream(new, relevant_sources, review, keys))
    for bucket in (result.added, result.removed, result.changed, result.renamed):
        bucket.sort(key=lambda c: (c.path, c.id))
    return result


def _dependents(ws: Workspace, item_id: str) -> Iterator[Item]:
    """Items that depend on ``item_id``: its children (and safety goals of a hazardous event), and the
    verification items it names in ``Verified by``."""
    for ref in ws.references(item_id):
        if ref.key in DEPENDS_ON_TARGET and ref.source is not None:
            yield ref.source
    item = ws.item(item_id)
    if item is not None:
        for link in item.links(VERIFICATION):
            target = ws.item(link.target)
            if target is not None:
                yield target


def _downstream(ws: Workspace, sources: list[str], review: ReviewState | None,
                keys: tuple[str, ...]) -> Iterator[Impacted]:
    """Breadth-first from every relevant change; each item once, by its nearest source.

    A direct dependent of a change is *reviewed* when the review file records its link at the changed item's
    current version: the engineer looked at the change, and what lies below it is not in question. The
    search goes on below every dependent that is not reviewed, and those further down are in question
    until the one above them is reviewed.
    """
    seen: set[str] = set(sources)
    # (item, the IDs from the change it descends from down to the item)
    queue: deque[tuple[str, tuple[str, ...]]] = deque((s, (s,)) for s in sources)
    while queue:
        item_id, chain = queue.popleft()
        for dep in _dependents(ws, item_id):
            if dep.id in seen:
                continue
            seen.add(dep.id)
            reviewed = False
            if len(chain) == 1 and review is not None:
                recorded = review.reviewed(dep.id, item_id)
                changed_item = ws.item(item_id)
                reviewed = (recorded is not None and changed_item is not None
                            and recorded[0] == fingerprint(snapshot(changed_item, keys)))
            yield Impacted(dep, chain[0], chain, reviewed)
            if not reviewed:
                queue.append((dep.id, (*chain, dep.id)))
