"""Trace rules: links that lead nowhere, duplicate IDs, cycles, orphans, goals without requirements,
links to the wrong kind of item and hazardous events no safety goal covers.

All but two rules need the whole workspace and run on every change. They read the trace graph
(workspace.graph), which is reassembled from per-document parts, and narrow the links to look at with set
operations on IDs (undefined targets, targets of a suspicious kind); nothing is re-parsed. Spelling
suggestions for dangling links are the one costly part: they are cached while the set of IDs is unchanged,
and a cold check scores all undefined targets against all IDs in one batch to narrow each search. Dangling
links are found, and reported, per document, kept while the document and the set of IDs stay the same.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter

from ...model.document import Item
from ...model.ids import is_item_id, kind_prefix
from ...model.ranges import Span
from ...workspace import Workspace
from ...workspace.asil import excerpt
from ...workspace.facts import sec_classes
from ...workspace.graph import LinkSite, RowInfo, TraceGraph, derivation_cycles, trace_graph
from ..context import CheckContext
from ..findings import Edit, Finding, Fix, Related
from ..registry import item_check, workspace_check

# The kind categories a link under each key is expected to reach (used to rank spelling suggestions).
EXPECTED = {"derived-from": ("safety-goal", "safety-requirement", "requirement", "claim"),
            "verified-by": ("verification",), "hazard": ("hazard",), "safety-goal": ("safety-goal",)}
SUGGESTION_CUTOFF = 70  # rapidfuzz ratio (0-100) below which an ID is not offered as a correction
MAX_SUGGESTIONS = 3


def _holder(site: LinkSite) -> str:
    return site.source.id if site.source is not None else f"hazardous event {site.row.id}"  # type: ignore[union-attr]


def _target_category(ws: Workspace, graph: TraceGraph, target_id: str) -> str:
    """The kind category of a defined ID: its first item's, or ``hazard`` for a HARA row."""
    target = graph.first.get(target_id)
    return ws.category(target) if target is not None else "hazard"


def _kind_name(ws: Workspace, item: Item) -> str:
    kind = ws.vocabulary.kind_of(item.kind)
    return kind.name if kind else "item"


# -- dangling and malformed links -------------------------------------------------------------------------
@dataclass(eq=False)
class _Suggestions:
    """Spelling suggestions by (target, key), valid for one set of IDs under one vocabulary; ``pools`` are,
    per target, the IDs that may score at least the cut-off (all IDs when absent)."""

    id_set: set[str]
    ids: list[str]  # sorted, so that ties between equally close IDs break the same way every run
    vocabulary: object
    by_target: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    pools: dict[str, list[str]] = field(default_factory=dict)


_SUGGESTIONS: weakref.WeakKeyDictionary[Workspace, _Suggestions] = weakref.WeakKeyDictionary()
# From this many targets without suggestions on, their pools are narrowed with one matrix of scores
# (rapidfuzz cdist, whose batch scoring is several times faster per pair than a search per target, but
# which costs a numpy import); below it each target is searched among all IDs.
BATCH_TARGETS = 24
# From this many distinct undefined IDs of one kind prefix that no defined ID has ("Verified by: XT-12" on
# every requirement), the links are taken for items kept outside the workspace: their findings suggest
# declaring ``external-ids`` instead of searching each for a spelling correction (which, for tens of
# thousands of such links, cost more than the rest of the check).
EXTERNAL_GROUP = 10
_MATRIX_CELLS = 4_000_000  # scores per cdist call (16 MB of float32), so memory stays bounded


def _suggestions(ctx: CheckContext) -> _Suggestions:
    cache = ctx.memo.get("trace/suggestions")
    if cache is None:
        ws = ctx.workspace
        ids = trace_graph(ws).defined_ids()
        cache = _SUGGESTIONS.get(ws)
        if cache is None or cache.vocabulary is not ws.vocabulary or cache.id_set != ids:
            cache = _Suggestions(set(ids), sorted(ids), ws.vocabulary)
            _SUGGESTIONS[ws] = cache
        ctx.memo["trace/suggestions"] = cache
    return cache


def external_prefixes(targets: Iterable[str], ids: Iterable[str]) -> frozenset[str]:
    """The kind prefixes of at least ``EXTERNAL_GROUP`` of the undefined ``targets`` that no defined ID has."""
    counts = Counter(map(kind_prefix, targets))
    groups = {prefix for prefix, n in counts.items() if n >= EXTERNAL_GROUP and prefix}
    return frozenset(groups.difference(map(kind_prefix, ids))) if groups else frozenset()


def to_suggest(targets: Iterable[str], ids: Iterable[str], external: Callable[[str], object]) -> list[str]:
    """Of the undefined ``targets``, sorted, those that get spelling suggestions: not declared external
    (``external``, the configuration's test) and not of an external prefix group."""
    targets = [t for t in targets if not external(t)]
    groups = external_prefixes(targets, ids)
    return sorted(t for t in targets if kind_prefix(t) not in groups) if groups else sorted(targets)


def _narrow(cache: _Suggestions, targets: list[str]) -> None:
    """Fill ``cache.pools`` for ``targets`` (see ``narrow_pools``)."""
    cache.pools.update(narrow_pools(targets, cache.ids))


def narrow_pools(targets: list[str], ids: list[str]) -> dict[str, list[str]]:
    """For each target, the IDs (in the order of ``ids``, which is sorted) whose ratio to the target may
    reach the cut-off, a small superset of those that do. The exact search then runs on the pool and finds
    what it would find among all IDs, ties included, since the pool keeps the IDs' order.

    A function of strings alone, so that ``checks.parallel`` can run it in another process.
    """
    import numpy as np
    from rapidfuzz import fuzz, process

    pools: dict[str, list[str]] = {}
    rows = max(1, _MATRIX_CELLS // max(1, len(ids)))
    floor = SUGGESTION_CUTOFF - 0.01  # float32 scores: a margin far above their rounding error
    for k in range(0, len(targets), rows):
        chunk = targets[k:k + rows]
        scores = process.cdist(chunk, ids, scorer=fuzz.ratio, dtype=np.float32)
        for target, row in zip(chunk, scores):
            pools[target] = [ids[i] for i in np.flatnonzero(row >= floor).tolist()]
    return pools


def prime_suggestions(ws: Workspace, ids: list[str], pools: dict[str, list[str]]) -> None:
    """Take ``narrow_pools(targets, ids)`` computed elsewhere for the workspace whose defined IDs, sorted,
    are ``ids``. If that is not what the rule finds the workspace defines, the pools are ignored."""
    cache = _Suggestions(set(ids), list(ids), ws.vocabulary)
    cache.pools.update(pools)
    _SUGGESTIONS[ws] = cache


def _suggest(ctx: CheckContext, target: str, key: str, exclude: str | None) -> list[str]:
    """The defined IDs closest to ``target``, best first: of the 12 most similar (rapidfuzz ratio), IDs of
    the kind the key expects, then of the same prefix, then by similarity."""
    ws = ctx.workspace
    cache = _suggestions(ctx)
    hit = cache.by_target.get((target, key))
    if hit is None:
        from rapidfuzz import fuzz, process

        prefix = kind_prefix(target)
        expected = EXPECTED.get(key, ())
        pool = cache.pools.get(target, cache.ids)
        scored = process.extract(target, pool, scorer=fuzz.ratio, limit=12, score_cutoff=SUGGESTION_CUTOFF)

        def order(entry: tuple[str, float, int]) -> tuple:
            cand, score, _ = entry
            kind = ws.vocabulary.kind_of(kind_prefix(cand))
            category = kind.category if kind else ("hazard" if ws.hara_rows(cand) else "requirement")
            return (category not in expected, kind_prefix(cand) != prefix, -score, cand)

        hit = [cand for cand, _s, _i in sorted(scored, key=order)]
        cache.by_target[(target, key)] = hit
    return [c for c in hit if c != exclude][:MAX_SUGGESTIONS]


@workspace_check("trace/dangling-link")
def dangling_link(ctx: CheckContext) -> list[Finding]:
    graph = trace_graph(ctx.workspace)
    cache = _suggestions(ctx)
    defined = cache.id_set  # the same as graph.defined_ids(); the cache stands for it

    external = ctx.config.external  # IDs of items kept outside the workspace: their existence is not checked

    def dangling(path: str, links: dict[str, dict[str, tuple[LinkSite, ...]]]) -> list[LinkSite]:
        found = [site for by_target in links.values() for target in by_target.keys() - defined
                 if not external(target) for site in by_target[target]]
        found.sort(key=lambda s: s.link.span)
        return found

    # Per document, kept while the document, the defined IDs and the external patterns (and this rule's
    # severity) stay the same.
    sites = graph.per_document_links("trace/dangling-link", (cache, ctx.config.external_ids), dangling)
    targets = {s.link.target for s in sites}
    groups = external_prefixes(targets, defined)
    pending = sorted({s.link.target for s in sites if (s.link.target, s.key) not in cache.by_target
                      and kind_prefix(s.link.target) not in groups} - cache.pools.keys())
    if len(pending) >= BATCH_TARGETS:
        _narrow(cache, pending)
    token = (cache, ctx.config.external_ids, groups, ctx.severities["trace/dangling-link"])
    return graph.per_document_links(
        "trace/dangling-link findings", token,
        lambda path, links: [_dangling(ctx, site, groups) for site in dangling(path, links)])


def _dangling(ctx: CheckContext, site: LinkSite, groups: frozenset[str]) -> Finding:
    target = site.link.target
    prefix = kind_prefix(target)
    if prefix in groups:
        pattern = target[:len(prefix) + 1] + "*"
        return ctx.finding(
            "trace/dangling-link", site.path, site.link.span,
            f"'{site.raw_key}' of {_holder(site)} names {excerpt(target)}, which is not defined in the workspace, "
            f"nor is any {prefix} item: if {prefix} items live outside it, declare external-ids = [\"{pattern}\"]")
    exclude = site.source.id if site.source is not None else None
    options = _suggest(ctx, target, site.key, exclude)
    hint = f"; did you mean {' or '.join(options)}?" if options else ": define it or correct the link"
    fixes = [Fix(f"Change to {cand}", (Edit(site.path, site.link.span, cand),), safe=False) for cand in options]
    return ctx.finding("trace/dangling-link", site.path, site.link.span,
                       f"'{site.raw_key}' of {_holder(site)} names {excerpt(target)}, which is not defined in the workspace{hint}",
                       fixes=fixes)


_VALID = itemgetter(2)  # Link.valid


@item_check("trace/malformed-link")
def malformed_link(ctx: CheckContext, item: Item) -> Iterable[Finding]:
    # Called for every item, nearly always to find nothing: a plain test first (the links' ``valid`` read at
    # C speed, no generator per item), the findings only then.
    for attr in item.attributes:
        if attr.links and not all(map(_VALID, attr.links)):
            return _malformed_links(ctx, item)
    return ()


def _malformed_links(ctx: CheckContext, item: Item) -> Iterator[Finding]:
    for attr in item.attributes:
        for link in attr.links:
            if link.valid:
                continue
            fixes = []
            upper = link.target.upper()
            joined = "-".join(upper.split())
            if is_item_id(upper):
                fixes.append(Fix(f"Write {upper}", (Edit(item.path, link.span, upper),)))
            elif is_item_id(joined):
                fixes.append(Fix(f"Write {joined}", (Edit(item.path, link.span, joined),), safe=False))
            yield ctx.finding(
                "trace/malformed-link", item.path, link.span,
                f"'{excerpt(link.target)}' under '{attr.raw_key}' of {item.id} is not an item ID, so it links nowhere: "
                f"list IDs separated by commas (e.g. SG-1, FSR-2) and put prose under Rationale",
                fixes=fixes)


# -- identity and structure -------------------------------------------------------------------------------
@workspace_check("trace/duplicate-id")
def duplicate_id(ctx: CheckContext) -> Iterator[Finding]:
    ws = ctx.workspace
    graph = trace_graph(ws)
    for item in graph.items if len(graph.first) != len(graph.items) else ():
        first = graph.first[item.id]
        if first is not item:
            yield ctx.finding(
                "trace/duplicate-id", item.path, item.id_span,
                f"{item.id} is already defined in {first.path}; IDs must be "
                f"unique across the workspace, so links to {item.id} reach only the first definition",
                related=[Related(first.path, first.id_span, f"first definition of {item.id}")])
    first_row: dict[str, RowInfo] = {}
    for info in graph.rows if len(graph.row_ids()) != len(graph.rows) else ():
        first = first_row.setdefault(info.row.id, info)
        if first is not info:
            span = first.row.cells["id"].span
            yield ctx.finding(
                "trace/duplicate-id", info.path, info.row.cells["id"].span,
                f"Hazardous event {info.row.id} is already a HARA row in {first.path}; "
                f"give each hazardous event its own ID",
                related=[Related(first.path, span, f"first definition of {info.row.id}")])


MAX_CHAIN = 8  # items shown in a cycle's message (and related links listed) before eliding the middle


@workspace_check("trace/cycle")
def cycle(ctx: CheckContext) -> Iterator[Finding]:
    notes: dict[int, Related] = {}  # one note per link: a link is listed by up to MAX_CHAIN findings of its cycle
    for cyc in derivation_cycles(ctx.workspace):
        routes = cyc.routes()
        for src, link, dst in cyc.edges:
            if src is dst:
                message = f"{src.id} is derived from itself; a requirement's parent must be another item"
                related: list[Related] = []
            else:
                route = routes.back(src.id, dst.id, MAX_CHAIN + 2, MAX_CHAIN // 2 - 1)
                shown = route.head if route.length <= MAX_CHAIN else \
                    route.head[:MAX_CHAIN // 2] + ["…"] + route.tail
                message = (f"{src.id} is derived from {dst.id}, which leads back to {src.id} ({' → '.join(shown)}): "
                           f"'Derived from' links must not form a cycle, or nothing in it traces to a safety goal")
                related = [notes.get(id(lk)) or
                           notes.setdefault(id(lk), Related(s.path, lk.span, f"{s.id} is derived from {d.id}"))
                           for s, lk, d in route.links]
            yield ctx.finding("trace/cycle", src.path, link.span, message, related=related)


@item_check("trace/orphan", topics={"category:safety-requirement"})
def orphan(ctx: CheckContext, item: Item) -> Iterable[Finding]:
    ws = ctx.workspace
    if ws.category(item) != "safety-requirement":
        return ()
    for attr in item.attributes:  # item.links("derived-from") without building the list: runs for every item
        if attr.links and attr.key == "derived-from":
            return ()
    return [ctx.finding(
        "trace/orphan", item.path, item.id_span,
        f"{item.id} is a {_kind_name(ws, item)} with no parent: add 'Derived from:' naming the safety goal or "
        f"safety requirement it refines")]


@workspace_check("trace/goal-without-children")
def goal_without_children(ctx: CheckContext) -> Iterator[Finding]:
    graph = trace_graph(ctx.workspace)
    parents = graph.target_ids("derived-from")
    for item in graph.category("safety-goal"):
        if item.id not in parents and graph.first[item.id] is item:
            yield ctx.finding(
                "trace/goal-without-children", item.path, item.id_span,
                f"No requirement is derived from safety goal {item.id}: derive the functional safety "
                f"requirements that achieve it ('Derived from: {item.id}')")


# -- kinds at both ends of a link -------------------------------------------------------------------------
def _wrong_kind_reason(key: str, source_category: str | None, target_category: str) -> str | None:
    if key == "verified-by" and target_category != "verification":
        return "'Verified by' should name verification items (tests, reviews, analyses)"
    if key == "hazard" and target_category != "hazard":
        return "'Hazard' should name hazardous events"
    if key == "safety-goal" and target_category != "safety-goal":
        return "the HARA's safety-goal column should name safety goals"
    if key == "derived-from":
        if target_category == "verification":
            return "a requirement is derived from requirements or goals, not from verification items; use 'Verified by'"
        if target_category == "hazard":
            return "link hazardous events with 'Hazard:' on the safety goal; requirements derive from safety goals"
        if source_category == "safety-goal" and target_category == "safety-requirement":
            return "a safety goal is the top of the trace; the safety requirement should be derived from the goal"
    return None


@workspace_check("trace/wrong-kind")
def wrong_kind(ctx: CheckContext) -> Iterator[Finding]:
    ws = ctx.workspace
    graph = trace_graph(ws)
    defined = graph.defined_ids()
    verification = graph.ids_in("verification")
    hazards = graph.ids_in("hazard") | (graph.row_ids() - graph.first.keys())
    # Set operations narrow the links to the few whose target may be of the wrong kind; the reason is
    # then decided per link.
    suspects = [
        graph.sites("verified-by", inside=defined, outside=verification),
        graph.sites("hazard", inside=defined, outside=hazards),
        graph.sites("safety-goal", inside=defined, outside=graph.ids_in("safety-goal")),
        graph.sites("derived-from", inside=verification | hazards),
        graph.sites("derived-from", inside=graph.ids_in("safety-requirement"), held_by_goals=True),
    ]
    for site in chain.from_iterable(suspects):
        category = _target_category(ws, graph, site.link.target)
        source_category = ws.category(site.source) if site.source is not None else None
        reason = _wrong_kind_reason(site.key, source_category, category)
        if reason is None:
            continue
        target = graph.first.get(site.link.target)
        related = [Related(target.path, target.id_span, f"{target.id} is a {_kind_name(ws, target)}")] if target else []
        yield ctx.finding(
            "trace/wrong-kind", site.path, site.link.span,
            f"'{site.raw_key}' of {_holder(site)} names {site.link.target}, a {category.replace('-', ' ')}: "
            f"{reason}", related=related)


# -- hazard coverage --------------------------------------------------------------------------------------
@workspace_check("trace/uncovered-hazard")
def uncovered_hazard(ctx: CheckContext) -> Iterator[Finding]:
    graph = trace_graph(ctx.workspace)
    by_goal, _levels = graph.events_naming()
    covered = set(graph.target_ids("hazard", goal_sourced=True))
    for goal_id in graph.ids_in("safety-goal").intersection(by_goal):
        covered.update(by_goal[goal_id])
    row_ids = graph.row_ids()
    if not row_ids <= covered:
        seen: set[str] = set()
        for info in graph.rows:  # each event once, on its first row
            event_id = info.row.id
            if event_id in covered or event_id in seen:
                continue
            seen.add(event_id)
            if info.level != "QM":
                yield _uncovered(ctx, event_id, info.level, info.path, info.row.cells["id"].span)
    for item in graph.category("hazard"):
        if item.id in covered or item.id in row_ids or graph.first[item.id] is not item:
            continue
        value = graph.asil_of(item)
        sec = sec_classes(item)
        level = value.level if value else (sec.asil if sec else None)
        if level != "QM":
            yield _uncovered(ctx, item.id, level, item.path, item.id_span)


def _uncovered(ctx: CheckContext, event_id: str, level: str | None, path: str, span: Span) -> Finding:
    asil = f" (ASIL {level})" if level else ""
    return ctx.finding(
        "trace/uncovered-hazard", path, span,
        f"Hazardous event {event_id}{asil} is not covered by any safety goal: name a goal in the HARA's "
        f"safety-goal column or list {event_id} under a goal's 'Hazard:'")


# -- cited clauses ----------------------------------------------------------------------------------------
@item_check("trace/unknown-clause")
def unknown_clause(ctx: CheckContext, item: Item) -> Iterable[Finding]:
    # Called for every item; most cite nothing, and the catalogue's numbers are read only once one does.
    if not item.clause_refs:
        return ()
    return _unknown_clauses(ctx, item)


def _unknown_clauses(ctx: CheckContext, item: Item) -> Iterator[Finding]:
    """References to a clause the catalogue's edition of a catalogued document does not have.

    The catalogue lists every top-level clause of the documents it covers and their sub-clauses only in part,
    so a clause is reported only when it certainly does not exist: its top-level clause is not in the
    document, or its parent is catalogued with sub-clauses and it lies past the last of them at depth two
    (6.9 where clause 6 ends at 6.5). A reference to another edition, or to a document the catalogue does
    not cover, is left alone: nothing here can judge it."""
    from ...workspace.catalogued import clause_numbers, normalise_clause

    numbers = clause_numbers()
    for ref in item.clause_refs:
        year = numbers.years.get(ref.document)
        if not ref.clause or year is None or (ref.year and ref.year != year) or ref.span is None:
            continue
        clause = normalise_clause(ref.clause)
        closest = _missing_clause(ref.document, clause)
        if closest is None:
            continue
        fixes = [Fix(f"Write {_ref_text(ref, c)} ({numbers.titles[(ref.document, c)]})",
                     (Edit(item.path, ref.span, _ref_text(ref, c)),), safe=False) for c in closest]
        hint = f"; closest: {', '.join(f'§{c}' for c in closest)}" if closest else ""
        yield ctx.finding(
            "trace/unknown-clause", item.path, ref.span,
            f"{ref.raw.strip()}: {ref.document}:{year} has no clause {clause} (not in safereq's clause "
            f"catalogue){hint}", fixes=fixes)


@lru_cache(maxsize=4096)
def _missing_clause(document: str, clause: str) -> tuple[str, ...] | None:
    """None when the clause may exist; else the closest catalogued clauses (a workspace repeats the same
    mistyped reference, so each is worked out once)."""
    from ...workspace.catalogued import clause_numbers, sort_key

    titles = clause_numbers().titles
    return tuple(_closest_clauses(titles, document, clause, sort_key)) if _certainly_missing(titles, document, clause) else None


def _certainly_missing(titles: dict[tuple[str, str], str], document: str, clause: str) -> bool:
    if (document, clause) in titles or clause.startswith(("Table", "Annex")):
        return False
    parts = clause.split(".")
    if (document, parts[0]) not in titles:
        return True
    if len(parts) != 2 or not parts[1].isdigit():
        return False
    siblings = [int(c.split(".")[1]) for (d, c) in titles if d == document and c.count(".") == 1
                and c.split(".")[0] == parts[0] and c.split(".")[1].isdigit()]
    return bool(siblings) and int(parts[1]) > max(siblings)


def _closest_clauses(titles: dict[tuple[str, str], str], document: str, clause: str, sort_key,
                     limit: int = MAX_SUGGESTIONS) -> list[str]:
    """Catalogued clauses of the document nearest to the mistyped number: the longest shared leading numbers
    first, then the nearest number at the first place they differ, then the shallowest."""
    parts = clause.split(".")

    def distance(candidate: str) -> tuple:
        other = candidate.split(".")
        shared = next((i for i, (a, b) in enumerate(zip(parts, other)) if a != b), min(len(parts), len(other)))
        gap = abs(int(parts[shared]) - int(other[shared])) if (shared < len(parts) and shared < len(other)
                                                               and parts[shared].isdigit() and other[shared].isdigit()) else 99
        return (-shared, gap, len(other) if shared == 0 else abs(len(other) - len(parts)), sort_key(candidate))

    pool = [c for (d, c) in titles if d == document and c[:1].isdigit()]
    return sorted(pool, key=distance)[:limit]


def _ref_text(ref, clause: str) -> str:
    year = f":{ref.year}" if ref.year else ""
    return f"{ref.document}{year} §{clause}"


# trace/suspect-link compares links with the review file; it has a module of its own (families/suspect.py).
from . import suspect  # noqa: E402,F401  (importing it registers the rule)
