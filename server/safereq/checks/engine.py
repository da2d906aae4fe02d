"""Run the checks over a workspace, caching per-item and per-document results between runs.

Items keep their identity across parses while their sections are unchanged (see model.parser), so the
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
from .registry import Check, RuleInfo, checks, rule_infos

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
        self._by_scope: dict[str, list[Check]] = {s: [c for c in active if c.scope == s] for s in ("item", "document", "workspace")}
        self._item_cache: dict[str, tuple[Document, dict[int, tuple[Item, list[Finding]]]]] = {}
        self._doc_cache: dict[str, tuple[Document, list[Finding]]] = {}
        self._signatures: dict[str, tuple[Document, tuple]] = {}
        # Rules that raised, with the error: shown by the CLI and logged by the language server.
        self.failures: dict[str, str] = {}
        self._workspace_result: tuple[dict[str, tuple], list[Finding]] | None = None

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
        old_items = old[1] if old else {}
        moved = getattr(doc.sections, "moved", {})
        per_item: dict[int, tuple[Item, list[Finding]]] = {}
        out: list[Finding] = []
        for item in doc.items:
            hit = old_items.get(id(item))
            if hit is not None and hit[0] is item:
                found = hit[1]
            elif (was := moved.get(id(item))) and (hit := old_items.get(id(was[0]))) and hit[0] is was[0]:
                found = [_moved(f, was[1]) for f in hit[1]]
            else:
                found = [f for check in self._by_scope["item"] for f in self._run(check, ctx, item)]
            per_item[id(item)] = (item, found)
            out.extend(found)
        for check in self._by_scope["document"]:
            out.extend(self._run(check, ctx, doc))
        self._item_cache[doc.path] = (doc, per_item)
        self._doc_cache[doc.path] = (doc, out)
        return out

    def _run(self, check: Check, *args: Any) -> list[Finding]:
        """Run one check; a rule that fails is logged and recorded, and the other rules still report."""
        try:
            return list(check.fn(*args))
        except Exception as exc:  # a bug in one rule must not hide every other finding
            _log.exception("rule %s failed", check.rule)
            self.failures[check.rule] = f"{type(exc).__name__}: {exc}"
            return []

    def _signature(self, doc: Document) -> tuple:
        """What workspace-scope rules may read of a document; equal signatures give equal findings."""
        cached = self._signatures.get(doc.path)
        if cached is not None and cached[0] is doc:
            return cached[1]
        old = {id(item): sig for item, sig in (cached[1][0] if cached else ())}
        items = tuple(
            (item, old.get(id(item)) or (item.id, item.kind, item.level, item.heading_span, item.end_line,
                                         tuple(item.attributes)))
            for item in doc.items
        )
        rows = tuple((tuple(r.cells.items()), r.span) for r in doc.hara_rows)
        sig = (items, rows)
        self._signatures[doc.path] = (doc, sig)
        return sig

    def _workspace_findings(self, ctx: CheckContext, ws: Workspace) -> list[Finding]:
        signatures = {path: self._signature(doc) for path, doc in ws.documents.items()}
        comparable = {path: (tuple(s for _item, s in sig[0]), sig[1]) for path, sig in signatures.items()}
        if self._workspace_result is not None and self._workspace_result[0] == comparable:
            return self._workspace_result[1]
        found = [f for check in self._by_scope["workspace"] for f in self._run(check, ctx)]
        self._workspace_result = (comparable, found)
        return found

    def check(self, ws: Workspace, paths: Iterable[str] | None = None) -> list[Finding]:
        """Findings for ``paths`` (default: every document), sorted by path, line, column and rule."""
        wanted = set(paths) if paths is not None else set(ws.documents)
        for gone in set(self._doc_cache) - set(ws.documents):
            self._doc_cache.pop(gone, None)
            self._item_cache.pop(gone, None)
            self._signatures.pop(gone, None)
        ctx = self._context(ws)
        findings: list[Finding] = []
        for path in sorted(wanted):
            doc = ws.documents.get(path)
            if doc is not None:
                findings.extend(self._local(ctx, doc))
        findings.extend(f for f in self._workspace_findings(ctx, ws) if f.path in wanted)
        findings.sort(key=Finding.sort_key)
        return findings
