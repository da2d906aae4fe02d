"""Trace-link suggestions: an item's likely parents and children, and the clauses it should cite.

A safety engineer looking for an FSR's parent looks one level up the derivation chain (hazard → safety goal →
FSR → TSR → HW/SW requirement, or whatever kinds the project's own links connect), at items that talk about
the same rare things (a signal, an element, a failure), at goals whose existing FSRs resemble this one, at the
goals the FSR already derives from, at the documents this document derives from, and at whether the ASILs
fit. :func:`candidates` keeps what the chain allows (no parent for the head of a chain, no sibling unless the
project links inside that document) and measures the signals (agent/retrieval/link_features.py); :func:`rank_links`
weighs them (rules/links.yaml `ranking`, fitted on public trace sets by eval/agent/links_eval.py), abstains
when nothing is convincing, and says per suggestion what sets it apart from the other candidates. The bundled
multilingual embeddings compare meaning where words cannot meet (a Chinese child, an English parent) and for
small pools. The clauses to cite come from agent/retrieval/clause_topics.py.

The offline composer and the LLM variant share :func:`link_candidates`, so neither can offer the item itself,
an item already linked the other way, a descendant as parent, or a sibling unless the kinds allow it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...data import load_rules_yaml
from ...model.clauses import parse_clause_ref
from ...model.ids import kind_prefix
from ..item.context import ItemSummary, WorkspaceView
from ..retrieval.clause_topics import rank_clauses
from ..retrieval.link_features import (Candidate, Relation, asil_fits, at_top, combine, is_zh, link_features,
                                       links_of, workspace_index)
from ..retrieval.loop import LoopState
from ..retrieval.plan import Plan
from ..trust.admit import admit
from ..trust.sanitise import quote_line
from ..writing.compose import CitationOut, _citations, _vocabulary, cite, evidence_context
from ..writing.generate import LLMClient
from ..writing.suggestions import TraceLinkSuggestion

log = logging.getLogger(__name__)


@cache
def link_rules() -> dict[str, Any]:
    return load_rules_yaml("links.yaml")


@cache
def _chain_table() -> dict[str, list[str]]:
    return {k: list(v) for k, v in load_rules_yaml("patterns/requirements.yaml")["child_kind"].items() if k != "default"}


# -- the derivation chain ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Chain:
    """Which kind may be the parent of which: the shipped chain, levels, and the workspace's own links."""

    observed: dict[tuple[str, str], int]  # (parent kind, child kind) -> links in the workspace
    from_kind: dict[str, int]  # child kind -> its links to parents of any kind
    categories: dict[str, str]  # kind -> category

    def level(self, kind: str) -> int | None:
        rules = link_rules()
        if kind in rules["levels"]:
            return int(rules["levels"][kind])
        category = self.categories.get(kind, "requirement")
        value = rules["category_levels"].get(category)
        return None if value is None else int(value)

    def prior(self, upper: str, lower: str) -> float | None:
        """How usual ``upper`` is as the parent kind of ``lower`` (0..1), or None when the kinds forbid it."""
        rules = link_rules()
        linked = set(rules["linked_categories"])
        if self.categories.get(upper, "requirement") not in linked or self.categories.get(lower, "requirement") not in linked:
            return None
        seen = self.observed.get((upper, lower), 0)
        if seen:
            return max(seen / max(1, self.from_kind.get(lower, 0)), float(rules["level_chain"]))
        if self.observed.get((lower, upper), 0):
            return None  # the project derives these kinds the other way round
        if upper == lower and self.from_kind.get(lower, 0):
            return None  # a sibling: the project links this kind, never to its own kind
        table = _chain_table()
        if lower in table.get(upper, ()):
            return float(rules["rules_chain"])
        shipped = set(table).union(*table.values())
        if upper in shipped and lower in shipped:
            return None  # both kinds are in the shipped chain, and it does not derive one from the other
        if upper == lower:
            return None  # a sibling: only when the chain or the project's links put a kind under itself
        up, low = self.level(upper), self.level(lower)
        if up is None or low is None:
            return None
        linked_elsewhere = self.from_kind.get(lower, 0) > 0  # the project links this kind, never to ``upper``
        if up < low:
            return float(rules["level_chain"]) * (0.5 if linked_elsewhere else 1.0)
        if up == low and upper not in table and lower not in table and not linked_elsewhere:
            return float(rules["level_chain"]) * 0.5  # two declared kinds of one category: either may lead
        return None


def chain_of(items: Sequence[ItemSummary]) -> Chain:
    kinds = {it.id: kind_prefix(it.id) for it in items}
    observed: Counter[tuple[str, str]] = Counter()
    from_kind: Counter[str] = Counter()
    for it in items:
        for parent in it.parents:
            if parent in kinds:
                observed[(kinds[parent], kinds[it.id])] += 1
                from_kind[kinds[it.id]] += 1
    return Chain(dict(observed), dict(from_kind), {kinds[it.id]: it.category for it in items})


def _closure(start: str, edges: dict[str, list[str]]) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def link_candidates(view: WorkspaceView) -> tuple[list[ItemSummary], list[ItemSummary]]:
    """(possible parents, possible children) of the item: items whose kinds the derivation chain allows.

    Never the item itself, an item already linked either way, an ancestor as child or a descendant as parent
    (either would close a cycle); a parent of the item's kind only where the chain or the project's links put
    that kind under itself. The two lists are disjoint.
    """
    ctx = view.item
    assert ctx is not None
    chain = chain_of(view.items)
    kind = kind_prefix(ctx.id)
    up: dict[str, list[str]] = {}
    down: dict[str, list[str]] = {}
    for it in view.items:
        for p in it.parents:
            up.setdefault(it.id, []).append(p)
            down.setdefault(p, []).append(it.id)
    for p in ctx.parents:  # the view's own item may have been edited since
        up.setdefault(ctx.id, []).append(p.id)
    ancestors, descendants = _closure(ctx.id, up), _closure(ctx.id, down)
    linked = {p.id for p in ctx.parents} | {c.id for c in ctx.children} | ancestors | descendants | {ctx.id}
    parents = [it for it in view.items if it.id not in linked and chain.prior(kind_prefix(it.id), kind) is not None]
    taken = {it.id for it in parents}
    children = [it for it in view.items if it.id not in linked and it.id not in taken
                and chain.prior(kind, kind_prefix(it.id)) is not None]
    return parents, children


# -- meaning ----------------------------------------------------------------------------------------------
_VECTORS: dict[str, list[float]] = {}  # sha1 of a passage -> its embedding, for the life of the process
_MAX_CACHED = 20000


@cache
def _embedder():
    from ...knowledge.embeddings import E5Embedder

    return E5Embedder(threads=1)


def _cache_file() -> Path:
    """Where vectors of items survive between runs: ``$SAFEREQ_CACHE_DIR``, else the user's cache directory."""
    base = os.environ.get("SAFEREQ_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "safereq")
    model = _embedder().model_id.replace("/", "_").replace("@", "_")
    return Path(base) / f"link-vectors-{model}.json"


def _load_cached() -> None:
    if _VECTORS:
        return
    try:
        data = json.loads(_cache_file().read_text(encoding="utf-8"))
        if isinstance(data, dict):
            _VECTORS.update({k: v for k, v in data.items() if isinstance(v, list)})
    except (OSError, ValueError):
        pass  # no cache yet, or a broken one: it is rebuilt


def _save_cached() -> None:
    path = _cache_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        keep = dict(list(_VECTORS.items())[-_MAX_CACHED:])
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(keep), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        log.debug("cannot write the link vector cache %s: %s", path, exc)


def _key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def warm_meaning() -> None:
    """Load the embedding model meanings are compared with, whatever the vector cache holds (the editor's
    worker does this before its first request)."""
    if os.environ.get("SAFEREQ_LINK_MEANING", "auto") == "off":
        return
    from ...knowledge.embeddings import EmbeddingError

    try:
        _embedder().embed_passages(["passage: warm-up"])
    except EmbeddingError:
        pass


def meaning_similarity(query: str, texts: dict[str, str]) -> dict[str, float]:
    """Cosine similarity of ``query`` with each text (multilingual e5), or {} when the model is unavailable.

    Vectors are cached by content, in the process and in a file in the user's cache directory, so an item is
    embedded once, not on every request. ``SAFEREQ_LINK_MEANING=off`` switches meaning off.
    """
    if os.environ.get("SAFEREQ_LINK_MEANING", "auto") == "off" or not texts:
        return {}
    from ...knowledge.embeddings import EmbeddingError

    _load_cached()
    wanted = [t for t in dict.fromkeys([query, *texts.values()]) if _key(t) not in _VECTORS]
    try:
        if wanted:
            for text, vec in zip(wanted, _embedder().embed_passages([f"passage: {t}" for t in wanted])):
                _VECTORS[_key(text)] = [round(x, 6) for x in vec]
            _save_cached()
    except EmbeddingError:
        return {}
    q = _VECTORS[_key(query)]
    return {key: sum(a * b for a, b in zip(q, _VECTORS[_key(text)])) for key, text in texts.items()}


# -- ranking ----------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Scored:
    item: ItemSummary
    score: float
    reason: str


def _meaning(view: WorkspaceView, pool: Sequence[ItemSummary], texts: dict[str, str]) -> tuple[dict[str, float], dict[str, float]]:
    """Embedding evidence (0..1: a cosine above the pool's median, over `meaning_spread`) as two signals:
    for candidates written in another script than the item, where no word can meet; and for a pool small
    enough to embed at once (`meaning_pool`; vectors are cached, so only new or changed items cost), for
    the candidates in the item's own language."""
    ctx = view.item
    assert ctx is not None
    mine_zh = is_zh(texts[ctx.id])
    across = {it.id for it in pool if is_zh(texts[it.id]) != mine_zh}
    small = len(pool) <= int(link_rules()["meaning_pool"])
    if not across and not small:
        return {}, {}
    raw = meaning_similarity(texts[ctx.id], {it.id: texts[it.id] for it in pool})
    values = sorted(raw.values())
    if len(values) < 2:
        return {}, {}
    middle, spread = values[len(values) // 2], float(link_rules()["meaning_spread"])
    scaled = {k: min(1.0, max(0.0, (v - middle) / spread)) for k, v in raw.items()}
    return ({k: v for k, v in scaled.items() if k in across},
            {k: v for k, v in scaled.items() if k not in across} if small else {})


def candidates(view: WorkspaceView, relation: Relation) -> list[Candidate]:
    """The candidates the ranking may offer, with their signals: those :func:`link_candidates` allows, none
    as parent of an item at the top of its chain, and an item of the same kind from the item's own document
    only where the project links items of that document to each other."""
    ctx = view.item
    assert ctx is not None
    parents, children = link_candidates(view)
    pool = parents if relation == "parent" else children
    me = ItemSummary(ctx.id, ctx.kind, ctx.category, ctx.title, ctx.statement, ctx.asil, ctx.path,
                     tuple(p.id for p in ctx.parents), ctx.allocated_to, ctx.language)
    links = links_of(view.items, me)
    if relation == "parent" and at_top(me, view.items, links):
        return []
    kind = kind_prefix(me.id)
    inside = links.doc_pairs.get((me.path, me.path), 0) > 0
    pool = [it for it in pool if inside or it.path != me.path or kind_prefix(it.id) != kind]
    if not pool:
        return []
    chain = chain_of(view.items)
    priors = {}
    for it in pool:
        upper, lower = (it, me) if relation == "parent" else (me, it)
        priors[it.id] = chain.prior(kind_prefix(upper.id), kind_prefix(lower.id)) or 0.0
    _, texts = workspace_index(view)
    across, within = _meaning(view, pool, texts)
    return link_features(view, relation, pool, priors, across, within)


@dataclass(frozen=True, slots=True)
class Policy:
    """How signals become an answer: their weights, and when to abstain (rules/links.yaml `ranking`)."""

    weights: dict[str, float]
    min_evidence: float
    min_score: float
    relative: float

    @classmethod
    def shipped(cls) -> "Policy":
        r = link_rules()["ranking"]
        return cls({k: float(v) for k, v in r["weights"].items()}, float(r["min_evidence"]),
                   float(r["min_score"]), float(r["relative"]))


def evidence(c: Candidate) -> float:
    """How much the item's own words (or meaning) tie it to the candidate, directly or through its links."""
    return max(c.f["absolute"], c.f["siblings"] * c.f["absolute"] ** 0.5, c.f["coparents"] * 0.5, c.f["meaning"])


def order(cands: Sequence[Candidate], policy: Policy) -> list[tuple[Candidate, float]]:
    """Candidates best first by the policy's weighted signals (ID order breaks ties)."""
    scored = [(c, combine(c.f, policy.weights)) for c in cands]
    scored.sort(key=lambda cs: (-cs[1], cs[0].item.id))
    return scored


def keep(ranked: Sequence[tuple[Candidate, float]], policy: Policy, limit: int | None) -> list[tuple[Candidate, float]]:
    """The convincing part of a ranking: enough evidence, a score near the best, and an item of the item's
    own document only when it beats the best candidate from elsewhere."""
    best = ranked[0][1] if ranked else 0.0
    floor = max(policy.min_score, policy.relative * best)
    elsewhere = max((s for c, s in ranked if not c.same_document), default=None)
    out = [(c, s) for c, s in ranked if s >= floor and evidence(c) >= policy.min_evidence
           and (not c.same_document or elsewhere is None or s > elsewhere)]
    return out if limit is None else out[:limit]


def rank_links(view: WorkspaceView, relation: Relation, limit: int | None = 5,
               abstain: bool = True, policy: Policy | None = None) -> list[Scored]:
    """The item's likely parents (or children), best first, each with the reason that sets it apart.

    ``limit=None, abstain=False`` gives the whole ranking (the evaluation's recall@k); by default weak
    candidates are left out and an empty list means nothing was convincing.
    """
    policy = policy or Policy.shipped()
    cands = candidates(view, relation)
    if not cands:
        return []
    ranked = order(cands, policy)
    chosen = keep(ranked, policy, limit) if abstain else (ranked if limit is None else ranked[:limit])
    bm25, texts = workspace_index(view)
    # Shown as a share of the most a candidate could score (every signal at 1), so scores differ between
    # candidates and mean the same in any workspace.
    most = sum(w for name, w in policy.weights.items() if w > 0 and name != "asil") or 1.0
    return [Scored(c.item, round(max(0.0, min(1.0, s / most)), 3), _reason(view, relation, c, cands, bm25, texts))
            for c, s in chosen]


def _reason(view: WorkspaceView, relation: Relation, c: Candidate, cands: Sequence[Candidate], bm25, texts) -> str:
    """What sets ``c`` apart from the other candidates: the rare words only it (or few others) shares with the
    item, the linked items it resembles, the document and kind where those differ among the candidates."""
    ctx = view.item
    assert ctx is not None
    common: Counter[str] = Counter()
    mine = set(bm25.counts.get(ctx.id, ()))
    for other in cands:
        common.update(t for t in bm25.counts.get(other.item.id, ()) if t in mine)
    why: list[str] = []
    words = bm25.distinctive(ctx.id, c.item.id, cap=float(link_rules()["distinctive_share"]), common=common,
                             pool=len(cands))
    if words:
        shown = [bm25.surface(ctx.id, t, texts[ctx.id]) for t in words]
        why.append(f"both name {', '.join(shown)}" + ("" if len(cands) < 3 else
                                                       f" (at most {max(common[t] for t in words)} of the {len(cands)} candidates share one)"))
    if c.sibling and c.f["siblings"] >= 0.5:
        why.append(f"{c.sibling} resembles this item and is already " +
                   (f"derived from {c.item.id}" if relation == "parent" else f"derived from {ctx.id}"))
    if c.neighbour and c.f["neighbours"] >= 0.3:
        why.append(f"{c.neighbour}, next to this item, is derived from {c.item.id}" if relation == "parent"
                   else f"{c.item.id} is next to {c.neighbour}, which is derived from {ctx.id}")
    if c.f.get("standing_rank") == 1.0 and c.f.get("standing", 0.0) >= 0.5:
        why.append(f"of the items in this item's document, {c.item.id}'s words fit this one best" if relation == "parent"
                   else f"of the items in its document, {c.item.id} fits this item's words best")
    if c.coparent and c.f["coparents"] >= 0.3:
        why.append(f"like {c.coparent}, which this item already derives from")
    docs = {o.item.path for o in cands}
    if len(docs) > 1 and c.f["document"] > 0:
        why.append(f"{round(100 * c.f['document'])} % of the links of {'this' if relation == 'parent' else 'its'} "
                   f"document go to {'its' if relation == 'parent' else 'this'} document")
    kinds = {kind_prefix(o.item.id) for o in cands}
    if len(kinds) > 1:
        upper, lower = (c.item.id, ctx.id) if relation == "parent" else (ctx.id, c.item.id)
        why.append(f"{kind_prefix(upper)} → {kind_prefix(lower)} follows the derivation chain")
    if c.f["element"]:
        why.append(f"both allocated to {c.item.allocated_to}")
    if c.f["meaning"] > 0:
        why.append("close in meaning across languages")
    upper, lower = (c.item, view_item(view)) if relation == "parent" else (view_item(view), c.item)
    _, note = asil_fits(upper, lower)
    if note:
        why.append(note)
    return "; ".join(why) or "closest in wording, though nothing sets it clearly apart"


def view_item(view: WorkspaceView) -> ItemSummary:
    ctx = view.item
    assert ctx is not None
    return ItemSummary(ctx.id, ctx.kind, ctx.category, ctx.title, ctx.statement, ctx.asil, ctx.path,
                       tuple(p.id for p in ctx.parents), ctx.allocated_to, ctx.language)


# -- the offline answer ---------------------------------------------------------------------------------
def links_offline(plan: Plan, state: LoopState, view: WorkspaceView, limit: int = 5) -> list[TraceLinkSuggestion]:
    ctx = view.item
    assert ctx is not None
    out = [TraceLinkSuggestion(relation, s.item.id, s.reason, s.score, s.item.title)
           for relation in ("parent", "child") for s in rank_links(view, relation, limit)]
    mine = f"{ctx.title} {ctx.statement}"
    for e, why, score in rank_clauses(ctx, state, limit):
        c = cite(e, mine)
        out.append(TraceLinkSuggestion("cites", c.label, why, score, e.title, [c]))
    return out


# -- the LLM variant --------------------------------------------------------------------------------------
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


def links_llm(client: LLMClient, request: dict, plan: Plan, state: LoopState, view: WorkspaceView) -> tuple[list[TraceLinkSuggestion], list[str]]:
    parents, children = link_candidates(view)
    candidates = [*({"relation": "parent", "id": p.id, "title": p.title, "statement": p.statement[:200]} for p in parents),
                  *({"relation": "child", "id": c.id, "title": c.title, "statement": c.statement[:200]} for c in children)]
    out = client.structured(
        "suggest_trace_links", LinksOut,
        "Suggest likely parents and children among the candidate items, and clauses from the context the item "
        "should cite (target 'DOCUMENT CLAUSE'), each with a reason and a score between 0 and 1.",
        {"request": request, "candidates": candidates, "context": evidence_context(state, plan.spec.topic)})
    allowed = {"parent": {p.id: p for p in parents}, "child": {c.id: c for c in children}}
    vocabulary = _vocabulary(view, state)
    kept, notes = [], []
    for link in out.links:
        fields, why = admit({"reason": link.reason}, vocabulary=vocabulary, what="trace link")
        if fields is None:
            notes.append(why)
            continue
        target = quote_line(link.target)[:80]
        if link.relation == "cites":
            ref = parse_clause_ref(target) or _split_target(target)
            if ref is None or (ref.document, ref.clause) not in state.evidence:
                notes.append(f"dropped a clause link to {target!r}: not among the clauses read")
                continue
            kept.append(TraceLinkSuggestion("cites", target, fields["reason"], link.score,
                                            state.evidence[(ref.document, ref.clause)].title, _citations(link.citations)))
        elif target in allowed[link.relation]:
            kept.append(TraceLinkSuggestion(link.relation, target, fields["reason"], link.score,
                                            allowed[link.relation][target].title, _citations(link.citations)))
        else:
            notes.append(f"dropped a {link.relation} link to {target!r}: not a candidate item")
    return kept, notes


def _split_target(target: str):
    from ...model.clauses import ClauseRef

    doc, _, clause = target.strip().rpartition(" ")
    return ClauseRef(doc, None, clause.lstrip("§"), target) if doc and clause else None
