"""Trace-link suggestions: which items are an item's likely parents and children, and which clauses it should cite.

Moved out of compose.py so the ranking of links has a module of its own; the offline ranking and the LLM
variant share the candidate list, so neither can offer an item the derivation chain forbids.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from rapidfuzz import fuzz

from ..model.clauses import parse_clause_ref
from ..model.ids import kind_prefix
from ..workspace.asil import parse_asil, rank
from .compose import CitationOut, _citations, cite, evidence_context, ranked_evidence
from .context import ItemSummary, WorkspaceView
from .generate import LLMClient
from .knowledge import tokens
from .loop import LoopState
from .patterns import child_kinds
from .plan import Plan
from .suggestions import TraceLinkSuggestion


def _similarity(a: str, b: str) -> float:
    return fuzz.token_set_ratio(a.lower(), b.lower()) / 100.0


def _shared(a: str, b: str) -> list[str]:
    bw = set(tokens(b))
    return list(dict.fromkeys(t for t in tokens(a) if t in bw))[:5]


def link_candidates(view: WorkspaceView) -> tuple[list[ItemSummary], list[ItemSummary]]:
    """(possible parents, possible children) of the item: items whose kinds the derivation chain allows.

    A parent's kind must derive the item's kind (SG → FSR, FSR → TSR, rules/patterns/requirements.yaml),
    and a child's kind must derive from the item's; existing links are not suggested again.
    """
    ctx = view.item
    assert ctx is not None
    kind = kind_prefix(ctx.id)
    existing_parents = {p.id for p in ctx.parents}
    existing_children = {c.id for c in ctx.children}
    parents = [it for it in view.items if it.id != ctx.id and it.id not in existing_parents
               and kind in child_kinds(kind_prefix(it.id)) and it.id not in {c.id for c in ctx.children}]
    children = [it for it in view.items if it.id != ctx.id and it.id not in existing_children
                and kind_prefix(it.id) in child_kinds(kind) and ctx.id not in it.parents
                and it.id not in existing_parents]
    return parents, children


def links_offline(plan: Plan, state: LoopState, view: WorkspaceView, limit: int = 3) -> list[TraceLinkSuggestion]:
    ctx = view.item
    assert ctx is not None
    mine = f"{ctx.title} {ctx.statement}"
    parents, children = link_candidates(view)
    out: list[TraceLinkSuggestion] = []
    for relation, pool in (("parent", parents), ("child", children)):
        scored = []
        for it in pool:
            score = _similarity(mine, f"{it.title} {it.statement}")
            upper, lower = (it, ctx) if relation == "parent" else (ctx, it)
            chain = kind_prefix(upper.id) != kind_prefix(lower.id)
            score = min(1.0, score + (0.15 if chain else 0.0))
            upper_asil, lower_asil = parse_asil(upper.asil or ""), parse_asil(lower.asil or "")
            if upper_asil and lower_asil and rank(upper_asil.effective) < rank(lower_asil.effective):
                score *= 0.5
            shared = _shared(mine, f"{it.title} {it.statement}")
            if score >= 0.45 and shared:
                why = f"shares {', '.join(shared)}" + (f"; {kind_prefix(upper.id)} → {kind_prefix(lower.id)} is the usual derivation" if chain else "")
                scored.append(TraceLinkSuggestion(relation, it.id, why, score, it.title))
        scored.sort(key=lambda s: (-s.score, s.target))
        out.extend(scored[:limit])
    cited = {(r.document, r.clause) for r in (parse_clause_ref(c) for c in ctx.clause_refs) if r}
    for e in ranked_evidence(state, mine)[: limit * 2]:
        if (e.document, e.clause) in cited or not e.clause:
            continue
        shared = _shared(mine, f"{e.title} {e.text}")
        if len(shared) < 2:
            continue
        c = cite(e, mine)
        out.append(TraceLinkSuggestion("cites", c.label, f"clause about {e.title or e.clause}; shares {', '.join(shared)}",
                                       min(1.0, 0.2 * len(shared)), e.title, [c]))
        if sum(1 for s in out if s.relation == "cites") >= limit:
            break
    return out


class LinkOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    relation: Literal["parent", "child", "cites"]
    target: str = Field(max_length=80)
    reason: str = Field(max_length=300)
    score: float = Field(ge=0.0, le=1.0)
    citations: list[CitationOut] = Field(default_factory=list, max_length=3)


class LinksOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    links: list[LinkOut] = Field(max_length=12)



def links_llm(client: LLMClient, request: str, plan: Plan, state: LoopState, view: WorkspaceView) -> tuple[list[TraceLinkSuggestion], list[str]]:
    parents, children = link_candidates(view)
    menu = "\n".join([*(f"parent candidate {p.id}: {p.title} — {p.statement[:200]}" for p in parents),
                      *(f"child candidate {c.id}: {c.title} — {c.statement[:200]}" for c in children)])
    out = client.structured(
        "suggest_trace_links", LinksOut,
        "Suggest likely parents and children among the candidate items, and clauses from the context the item "
        "should cite (target 'DOCUMENT CLAUSE'), each with a reason and a score between 0 and 1.",
        f"{request}\n\nCandidate items:\n{menu or '- none'}", evidence_context(state, plan.spec.topic))
    allowed = {"parent": {p.id: p for p in parents}, "child": {c.id: c for c in children}}
    kept, notes = [], []
    for link in out.links:
        if link.relation == "cites":
            ref = parse_clause_ref(link.target) or _split_target(link.target)
            if ref is None or (ref.document, ref.clause) not in state.evidence:
                notes.append(f"dropped a clause link to {link.target!r}: not among the clauses read")
                continue
            kept.append(TraceLinkSuggestion("cites", link.target, link.reason, link.score,
                                            state.evidence[(ref.document, ref.clause)].title, _citations(link.citations)))
        elif link.target in allowed[link.relation]:
            kept.append(TraceLinkSuggestion(link.relation, link.target, link.reason, link.score,
                                            allowed[link.relation][link.target].title, _citations(link.citations)))
        else:
            notes.append(f"dropped a {link.relation} link to {link.target!r}: not a candidate item")
    return kept, notes


def _split_target(target: str):
    from ..model.clauses import ClauseRef

    doc, _, clause = target.strip().rpartition(" ")
    return ClauseRef(doc, None, clause.lstrip("§"), target) if doc and clause else None
