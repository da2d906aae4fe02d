"""Run the checks over a workspace, caching per-item and per-document results between runs.

Items keep their identity across parses while their sections are unchanged (see model.incremental), so the
findings of an unchanged item are reused; workspace-wide rules (trace graph, ASIL inheritance) run in full
only when the facts they read changed.

Workspace-scope rules may read item IDs, kinds, headings, attributes (values and spans) and HARA rows,
but not statement text. That contract lets an edit of a statement — the common keystroke — reuse the
workspace-wide findings: they are recomputed only when some item's or row's *structural signature* changed.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from ..model.document import Document, Item
from ..model.ranges import Span
from ..workspace import Workspace
from .config import Config
from .findings import Edit, Finding, Fix, Related, Severity
from .registry import CheckFn, RuleInfo, checks, rule_infos

_log = logging.getLogger(__name__)


@dataclass
class CheckContext:
    """What a check function may use: the workspace, the configuration and a way to build findings.

    ``memo`` is scratch space shared by the checks of one run, for analyses that several rules need
    (e.g. the modal-verb scan of a statement); keys should start with the family name.
    """

    workspace: Workspace
    config: Config
    severities: dict[str, Severity]
    memo: dict[Any, Any] = field(default_factory=dict)

    def finding(
        self, rule: str, path: str, span: Span, message: str, *, fixes: Iterable[Fix] = (),
        related: Iterable[Related] = (), tags: Iterable[str] = (),
    ) -> Finding:
        return Finding(rule, self.severities[rule], message, path, span, tuple(fixes), tuple(related), frozenset(tags))


def _moved(finding: Finding, lines: int) -> Finding:
    """An item-scope finding of an item that moved down by ``lines`` (its edits and related places too)."""
    fixes = tuple(
        Fix(fx.title, tuple(Edit(e.path, e.span.shifted(lines), e.new_text) for e in fx.edits), fx.safe)
        for fx in finding.fixes
    )
    related = tuple(
        Related(r.path, r.span.shifted(lines) if r.path == finding.path else r.span, r.message) for r in finding.related
    )
    return replace(finding, span=finding.span.shifted(lines), fixes=fixes, related=related)


class Checker:
    """Checks a workspace under one configuration; keep one per workspace to benefit from the caches."""

    def __init__(self, config: Config | None = None) -> None:
        self.config = config or Config()
        infos = rule_infos()
        self.severities: dict[str, Severity] = {}
        for rid, info in infos.items():
            sev = self.config.severity(rid, info.severity, info.enabled)
            if sev is not None:
                self.severities[rid] = sev
        active = [c for rid, c in checks().items() if rid in self.severities]
        # (rule, function) per scope; a document-scope rule's item part runs, and is cached, with the item checks.
        item_fns = [(c.rule, c.fn, c.topics) for c in active if c.scope == "item"]
        item_fns += [(c.rule, c.item_fn, c.topics) for c in active if c.scope == "document" and c.item_fn is not None]
        self._item_fns: list[tuple[str, CheckFn]] = [(rule, fn) for rule, fn, _topics in item_fns]
        from .plan import ItemPlan  # here, not at the top: plan.py reads this module's CheckContext

        self._item_plan = ItemPlan(item_fns)
        self._document_fns = [(c.rule, c.fn) for c in active if c.scope == "document"]
        self._workspace_fns = [(c.rule, c.fn) for c in active if c.scope == "workspace"]
        # path -> (document, id(item) -> (item, its findings), all its items' findings)
        self._item_cache: dict[str, tuple[Document, dict[int, tuple[Item, list[Finding]]], list[Finding]]] = {}
        self._doc_cache: dict[str, tuple[Document, list[Finding]]] = {}
        # path -> (document, id(item) -> (item, signature), the comparable signature)
        self._signatures: dict[str, tuple[Document, dict[int, tuple[Item, tuple]], tuple]] = {}
        # Rules that raised, with the error: shown by the CLI and logged by the language server.
        self.failures: dict[str, str] = {}
        self._workspace_result: tuple[dict[str, tuple], list[Finding], dict[str, list[Finding]]] | None = None
        # path -> (local findings, workspace findings of the path, both merged and sorted)
        self._sorted: dict[str, tuple[list[Finding], list[Finding], list[Finding]]] = {}

    @property
    def rules(self) -> dict[str, RuleInfo]:
        return rule_infos()

    def _context(self, ws: Workspace) -> CheckContext:
        return CheckContext(ws, self.config, self.severities)

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
        self, ctx: CheckContext, doc: Document, old_items: dict[int, tuple[Item, list[Finding]]]
    ) -> tuple[dict[int, tuple[Item, list[Finding]]], list[Finding]]:
        """Per-item findings of every item, each unchanged or moved item's taken from ``old_items``."""
        moved = getattr(doc.sections, "moved", {})
        # The old cache keeps its items alive, so an id found in it is the same (unchanged) item. Looking
        # all items up at C speed and visiting only the others keeps a one-item edit of a large document cheap.
        keys = list(map(id, doc.items))
        hits = list(map(old_items.get, keys))
        for k in [k for k, hit in enumerate(hits) if hit is None]:
            hits[k] = self._item_result(ctx, doc.items[k], moved.get(keys[k]), old_items)
        return dict(zip(keys, hits)), [f for hit in hits if hit[1] for f in hit[1]]

    def _local_changes(
        self, ctx: CheckContext, diff: Any, per_item: dict[int, tuple[Item, list[Finding]]], found: list[Finding]
    ) -> tuple[dict[int, tuple[Item, list[Finding]]], list[Finding]]:
        """The same after a parse that says which items it replaced (``diff``, see model.incremental):
        only those are visited, so a keystroke costs the same in a document of 10 or 2,000 items. The
        findings are in another order than ``_local_all`` gives; ``check`` sorts them."""
        removed = {id(item): per_item.pop(id(item)) for item in diff.removed}
        added: list[Finding] = []
        for item in diff.added:
            hit = per_item[id(item)] = self._item_result(ctx, item, diff.moved.get(id(item)), removed)
            added.extend(hit[1])
        gone = {id(f) for _item, findings in removed.values() for f in findings}
        kept = [f for f in found if id(f) not in gone] if gone else found
        return per_item, kept + added if added else kept

    def _item_result(
        self, ctx: CheckContext, item: Item, was: tuple[Item, int] | None,
        old: dict[int, tuple[Item, list[Finding]]],
    ) -> tuple[Item, list[Finding]]:
        """(item, its findings): when the parse only moved the item (``was``: the old item and the lines it
        moved), the old item's findings from ``old`` moved with it; otherwise a fresh check."""
        if was is not None:
            old_item, lines = was
            old_hit = old.get(id(old_item))
            if old_hit is not None and old_hit[0] is old_item:
                return item, [_moved(f, lines) for f in old_hit[1]]
        return item, self._check_item(ctx, item)

    def _check_item(self, ctx: CheckContext, item: Item) -> list[Finding]:
        """Every item-scope finding of one item: the functions that can report on it (plan.py) in one pass
        (a cold check makes tens of thousands of these calls), and again all of them one by one, isolating
        the failure, if some rule (or the plan) raises."""
        try:
            return [f for _rule, fn in self._item_plan(ctx, item) for f in fn(ctx, item)]
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

    def _signature(self, doc: Document) -> tuple:
        """What workspace-scope rules may read of a document; equal signatures give equal findings.

        Kept per parse of the document, so comparing the workspace's signatures after an edit costs a
        look-up per unchanged document (the same tuple compares equal by identity) and real work only for
        the document that changed; within it, unchanged items reuse their signature.
        """
        cached = self._signatures.get(doc.path)
        if cached is not None and cached[0] is doc:
            return cached[2]
        rows = tuple((tuple(r.cells.items()), r.span) for r in doc.hara_rows)
        diff = doc.sections
        if cached is not None and getattr(diff, "base", None) is cached[0].items and cached[2][1] == rows:
            # The parser says which items it replaced: when each replacement has the signature of the item
            # it replaced (a statement was edited), the document's signature is the old one, found without
            # visiting its other items.
            by_id = cached[1]
            new_sigs = [_item_signature(item) for item in diff.added]
            if len(new_sigs) == len(diff.removed) and all(
                by_id[id(old)][1] == sig for old, sig in zip(diff.removed, new_sigs)
            ):
                for old in diff.removed:
                    del by_id[id(old)]
                by_id.update((id(item), (item, sig)) for item, sig in zip(diff.added, new_sigs))
                self._signatures[doc.path] = (doc, by_id, cached[2])
                return cached[2]
        old = cached[1] if cached else {}
        keys = list(map(id, doc.items))
        hits = list(map(old.get, keys))  # an id found belongs to the same item: the old entry keeps it alive
        for k in [k for k, hit in enumerate(hits) if hit is None]:
            item = doc.items[k]
            hits[k] = (item, _item_signature(item))
        by_id = dict(zip(keys, hits))
        comparable = (tuple(sig for _item, sig in hits), rows)
        self._signatures[doc.path] = (doc, by_id, comparable)
        return comparable

    def _workspace_findings(self, ctx: CheckContext, ws: Workspace) -> dict[str, list[Finding]]:
        """Workspace-scope findings by path (each path's in the order the rules reported them)."""
        comparable = {path: self._signature(doc) for path, doc in ws.documents.items()}
        if self._workspace_result is not None and self._workspace_result[0] == comparable:
            return self._workspace_result[2]
        found = [f for rule, fn in self._workspace_fns for f in self._run(rule, fn, ctx)]
        by_path: dict[str, list[Finding]] = {}
        for f in found:
            by_path.setdefault(f.path, []).append(f)
        self._workspace_result = (comparable, found, by_path)
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
            self._signatures.pop(gone, None)
            self._sorted.pop(gone, None)
        ctx = self._context(ws)
        local = {path: self._local(ctx, ws.documents[path]) for path in sorted(wanted) if path in ws.documents}
        workspace = self._workspace_findings(ctx, ws)
        findings: list[Finding] = []
        # Findings sort by path first, so each path's are sorted on their own and kept while neither its
        # local nor its workspace findings changed: an edit re-sorts one document's findings, not all.
        for path in sorted(wanted):
            mine, theirs = local.get(path, _NONE), workspace.get(path, _NONE)
            kept = self._sorted.get(path)
            if kept is None or kept[0] is not mine or kept[1] is not theirs:
                kept = self._sorted[path] = (mine, theirs, sorted(mine + theirs, key=Finding.sort_key))
            findings.extend(kept[2])
        return findings


_NONE: list[Finding] = []


def _item_signature(item: Item) -> tuple:
    """What workspace-scope rules may read of an item (see the module docstring)."""
    return (item.id, item.kind, item.level, item.heading_span, item.end_line, tuple(item.attributes))
