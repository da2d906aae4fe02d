"""The trace graph of a workspace, kept up to date per document, and the cycles in its "Derived from" links.

Workspace-scope checks run on every keystroke over the whole workspace (20,000 items and more). Asking
``Workspace.item`` or ``Workspace.children`` once per link sorts small lists tens of thousands of times,
and even a plain Python loop over every link costs tens of milliseconds. So each document's contribution
(its items, their ASIL values, its links grouped by key and target ID, its "Derived from" edges, its HARA
rows) is computed once per parse of that document, and the workspace-wide graph is assembled from those
parts with C-level dict, set and tuple operations. Questions such as "which link targets are undefined"
become set differences; only their answers are mapped back to link sites.

After an edit of one document in a large workspace, the new graph updates the last one's dictionaries for
the IDs that document defines rather than assembling them anew, carries over sets of IDs no changed document
affects (an edit that moves lines changes none), and keeps per-document results of the rules
(``per_document``, ``per_document_links``) for every document but the edited one.

Cycles matter because no member of a cycle can trace back to a safety goal, and any walk up the graph
(ASIL inheritance, impact analysis) would loop. Strongly connected components (Tarjan's algorithm,
iterative so that deep chains cannot exhaust Python's recursion limit) give every cycle exactly once;
they are found by ID and recomputed only when some document's "Derived from" edges changed.
"""

from __future__ import annotations

import weakref
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from typing import NamedTuple, TypeVar

from ..model.document import Document, HaraRow, Item, Link
from ..model.ranges import new_tuple
from .asil import AsilValue, parse_asil, usable_asil_value
from .facts import row_asil
from .workspace import Workspace

T = TypeVar("T")


class LinkSite(NamedTuple):
    """One valid link and where it is written: the item holding it (None for a HARA row's safety-goal
    cell, then ``row`` is set), its canonical ``key`` and the key as written."""

    path: str
    link: Link
    key: str
    raw_key: str
    source: Item | None
    row: HaraRow | None = None


class RowInfo(NamedTuple):
    """A HARA row with its path, its ASIL (``stated`` as readable in the ASIL cell; ``level`` the stated
    one, else the one its S/E/C give; None when unreadable) and the safety-goal IDs its goal cell names."""

    path: str
    row: HaraRow
    stated: str | None
    level: str | None
    goals: frozenset[str]


class Inheriting(NamedTuple):
    """An item that states a usable ASIL and names parents ("Derived from", other than its own ID)."""

    item: Item
    value: AsilValue
    parent_ids: tuple[str, ...]


class GoalInfo(NamedTuple):
    """A safety goal, its usable ASIL and the event IDs it lists under ``Hazard``."""

    item: Item
    value: AsilValue | None
    hazards: tuple[str, ...]


class _PartIds(NamedTuple):
    """The sets of IDs of one parse of a document, which a later graph compares to carry its memos over."""

    ids_by_category: dict[str, frozenset[str]]
    row_ids: frozenset[str]
    target_sets: dict[str, frozenset[str]]
    goal_sourced: dict[str, frozenset[str]]
    first_ids: frozenset[str]


def _ids_of(part: _Part | None) -> _PartIds | None:
    if part is None:
        return None
    return _PartIds(part.ids_by_category, part.row_ids, part.target_sets, part.goal_sourced, frozenset(part.first))


class _Part(NamedTuple):
    """What one parse of one document contributes to the graph."""

    doc: Document
    items: tuple[Item, ...]
    first: dict[str, Item]  # the first definition of each ID within the document
    asil: dict[int, AsilValue]  # id(item) -> usable stated ASIL
    asil_by_id: dict[str, AsilValue | None]  # the same for the first definition of each ID (None: no ASIL)
    inheriting: tuple[Inheriting, ...]
    decomposed: dict[str, tuple[Item, ...]]  # parent ID -> items derived from it with a decomposed ASIL
    goals: tuple[GoalInfo, ...]
    row_goals: dict[str, tuple[str, ...]]  # goal ID -> the events whose HARA rows here name it
    row_levels: dict[str, str]  # event ID -> the stated ASIL of its first row here with a readable one
    targets: dict[str, dict[str, tuple[LinkSite, ...]]]  # key -> target ID -> the links to it
    target_sets: dict[str, frozenset[str]]  # key -> the target IDs (for allocation-free set tests)
    goal_sourced: dict[str, frozenset[str]]  # key -> targets of links held by safety goals
    edges: tuple[tuple[str, str], ...]  # (source ID, target ID) of every valid "Derived from" link
    by_category: dict[str, tuple[Item, ...]]
    ids_by_category: dict[str, frozenset[str]]
    without_asil: dict[str, tuple[Item, ...]]  # category -> items with no ASIL attribute
    rows: tuple[RowInfo, ...]
    row_ids: frozenset[str]


@dataclass(eq=False)
class TraceGraph:
    """The workspace's items, IDs, links, ASIL values and HARA rows, assembled from per-document parts.

    Parents are looked up by ID (``first``, ``asil_by_id``) rather than resolved item by item, so that no
    question about the graph needs a Python loop over every item unless a rule really asks every item.
    """

    items: tuple[Item, ...]  # definition order: by path, then line
    first: dict[str, Item]  # as Workspace.item(): the first definition of each ID
    asil_by_id: dict[str, AsilValue | None]  # the usable ASIL of each ID's first definition
    by_category: dict[str, tuple[Item, ...]]
    rows: tuple[RowInfo, ...]
    _parts: tuple[_Part, ...]
    _asil: dict[int, AsilValue]
    _doc_results: dict[str, tuple[_Part, dict[str, tuple[object, list]]]]  # shared by the graphs of one workspace
    _kept: dict[str, tuple[tuple[int, int], object]]  # shared likewise, for keep()
    _asil_version: int  # changes whenever asil_by_id does
    _decomposed_version: int  # changes whenever some document's decomposed children do
    _cache: dict = field(default_factory=dict)
    # The memos of the graph this one replaced and the (old, new) IDs of the documents that changed since,
    # so that sets of IDs no changed document affects are carried over rather than rebuilt (see _carried).
    # Only these are kept, not the old graph: its documents would stay alive, and a larger heap makes every
    # later allocation and garbage collection dearer.
    _previous: dict | None = None
    _changed: tuple[tuple[_PartIds | None, _PartIds | None], ...] = ()

    # -- items and values ----------------------------------------------------------------------------
    def category(self, category: str) -> tuple[Item, ...]:
        """The items of one kind category (``safety-goal``, ``hazard`` …), in definition order."""
        return self.by_category.get(category, ())

    def ids_in(self, category: str) -> set[str]:
        """The IDs of the items of one kind category."""
        return self._union(("ids", category), lambda p: p.ids_by_category.get(category, _NO_IDS))

    def without_asil(self, category: str) -> Iterator[Item]:
        """The items of one kind category that have no ASIL attribute."""
        return chain.from_iterable(p.without_asil.get(category, ()) for p in self._parts)

    def row_ids(self) -> set[str]:
        """The IDs of every HARA row (hazardous events defined in tables)."""
        return self._union("row-ids", lambda p: p.row_ids)

    def defined_ids(self) -> set[str]:
        """Every ID defined by an item or a HARA row (as ``Workspace.is_defined``)."""
        if "defined" not in self._cache and self._carried("defined", lambda p: (p.first_ids, p.row_ids)):
            return self._cache["defined"]
        return self._memo("defined", lambda: self.first.keys() | self.row_ids())

    def asil_of(self, item: Item) -> AsilValue | None:
        """The item's usable stated ASIL (``facts.usable_asil``), precomputed per document."""
        return self._asil.get(id(item))

    # -- links ---------------------------------------------------------------------------------------
    def link_keys(self) -> set[str]:
        """The keys links are written under (attribute keys, and ``safety-goal`` for HARA goal cells)."""
        return self._union("keys", lambda p: p.target_sets.keys())

    def target_ids(self, key: str, *, goal_sourced: bool = False) -> set[str]:
        """The IDs that links under ``key`` name (with ``goal_sourced``, only links held by safety goals)."""
        if goal_sourced:
            return self._union(("gtargets", key), lambda p: p.goal_sourced.get(key, _NO_IDS))
        return self._union(("targets", key), lambda p: p.target_sets.get(key, _NO_IDS))

    def sites(self, key: str, *, inside: set[str] | None = None, outside: set[str] | None = None,
              held_by_goals: bool = False) -> list[LinkSite]:
        """The links under ``key`` whose target is in ``inside`` and not in ``outside`` (each when given),
        in workspace order; with ``held_by_goals``, only targets that some safety goal links to (the
        links returned may still include other holders' links to those targets).

        Work is per document and set-based, so asking for the few suspicious links costs little even
        when the workspace holds tens of thousands."""
        out: list[LinkSite] = []
        for part in self._parts:
            ids = part.goal_sourced.get(key) if held_by_goals else part.target_sets.get(key)
            if not ids:
                continue
            if inside is not None:
                ids = ids & inside  # iterates the smaller set
            if outside is not None:
                if ids <= outside:  # the common case: nothing to report in this document, no set built
                    continue
                ids = ids - outside
            by_target = part.targets[key]
            for target in ids:
                out.extend(by_target[target])
        out.sort(key=lambda s: (s.path, s.link.span))
        return out

    # -- derivation ----------------------------------------------------------------------------------
    def decomposed_children(self) -> dict[str, list[Item]]:
        """Parent ID → the items derived from it that state a decomposed ASIL such as ``B(D)``."""
        def make() -> dict[str, list[Item]]:
            out: dict[str, list[Item]] = {}
            for part in self._parts:
                for pid, kids in part.decomposed.items():
                    out.setdefault(pid, []).extend(kids)
            return out
        return self._memo("decomposed", make)

    def goals(self) -> Iterator[GoalInfo]:
        """Every safety goal with its ASIL and the events it lists under ``Hazard``."""
        return chain.from_iterable(p.goals for p in self._parts)

    def events_naming(self) -> tuple[dict[str, list[str]], dict[str, str]]:
        """Goal ID → the events whose HARA rows name it; event ID → the stated ASIL of its first HARA row
        with a readable one."""
        def make() -> tuple[dict[str, list[str]], dict[str, str]]:
            by_goal: dict[str, list[str]] = {}
            levels: dict[str, str] = {}
            for part in reversed(self._parts):
                levels.update(part.row_levels)
            for part in self._parts:
                for goal_id, events in part.row_goals.items():
                    by_goal.setdefault(goal_id, []).extend(events)
            return by_goal, levels
        return self._memo("events-naming", make)

    def keep(self, name: str, make: Callable[[], T]) -> T:
        """``make()``, kept across changes of the workspace until ``asil_by_id`` or the decomposed children
        change; ``make`` must depend on nothing else (and may hold only items it got from those)."""
        key = (self._asil_version, self._decomposed_version)
        hit = self._kept.get(name)
        if hit is None or hit[0] != key:
            hit = self._kept[name] = (key, make())
        return hit[1]

    def per_document(self, name: str, fn: Callable[[tuple[Inheriting, ...], dict[str, AsilValue | None]], list[T]]) -> list[T]:
        """``fn(document's inheriting items, asil_by_id)`` for every document, concatenated in workspace order.

        A document's result is kept until the document or ``asil_by_id`` changes, so an edit costs one
        document's worth of work; ``fn`` must therefore depend on nothing else (refer to other items by ID).
        """
        return self._per_part(name, self._asil_version, lambda part: fn(part.inheriting, self.asil_by_id))

    def per_document_links(self, name: str, token: object,
                           fn: Callable[[str, dict[str, dict[str, tuple[LinkSite, ...]]]], list[T]]) -> list[T]:
        """``fn(path, links)`` for every document, concatenated in workspace order, where ``links`` are the
        document's valid links by key and target ID (each target's in document order).

        A document's result is kept until the document changes or ``token`` no longer compares equal, so
        ``fn`` must depend on nothing but its arguments and what ``token`` stands for (e.g. the set of
        defined IDs): after an edit, only the edited document's links are read again.
        """
        return self._per_part(name, token, lambda part: fn(part.doc.path, part.targets))

    def _per_part(self, name: str, token: object, compute: Callable[[_Part], list[T]]) -> list[T]:
        out: list[T] = []
        for part in self._parts:
            entry = self._doc_results.get(part.doc.path)
            if entry is None or entry[0] is not part:
                entry = self._doc_results[part.doc.path] = (part, {})
            kept = entry[1].get(name)
            if kept is None or kept[0] != token:
                kept = entry[1][name] = (token, compute(part))
            out.extend(kept[1])
        return out

    def _union(self, key, of_part: Callable[[_Part | _PartIds], object]) -> set[str]:
        """The union over the documents of ``of_part(part)`` (a set of IDs), made once per graph; ``of_part``
        reads only fields that ``_PartIds`` shares with ``_Part``."""
        if key not in self._cache and not self._carried(key, of_part):
            self._cache[key] = set().union(*(of_part(p) for p in self._parts))
        return self._cache[key]

    def _carried(self, key, of_part: Callable[[_PartIds], object]) -> bool:
        """Take the previous graph's value of ``key`` when it is a function of the documents' ``of_part``
        and every document that changed since has an equal one: an edit that moves lines or rewords a
        statement leaves every set of IDs as it was, and rebuilding them costs a pass over the workspace."""
        previous = self._previous
        if previous is None or key not in previous:
            return False
        for old, new in self._changed:
            if old is None or new is None or of_part(old) != of_part(new):
                return False
        self._cache[key] = previous[key]
        return True

    def _memo(self, key, make):
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]


@dataclass(eq=False)
class _State:
    parts: dict[str, _Part] = field(default_factory=dict)
    generation: int = -1
    graph: TraceGraph | None = None
    edges_key: tuple = ()
    cycle_ids: list[list[str]] = field(default_factory=list)
    # The last assembly, which the next one updates for the documents that changed.
    first: dict[str, Item] = field(default_factory=dict)
    asil_by_id: dict[str, AsilValue | None] = field(default_factory=dict)
    asil: dict[int, AsilValue] = field(default_factory=dict)
    asil_version: int = 0
    decomposed_key: tuple = ()
    decomposed_version: int = 0
    doc_results: dict[str, tuple[_Part, dict[str, tuple[object, list]]]] = field(default_factory=dict)
    kept: dict[str, tuple[tuple[int, int], object]] = field(default_factory=dict)


_STATE: weakref.WeakKeyDictionary[Workspace, _State] = weakref.WeakKeyDictionary()


def _state(ws: Workspace) -> _State:
    state = _STATE.get(ws)
    if state is None:
        state = _STATE[ws] = _State()
    return state


def trace_graph(ws: Workspace) -> TraceGraph:
    """The workspace's trace graph, reassembled after a change from the documents' cached parts."""
    state = _state(ws)
    if state.graph is not None and state.generation == ws.generation:
        return state.graph
    parts = []
    changed: list[tuple[_Part | None, _Part | None]] = []  # (old, new) of each document that changed
    for path in sorted(ws.documents):
        doc = ws.documents[path]
        part = state.parts.get(path)
        if part is None or part.doc is not doc:
            new = _part(ws, doc)
            changed.append((part, new))
            part = state.parts[path] = new
        parts.append(part)
    for gone in set(state.parts) - set(ws.documents):
        changed.append((state.parts.pop(gone), None))
        state.doc_results.pop(gone, None)
    # Updating the last assembly costs a Python step per ID the changed documents define; assembling anew
    # costs C-level dictionary updates over the workspace, cheaper when those documents are much of it.
    touched = sum(len(p.first) for pair in changed for p in pair if p is not None)
    if state.graph is None or touched * 4 > len(state.first):
        first, asil_by_id, asil = _assemble(parts)
        asil_changed = asil_by_id != state.asil_by_id  # C-level; values are mostly the same cached objects
    else:
        first, asil_by_id, asil, asil_changed = _reassemble(ws, state, changed)
    state.first, state.asil_by_id, state.asil = first, asil_by_id, asil
    if asil_changed:
        state.asil_version += 1
    decomposed_key = tuple(part.decomposed for part in parts)  # unchanged parts compare by identity
    if decomposed_key != state.decomposed_key:
        state.decomposed_key = decomposed_key
        state.decomposed_version += 1
    categories = {c for part in parts for c in part.by_category}
    by_category = {c: tuple(chain.from_iterable(p.by_category.get(c, ()) for p in parts)) for c in categories}
    previous = state.graph
    state.graph = TraceGraph(
        tuple(chain.from_iterable(p.items for p in parts)), first, asil_by_id, by_category,
        tuple(chain.from_iterable(p.rows for p in parts)), tuple(parts), asil, state.doc_results, state.kept,
        state.asil_version, state.decomposed_version, _previous=previous._cache if previous is not None else None,
        _changed=tuple((_ids_of(old), _ids_of(new)) for old, new in changed) if previous is not None else (),
    )
    state.generation = ws.generation
    return state.graph


def _assemble(parts: list[_Part]) -> tuple[dict[str, Item], dict[str, AsilValue | None], dict[int, AsilValue]]:
    """``first``, ``asil_by_id`` and ``asil`` of the whole workspace from every document's part."""
    first: dict[str, Item] = {}
    asil_by_id: dict[str, AsilValue | None] = {}
    asil: dict[int, AsilValue] = {}
    for part in reversed(parts):  # earlier documents overwrite later ones: the first definition wins
        first.update(part.first)
        asil_by_id.update(part.asil_by_id)
        asil.update(part.asil)
    return first, asil_by_id, asil


_ABSENT = object()
_NO_IDS: frozenset[str] = frozenset()


def _reassemble(ws: Workspace, state: _State, changed: list[tuple[_Part | None, _Part | None]]):
    """``_assemble``'s result from the last one and the few documents that changed: the IDs those define(d)
    get their first definition anew and its ASIL. Copies rather than updates the last dictionaries, which
    the previous graph holds. Also says whether ``asil_by_id`` changed."""
    first, asil_by_id, asil = dict(state.first), dict(state.asil_by_id), dict(state.asil)
    affected: set[str] = set()
    now: dict[str, _Part | None] = {}  # path -> the new part of each changed document
    for old, new in changed:
        if old is not None:
            for key in old.asil:
                del asil[key]
            affected.update(old.first)
            now.setdefault(old.doc.path, None)
        if new is not None:
            asil.update(new.asil)
            affected.update(new.first)
            now[new.doc.path] = new
    asil_changed = False
    for item_id in affected:
        winner = _first_definition(ws, item_id, state.first.get(item_id), now)
        before = asil_by_id.get(item_id, _ABSENT)
        if winner is None:
            first.pop(item_id, None)
            asil_by_id.pop(item_id, None)
            asil_changed = asil_changed or before is not _ABSENT
            continue
        value = asil.get(id(winner))
        first[item_id] = winner
        asil_by_id[item_id] = value
        asil_changed = asil_changed or before is _ABSENT or before != value
    return first, asil_by_id, asil, asil_changed


def _first_definition(ws: Workspace, item_id: str, was: Item | None, now: dict[str, _Part | None]) -> Item | None:
    """The first definition of an ID (as ``Workspace.item``: by path, then line) after the documents in
    ``now`` changed, given the first one before (``was``). It is the earliest of ``was``, if its document did
    not change, and the changed documents' own first definitions; only when ``was`` was in a changed document
    that no longer defines the ID may another unchanged document hold the answer, and the index is asked."""
    if was is not None and was.path in now:
        part = now[was.path]
        if part is None or item_id not in part.first:
            return ws.item(item_id)
        was = None  # superseded by the changed document's own first definition, found below
    best = was
    for part in now.values():
        if part is not None and (mine := part.first.get(item_id)) is not None and (best is None or mine.path < best.path):
            best = mine
    return best


def _part(ws: Workspace, doc: Document) -> _Part:
    targets: dict[str, dict[str, list[LinkSite]]] = {}
    goal_sourced: dict[str, set[str]] = {}
    inheriting: list[Inheriting] = []
    decomposed: dict[str, list[Item]] = {}
    goals: list[GoalInfo] = []
    edges: list[tuple[str, str]] = []
    first: dict[str, Item] = {}
    asil: dict[int, AsilValue] = {}
    by_category: dict[str, list[Item]] = {}
    without_asil: dict[str, list[Item]] = {}
    for item in reversed(doc.items):
        first[item.id] = item
    categories: dict[str, str] = {}  # by kind: a document has few kinds and many items
    path = doc.path
    for item in doc.items:
        category = categories.get(item.kind)
        if category is None:
            category = categories[item.kind] = ws.category(item)
        by_category.setdefault(category, []).append(item)
        asil_attr = None
        parents: dict[str, None] = {}  # in link order; a dict, as one attribute may name thousands
        for attr in item.attributes:
            key = attr.key
            if key == "asil" and asil_attr is None:
                asil_attr = attr
            for link in attr.links:
                if not link.valid:
                    continue
                target = link.target
                site = new_tuple(LinkSite, (path, link, key, attr.raw_key, item, None))
                targets.setdefault(key, {}).setdefault(target, []).append(site)
                if category == "safety-goal":
                    goal_sourced.setdefault(key, set()).add(target)
                if key == "derived-from":
                    edges.append((item.id, target))
                    if target != item.id:
                        parents.setdefault(target)
        # As facts.usable_asil, from the first ASIL attribute found above.
        value = None if asil_attr is None else usable_asil_value(asil_attr.value)
        if value is not None:
            asil[id(item)] = value
        if asil_attr is None:
            without_asil.setdefault(category, []).append(item)
        if parents and value is not None:
            inheriting.append(Inheriting(item, value, tuple(parents)))
            if value.decomposed:
                for pid in parents:
                    decomposed.setdefault(pid, []).append(item)
        if category == "safety-goal":
            goals.append(GoalInfo(item, value, tuple(link.target for link in item.links("hazard") if link.valid)))
    rows = []
    row_goals: dict[str, list[str]] = {}
    row_levels: dict[str, str] = {}
    for row in doc.hara_rows:
        links = row.goal_links()
        for link in links:
            site = LinkSite(doc.path, link, "safety-goal", "Safety goal", None, row)
            targets.setdefault("safety-goal", {}).setdefault(link.target, []).append(site)
        cell = row.cells.get("asil")
        stated = parse_asil(cell.text) if cell is not None else None
        rows.append(RowInfo(doc.path, row, stated.level if stated else None, row_asil(row),
                            frozenset(link.target for link in links)))
        if stated is not None:
            row_levels.setdefault(row.id, stated.level)
        for link in links:
            row_goals.setdefault(link.target, []).append(row.id)
    return _Part(
        doc, tuple(doc.items), first, asil, {i: asil.get(id(it)) for i, it in first.items()}, tuple(inheriting),
        {pid: tuple(kids) for pid, kids in decomposed.items()}, tuple(goals),
        {g: tuple(events) for g, events in row_goals.items()}, row_levels,
        {k: {t: tuple(s) for t, s in by_t.items()} for k, by_t in targets.items()},
        {k: frozenset(by_t) for k, by_t in targets.items()},
        {k: frozenset(v) for k, v in goal_sourced.items()}, tuple(edges),
        {c: tuple(v) for c, v in by_category.items()},
        {c: frozenset(item.id for item in v) for c, v in by_category.items()},
        {c: tuple(v) for c, v in without_asil.items()}, tuple(rows), frozenset(info.row.id for info in rows),
    )


@dataclass(frozen=True, slots=True)
class Cycle:
    """Items whose "Derived from" links lead from each to every other; ``edges`` are the links inside it."""

    members: tuple[Item, ...]
    edges: tuple[tuple[Item, Link, Item], ...]  # (source, link, target), all within the cycle

    def routes(self) -> Routes:
        """Chains between members, for messages; build once per cycle and ask it for every edge."""
        return Routes(self.edges)


# Up to this many IDs in a cycle, a chain is the shortest one (a search per edge); above it, every chain goes
# through one root, found with two searches for the whole cycle, so a cycle of n items costs O(n), not O(n²).
EXACT_ROUTES = 64


class Route(NamedTuple):
    """A chain of IDs from an edge's source, over its target, back to the source: its first ``head`` and
    last ``tail`` IDs, its length, and the link between consecutive IDs of the head."""

    head: list[str]
    tail: list[str]
    length: int
    links: list[tuple[Item, Link, Item]]


class Routes:
    """Chains inside one cycle, over IDs (the cycle is strongly connected as a graph of IDs; a duplicate
    definition's links count for its ID)."""

    def __init__(self, edges: tuple[tuple[Item, Link, Item], ...]) -> None:
        self.succ: dict[str, list[str]] = {}
        self.link: dict[tuple[str, str], tuple[Item, Link, Item]] = {}
        for edge in edges:
            src, _lk, dst = edge
            pair = (src.id, dst.id)
            if pair not in self.link:
                self.link[pair] = edge
                self.succ.setdefault(src.id, []).append(dst.id)
        self.exact = len(self.succ) <= EXACT_ROUTES
        if not self.exact:
            self.root = next(iter(self.succ))
            pred: dict[str, list[str]] = {}
            for a, outs in self.succ.items():
                for b in outs:
                    pred.setdefault(b, []).append(a)
            # id -> (the next ID on its chain to the root, steps to the root), and the same for the chain
            # from the root to it (the ID before it)
            self.toward, self.to_root = _search(self.root, pred)
            self.parent, self.from_root = _search(self.root, self.succ)

    def back(self, start: str, goal: str, head: int, tail: int) -> Route:
        """The chain ``start`` → ``goal`` → … → ``start`` (``goal`` is the target of one of start's links)."""
        if goal == start:
            ids = [start, start]
        elif self.exact:
            ids = [start, *_shortest(goal, start, self.succ)]
        else:
            return self._through_root(start, goal, head, tail)
        return Route(ids[:head], ids[-tail:] if tail else [], len(ids), self._links(ids[1:head]))

    def _through_root(self, start: str, goal: str, head: int, tail: int) -> Route:
        """``start``, then ``goal``'s chain to the root, then the root's chain to ``start``, walked only as far
        as the head and the tail need (the middle part of the root's chain only when the head reaches it)."""
        first = [start, goal]
        node = goal
        while node != self.root:
            node = self.toward[node]
            first.append(node)
            if len(first) >= head:
                break
        back = [start]  # the root's chain to start, from its end
        node = start
        while node != self.root and len(back) <= tail:
            node = self.parent[node]
            back.append(node)
        length = 2 + self.to_root[goal] + self.from_root[start]
        if len(first) < head and first[-1] == self.root:
            forward = [start]
            node = start
            while node != self.root:
                node = self.parent[node]
                forward.append(node)
            first.extend(forward[::-1][1:head - len(first) + 1])
        back.reverse()
        tail_ids = back[-tail:] if tail else []
        return Route(first[:head], tail_ids, length, self._links(first[1:head]))

    def _links(self, ids: list[str]) -> list[tuple[Item, Link, Item]]:
        return [self.link[(a, b)] for a, b in zip(ids, ids[1:])]


def _search(root: str, adj: dict[str, list[str]]) -> tuple[dict[str, str], dict[str, int]]:
    """Breadth-first from ``root`` over ``adj``: each reached ID mapped to the ID it was reached from, and
    to its distance from ``root``."""
    came: dict[str, str] = {root: root}
    dist = {root: 0}
    queue = deque([root])
    while queue:
        node = queue.popleft()
        for nxt in adj.get(node, ()):
            if nxt not in came:
                came[nxt] = node
                dist[nxt] = dist[node] + 1
                queue.append(nxt)
    return came, dist


def _shortest(start: str, goal: str, adj: dict[str, list[str]]) -> list[str]:
    """The shortest chain of IDs from ``start`` to ``goal`` (both included)."""
    came = _search(start, adj)[0]
    steps = [goal]
    while steps[-1] != start:
        steps.append(came[steps[-1]])
    return steps[::-1]


def derivation_cycles(ws: Workspace) -> list[Cycle]:
    """Every cycle of "Derived from" links (including an item derived from itself), in workspace order.

    Nodes are IDs (a duplicate definition's links count for its ID); members are reported as the
    definitions that hold links inside the cycle.
    """
    graph = trace_graph(ws)
    state = _state(ws)
    key = tuple(part.edges for _path, part in sorted(state.parts.items()))
    if key != state.edges_key:
        state.cycle_ids = _cycles_by_id(chain.from_iterable(key))
        state.edges_key = key
    cycles = []
    for ids in state.cycle_ids:
        inside = set(ids)
        members: dict[int, Item] = {}
        edges = []
        for item_id in ids:
            for item in ws.definitions(item_id):
                for link in item.links("derived-from"):
                    target = graph.first.get(link.target) if link.valid and link.target in inside else None
                    if target is not None:
                        edges.append((item, link, target))
                        members.setdefault(id(item), item)
        if edges:
            ordered = sorted(members.values(), key=_place)
            cycles.append(Cycle(tuple(ordered), tuple(edges)))
    return sorted(cycles, key=lambda c: _place(c.members[0]))


def _place(item: Item) -> tuple[str, int]:
    return item.path, item.line


_PEEL_ROUNDS = 8


def _cycles_by_id(edges) -> list[list[str]]:
    """The strongly connected components with a cycle, as lists of IDs, of the graph with these edges.

    A node in a cycle has edges both in and out, so the edges of nodes without one or the other are peeled
    off first, a round per level of the hierarchy (set operations at C speed); derivation graphs are
    shallow and nearly acyclic, so little or nothing is left for the per-node walk of Tarjan's algorithm.
    The rounds are capped so that a long chain costs no more than the walk would.
    """
    edges = list(edges)
    for _ in range(_PEEL_ROUNDS):
        both = {src for src, _dst in edges}.intersection(dst for _src, dst in edges)
        kept = [(src, dst) for src, dst in edges if src in both and dst in both]
        if len(kept) == len(edges):
            break
        edges = kept
    index_of: dict[str, int] = {}
    adj: list[list[int]] = []
    self_loops: set[int] = set()
    for src, dst in edges:
        s = index_of.setdefault(src, len(index_of))
        d = index_of.setdefault(dst, len(index_of))
        while len(adj) < len(index_of):
            adj.append([])
        adj[s].append(d)
        if s == d:
            self_loops.add(s)
    ids = list(index_of)
    return [sorted(ids[v] for v in comp) for comp in _strongly_connected(adj)
            if len(comp) > 1 or comp[0] in self_loops]


def _strongly_connected(adj: list[list[int]]) -> list[list[int]]:
    """Tarjan's strongly connected components with an explicit stack."""
    n = len(adj)
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] != -1 or not adj[root]:
            continue  # a node without outgoing edges cannot start a cycle
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        work = [(root, 0)]
        while work:
            v, pos = work[-1]
            if pos < len(adj[v]):
                work[-1] = (v, pos + 1)
                w = adj[v][pos]
                if index[w] == -1:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, 0))
                elif on_stack[w] and index[w] < low[v]:
                    low[v] = index[w]
                continue
            work.pop()
            if work:
                u = work[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out
