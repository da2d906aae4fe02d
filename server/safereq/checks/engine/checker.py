"""Run the checks over a workspace, caching per-item and per-document results between runs.

Items keep their identity across parses while their sections are unchanged, even when an edit above them
moved them (see model.incremental), so the findings of an unchanged item are reused, moved with it when it
moved; workspace-wide rules (trace graph, ASIL inheritance) run in full only when the facts they read changed.

Workspace-scope rules may read item IDs, kinds, headings, attributes (values and positions) and HARA rows,
but not statement text. That contract lets an edit of a statement — the common keystroke — and an edit that
only moves lines — pressing Enter — reuse the workspace-wide findings: they are recomputed only when some
item's or row's *shape* (what the rules read, positions left out) changed. Otherwise the last findings are
moved along the documents' line changes (``model.sections.LineChange``); a finding on a line that an edit
replaced cannot be moved that way, and then the rules run again. For the same reason a workspace-scope
finding keeps positions out of its message: its related places say where the other end is.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import replace
from itertools import compress
from operator import is_, is_not
from typing import TYPE_CHECKING, Any, NamedTuple

from ...model.document import Document, HaraRow, Item
from ...model.ranges import Span, new_tuple
from ...model.sections import LineChange
from ...workspace import Workspace
from ..config import Config
from ..context import CheckContext
from ..findings import Edit, Finding, Fix, Related, Severity
from ..registry import CheckFn, RuleInfo, checks, engine_rule_infos, rule_infos
from .deviations import Accepted, apply as apply_deviations
from .dispatch import ItemDispatch

if TYPE_CHECKING:
    from ...impact.review_state import ReviewState

_log = logging.getLogger(__name__)


def _moved(finding: Finding, lines: int) -> Finding:
    """An item-scope finding of an item that moved down by ``lines`` (its edits and related places in the
    same document too)."""
    moved = _remap(finding, lambda path, span: span.shifted(lines) if path == finding.path else span)
    assert moved is not None
    return moved


def _carried(finding: Finding, moves: dict[str, tuple[LineChange, ...]]) -> Finding | None:
    """``finding`` with its spans in the documents of ``moves`` carried along those documents' line changes
    (see ``_carry``); None when one lies on a line that a change replaced."""
    return _remap(finding, lambda path, span: _carry(span, moves.get(path)))


def _remap(finding: Finding, where: Callable[[str, Span], Span | None]) -> Finding | None:
    """``finding`` with each of its spans (its own, its fixes' edits', its related places') replaced by
    ``where(path, span)``: the same object when every span stays the same object, None when ``where``
    returns None for one."""
    span = where(finding.path, finding.span)
    if span is None:
        return None
    fixes = []
    for fx in finding.fixes:
        edits = []
        for e in fx.edits:
            at = where(e.path, e.span)
            if at is None:
                return None
            edits.append(e if at is e.span else Edit(e.path, at, e.new_text))
        fixes.append(fx if all(map(is_, edits, fx.edits)) else Fix(fx.title, tuple(edits), fx.safe))
    related = []
    for r in finding.related:
        at = where(r.path, r.span)
        if at is None:
            return None
        related.append(r if at is r.span else Related(r.path, at, r.message))
    if span is finding.span and all(map(is_, fixes, finding.fixes)) and all(map(is_, related, finding.related)):
        return finding
    return replace(finding, span=span, fixes=tuple(fixes), related=tuple(related))


def _carry(span: Span, changes: tuple[LineChange, ...] | None) -> Span | None:
    """``span`` carried along ``changes`` (the same object when it did not move), None when it touches a
    replaced line."""
    if changes is None:
        return span
    start, end = span[0], span[2]
    for change in changes:
        if end < change.first:
            continue  # above the change: it stays (the common case for a keystroke below)
        start, end = change.maps(start), change.maps(end)  # type: ignore[arg-type]
        if start is None or end is None:
            return None
    if start == span[0] and end == span[2]:
        return span
    return new_tuple(Span, (start, span[1], end, span[3]))


class _Seen(NamedTuple):
    """A document as the workspace-scope rules last saw it: the parse, its chain of incremental parses and
    its version in that chain (see ``model.incremental.SectionCache``)."""

    doc: Document
    lineage: object
    version: int


class _WorkspaceResult(NamedTuple):
    seen: dict[str, _Seen]
    found: list[Finding]
    by_path: dict[str, list[Finding]]


class Checker:
    """Checks a workspace under one configuration; keep one per workspace to benefit from the caches."""

    def __init__(self, config: Config | None = None) -> None:
        self.config = config or Config()
        infos = rule_infos()
        self.severities: dict[str, Severity] = {}
        for rid, info in (infos | engine_rule_infos()).items():
            sev = self.config.severity(rid, info.severity, info.enabled)
            if sev is not None:
                self.severities[rid] = sev
        active = [c for rid, c in checks().items() if rid in self.severities]
        # (rule, function) per scope; a document-scope rule's item part runs, and is cached, with the item checks.
        item_fns = [(c.rule, c.fn, c.topics) for c in active if c.scope == "item"]
        item_fns += [(c.rule, c.item_fn, c.topics) for c in active if c.scope == "document" and c.item_fn is not None]
        self._item_fns: list[tuple[str, CheckFn]] = [(rule, fn) for rule, fn, _topics in item_fns]
        self._dispatch = ItemDispatch(item_fns)
        self._document_fns = [(c.rule, c.fn) for c in active if c.scope == "document"]
        self._workspace_fns = [(c.rule, c.fn) for c in active if c.scope == "workspace"]
        self._linked_fns = [(c.rule, c.fn) for c in active if c.scope == "linked"]
        # The review state linked rules compare against (see set_review), their kept caches, and what the
        # last run of them saw: path -> (document, id(item) -> its heading line), and findings by path.
        self.review: ReviewState | None = None
        self._keep: dict[Any, Any] = {}
        self._linked_seen: dict[str, tuple[Document, dict[int, int]]] | None = None
        self._linked_by_path: dict[str, list[Finding]] = {}
        # path -> (document, id(item) -> (item, its findings, its line when they were found), all its items'
        # findings)
        self._item_cache: dict[str, tuple[Document, dict[int, _ItemHit], list[Finding]]] = {}
        self._doc_cache: dict[str, tuple[Document, list[Finding]]] = {}
        # Rules that raised, with the error: shown by the CLI and logged by the language server.
        self.failures: dict[str, str] = {}
        self._workspace_result: _WorkspaceResult | None = None
        # path -> (local, workspace and linked findings of the path, all merged and sorted with the path's
        # deviations applied, the findings those accepted)
        self._sorted: dict[str, _PathResult] = {}

    @property
    def rules(self) -> dict[str, RuleInfo]:
        return rule_infos()

    def _context(self, ws: Workspace) -> CheckContext:
        return CheckContext(ws, self.config, self.severities, keep=self._keep, review=self.review)

    def set_review(self, review: ReviewState | None) -> None:
        """Compare linked rules against ``review`` from now on (the next check runs them in full)."""
        self.review = review
        self._linked_seen = None

    def _local(self, ctx: CheckContext, doc: Document) -> list[Finding]:
        """Item- and document-scope findings of one document, reusing results for unchanged items."""
        cached = self._doc_cache.get(doc.path)
        if cached is not None and cached[0] is doc:
            return cached[1]
        old = self._item_cache.get(doc.path)
        diff = doc.sections
        if old is not None and getattr(diff, "base", None) is old[0].items:
            per_item, item_found = self._local_changes(ctx, diff, old[1], old[2])
        else:
            per_item, item_found = self._local_all(ctx, doc, old[1] if old else {})
        out = list(item_found)
        for rule, fn in self._document_fns:
            out.extend(self._run(rule, fn, ctx, doc))
        self._item_cache[doc.path] = (doc, per_item, item_found)
        self._doc_cache[doc.path] = (doc, out)
        return out

    def _local_all(
        self, ctx: CheckContext, doc: Document, old_items: dict[int, _ItemHit]
    ) -> tuple[dict[int, _ItemHit], list[Finding]]:
        """Per-item findings of every item, each unchanged item's taken from ``old_items`` (moved with the
        item when it moved since)."""
        # The old cache keeps its items alive, so an id found in it is the same (unchanged) item. Looking
        # all items up at C speed and visiting only the others keeps a one-item edit of a large document cheap.
        items = doc.items
        keys = list(map(id, items))
        hits = list(map(old_items.get, keys))
        for k in [k for k, hit in enumerate(hits) if hit is None]:
            hits[k] = self._checked(ctx, items[k])
        if old_items:
            for k in [k for k, hit in enumerate(hits) if hit[1]]:
                item, found, line = hits[k]
                if item.line != line:
                    hits[k] = _moved_hit(item, found, item.line - line)
        return dict(zip(keys, hits)), [f for hit in hits if hit[1] for f in hit[1]]

    def _local_changes(
        self, ctx: CheckContext, diff: Any, per_item: dict[int, _ItemHit], found: list[Finding]
    ) -> tuple[dict[int, _ItemHit], list[Finding]]:
        """The same after a parse that says which items it replaced and which it moved (``diff``, see
        model.incremental): only those are visited, so a keystroke costs the same in a document of 10 or
        2,000 items. The findings are in another order than ``_local_all`` gives; ``check`` sorts them."""
        gone = {id(f) for item in diff.removed for f in per_item.pop(id(item))[1]}
        added: list[Finding] = []
        for item in diff.added:
            hit = per_item[id(item)] = self._checked(ctx, item)
            added.extend(hit[1])
        for key, (item, lines) in diff.moved.items():
            hit = per_item.get(key)
            if hit is not None and hit[1]:  # an item without findings need not record where it is
                gone.update(map(id, hit[1]))
                hit = per_item[key] = _moved_hit(item, hit[1], lines)
                added.extend(hit[1])
        kept = [f for f in found if id(f) not in gone] if gone else found
        return per_item, kept + added if added else kept

    def _checked(self, ctx: CheckContext, item: Item) -> _ItemHit:
        """A cache entry for ``item`` checked now."""
        return item, self._check_item(ctx, item), item.line

    def _check_item(self, ctx: CheckContext, item: Item) -> list[Finding]:
        """Every item-scope finding of one item: the functions that can report on it (engine/dispatch.py) in one pass
        (a cold check makes tens of thousands of these calls), and again all of them one by one, isolating
        the failure, if some rule (or the plan) raises."""
        try:
            return [f for _rule, fn in self._dispatch(ctx, item) for f in fn(ctx, item)]
        except Exception:
            return [f for rule, fn in self._item_fns for f in self._run(rule, fn, ctx, item)]

    def _run(self, rule: str, fn: CheckFn, *args: Any) -> list[Finding]:
        """Run one check; a rule that fails is logged and recorded, and the other rules still report."""
        try:
            return list(fn(*args))
        except Exception as exc:  # a bug in one rule must not hide every other finding
            _log.exception("rule %s failed", rule)
            self.failures[rule] = f"{type(exc).__name__}: {exc}"
            return []

    def _workspace_findings(self, ctx: CheckContext, ws: Workspace) -> dict[str, list[Finding]]:
        """Workspace-scope findings by path (each path's in the order the rules reported them)."""
        last = self._workspace_result
        if last is not None:
            moves = _moves(last.seen, ws)
            if moves is not None and not moves:
                return last.by_path
            if moves is not None:
                carried = [_carried(f, moves) for f in last.found]
                if None not in carried:
                    found: list[Finding] = carried  # type: ignore[assignment]
                    by_path = dict(last.by_path)
                    for path in {new.path for new, old in zip(found, last.found) if new is not old}:
                        by_path[path] = [f for f in found if f.path == path]
                    self._workspace_result = _WorkspaceResult(_seen(ws), found, by_path)
                    return by_path
        found = [f for rule, fn in self._workspace_fns for f in self._run(rule, fn, ctx)]
        by_path = {}
        for f in found:
            by_path.setdefault(f.path, []).append(f)
        self._workspace_result = _WorkspaceResult(_seen(ws), found, by_path)
        return by_path

    def local_findings(self, ws: Workspace, paths: Iterable[str]) -> dict[str, list[Finding]]:
        """The item- and document-scope findings of these documents (cached as ``check`` caches them)."""
        ctx = self._context(ws)
        return {path: self._local(ctx, ws.documents[path]) for path in paths}

    def adopt_local(self, doc: Document, findings: list[Finding]) -> None:
        """Take ``doc``'s item- and document-scope findings, computed by another process, as if found here.

        ``check`` then reports them without checking the document's items again (see checks.parallel).
        """
        self._doc_cache[doc.path] = (doc, findings)

    def check(self, ws: Workspace, paths: Iterable[str] | None = None) -> list[Finding]:
        """Findings for ``paths`` (default: every document), sorted by path, line, column and rule."""
        wanted = set(paths) if paths is not None else set(ws.documents)
        for gone in set(self._doc_cache) - set(ws.documents):
            self._doc_cache.pop(gone, None)
            self._item_cache.pop(gone, None)
            self._sorted.pop(gone, None)
        ctx = self._context(ws)
        local = {path: self._local(ctx, ws.documents[path]) for path in sorted(wanted) if path in ws.documents}
        workspace = self._workspace_findings(ctx, ws)
        linked = self._linked_findings(ctx, ws)
        findings: list[Finding] = []
        # Findings sort by path first, so each path's are sorted on their own and kept while none of its
        # local, workspace and linked findings changed: an edit re-sorts one document's findings, not all.
        # A document's deviations are applied to its findings here (engine/deviations.py); a changed
        # document always brings new local findings, so they are applied again whenever it changes.
        for path in sorted(wanted):
            mine, theirs, links = local.get(path, _NONE), workspace.get(path, _NONE), linked.get(path, _NONE)
            kept = self._sorted.get(path)
            if kept is None or kept[0] is not mine or kept[1] is not theirs or kept[2] is not links:
                merged = sorted(mine + theirs + links, key=Finding.sort_key)
                shown, accepted = apply_deviations(ws.documents.get(path), merged, self.severities, self._known)
                kept = self._sorted[path] = _PathResult(mine, theirs, links, shown, accepted)
            findings.extend(kept.shown)
        return findings

    @property
    def _known(self) -> dict[str, RuleInfo]:
        """The rules a deviation may name: every rule that reports on items (not the io rules, which report
        files that could not be read, so have no item to write a deviation in)."""
        return rule_infos() | engine_rule_infos()

    def accepted(self, paths: Iterable[str] | None = None) -> list[Accepted]:
        """The findings that deviations accepted in the last check of ``paths`` (default: every path checked)."""
        keys = sorted(self._sorted) if paths is None else sorted(set(paths))
        return [a for path in keys if path in self._sorted for a in self._sorted[path].accepted]

    def _linked_findings(self, ctx: CheckContext, ws: Workspace) -> dict[str, list[Finding]]:
        """Linked-scope findings by path, re-run only for the documents they may have changed in (see
        ``registry.linked_check``): a changed document, and every document linking to an item of it that
        is new, gone, or on another line (its findings name the item's place)."""
        if not self._linked_fns or self.review is None or not self.review.recorded:
            # Linked rules compare links with a recorded review; without one they have nothing to say, and
            # an edit costs nothing here (the hot path of a workspace that never recorded a review).
            self._linked_seen, self._linked_by_path = None, {}
            return {}
        seen = self._linked_seen
        now = {path: (doc, {id(i): i.line for i in doc.items}) for path, doc in ws.documents.items()
               if seen is None or seen.get(path, (None,))[0] is not doc}
        if seen is None:
            dirty = set(ws.documents)
            self._linked_by_path = {}
        else:
            dirty = set(now)
            touched: set[str] = set()
            for path in set(seen) - set(ws.documents):
                touched.update(i.id for i in seen[path][0].items)
                self._linked_by_path.pop(path, None)
            for path, (doc, lines) in now.items():
                was = seen.get(path)
                before = was[1] if was is not None else {}
                touched.update(i.id for i in doc.items if before.get(id(i)) != lines[id(i)])
                if was is not None:
                    touched.update(i.id for i in was[0].items if id(i) not in lines)
            for item_id in touched:
                dirty.update(ref.path for ref in ws.references(item_id))
        found: dict[str, list[Finding]] = {path: [] for path in dirty if path in ws.documents}
        paths = sorted(found)
        for rule, fn in self._linked_fns:
            for f in self._run(rule, fn, ctx, paths):
                found.setdefault(f.path, []).append(f)
        for path, fs in found.items():
            if fs or self._linked_by_path.get(path):
                self._linked_by_path[path] = fs
        self._linked_seen = (dict(seen) if seen is not None else {}) | now
        for path in set(self._linked_seen) - set(ws.documents):
            del self._linked_seen[path]
        return self._linked_by_path


_NONE: list[Finding] = []


class _PathResult(NamedTuple):
    mine: list[Finding]
    theirs: list[Finding]
    links: list[Finding]
    shown: list[Finding]
    accepted: list[Accepted]


_ItemHit = tuple[Item, list[Finding], int]  # an item, its findings and its line when they were found


def _moved_hit(item: Item, found: list[Finding], lines: int) -> _ItemHit:
    """A cache entry for ``item``, whose findings ``found`` were made ``lines`` lines above where it is now."""
    return item, [_moved(f, lines) for f in found], item.line


def _seen(ws: Workspace) -> dict[str, _Seen]:
    out = {}
    for path, doc in ws.documents.items():
        cache = doc.sections
        out[path] = _Seen(doc, getattr(cache, "lineage", None), getattr(cache, "version", 0))
    return out


def _moves(seen: dict[str, _Seen], ws: Workspace) -> dict[str, tuple[LineChange, ...]] | None:
    """The line changes that turned each document the workspace-scope rules saw into the current one, by
    path (documents that did not change are left out); None when the rules must run again: a document was
    added or removed, some item or HARA row changed shape, or the changes are not known."""
    docs = ws.documents
    if len(seen) != len(docs):
        return None
    out: dict[str, tuple[LineChange, ...]] = {}
    for path, doc in docs.items():
        was = seen.get(path)
        if was is None:
            return None
        if doc is was.doc:
            continue
        cache = doc.sections
        if cache is None or getattr(cache, "lineage", None) is not was.lineage or cache.version <= was.version:
            return None
        changes = tuple(c for c in cache.changes if c.version > was.version)
        if not changes or changes[0].version != was.version + 1:
            return None  # older than the changes kept
        if not _same_shapes(was.doc.items, doc.items, _item_shape) or not _same_shapes(
                was.doc.hara_rows, doc.hara_rows, _row_shape):
            return None
        out[path] = changes
    return out


def _same_shapes(old: list, new: list, shape: Any) -> bool:
    """Whether two lists of items (or rows) have the same shapes in order; unchanged objects are skipped."""
    if len(old) != len(new):
        return False
    return all(shape(old[k]) == shape(new[k]) for k in compress(range(len(old)), map(is_not, old, new)))


def _item_shape(item: Item) -> tuple:
    """What workspace-scope rules may read of an item (see the module docstring), its positions left out
    except the lines of its attributes relative to their first and, for an item without attributes, the end
    of its statement (where asil/missing adds one)."""
    attributes = tuple(
        (a.key, a.raw_key, a.value, a.start_col, a.parsed_end_line - a.parsed_line, a.end_col, a.key_col,
         a.value_col, a.value_end_col,
         tuple((k.target, k.valid, k.parsed_span[0] - a.parsed_line, k.parsed_span[1], k.parsed_span[3]) for k in a.links))
        for a in item.attributes
    )
    end = None
    if not attributes and item.statement:
        last = item.statement.segments[-1]
        end = (item.statement.last_line - item.line, last.col + len(last.text))
    return (item.id, item.kind, item.level, item.language, item.parsed_id_span[1], item.parsed_id_span[3],
            item.parsed_heading_span[3], attributes, end)


def _row_shape(row: HaraRow) -> tuple:
    """What workspace-scope rules may read of a HARA row, its line left out."""
    cells = tuple((key, c.text, c.parsed_span[1], c.parsed_span[3]) for key, c in row.cells.items())
    return cells, row.parsed_span[3], row.table_header
