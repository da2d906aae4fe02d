"""Trace-link suggestions: an item's likely parents and children, and the clauses it should cite.

A safety engineer looking for an FSR's parent looks one level up the derivation chain (hazard → safety goal →
FSR → TSR → HW/SW requirement, or whatever kinds the project's own links connect), at items that talk about
the same rare things (a signal, an element, a failure), at goals whose existing FSRs resemble this one, at the
element both are allocated to, and at whether the ASILs fit. :func:`rank_links` scores every allowed candidate
on those signals (weights and levels are data: rules/links.yaml), abstains when nothing is convincing, and
says per suggestion what distinguishes it. Words are compared with BM25 over the workspace's items; where
words cannot meet (a Chinese child, an English parent) the bundled multilingual embeddings compare meaning,
loaded only then.

The offline composer and the LLM variant share :func:`link_candidates`, so neither can offer the item itself,
an item already linked the other way, a descendant as parent, or a sibling unless the kinds allow it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...data import load_rules_yaml
from ...model.clauses import parse_clause_ref
from ...model.ids import kind_prefix
from ...workspace.asil import parse_asil, rank
from ..trust.admit import admit
from ..writing.compose import CitationOut, _citations, _vocabulary, cite, evidence_context
from ..item.context import ItemSummary, WorkspaceView
from ..writing.generate import LLMClient
from ..retrieval.knowledge import tokens
from ..retrieval.loop import Evidence, LoopState
from ..retrieval.plan import Plan
from ..trust.sanitise import quote_line
from ..writing.suggestions import TraceLinkSuggestion

log = logging.getLogger(__name__)
Relation = Literal["parent", "child"]
_BM25_K1, _BM25_B = 1.2, 0.75


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


# -- words and meaning ------------------------------------------------------------------------------------
class Bm25:
    """BM25 over the workspace's items (title + statement), with each item's terms kept for the reasons."""

    def __init__(self, texts: dict[str, str]):
        self.terms = {key: tokens(text) for key, text in texts.items()}
        self.counts = {key: Counter(ts) for key, ts in self.terms.items()}
        n = max(1, len(self.terms))
        df: Counter[str] = Counter(t for c in self.counts.values() for t in c)
        self.share = {t: d / n for t, d in df.items()}
        self.idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}
        self.avg = sum(len(ts) for ts in self.terms.values()) / n or 1.0

    def score(self, query: Iterable[str], key: str) -> float:
        counts, length = self.counts.get(key, Counter()), len(self.terms.get(key, ()))
        total = 0.0
        for term in set(query):
            tf = counts.get(term, 0)
            if tf:
                norm = tf * (_BM25_K1 + 1) / (tf + _BM25_K1 * (1 - _BM25_B + _BM25_B * length / self.avg))
                total += self.idf.get(term, 0.0) * norm
        return total

    def relative(self, query_key: str, key: str) -> float:
        """The query item's BM25 against ``key`` over its BM25 against itself: 0..1, comparable across items."""
        query = self.terms.get(query_key, ())
        best = self.score(query, query_key)
        return min(1.0, self.score(query, key) / best) if best > 0 else 0.0

    def distinctive(self, a: str, b: str, limit: int = 3, cap: float | None = None) -> list[str]:
        """Shared words that few texts use (at most a share ``cap``), rarest first: what ties ``a`` to ``b``."""
        cap = float(link_rules()["distinctive_share"]) if cap is None else cap
        shared = {t for t in self.counts.get(a, ()) if t in self.counts.get(b, ())}
        rare = sorted((t for t in shared if self.share.get(t, 1.0) <= cap and (len(t) > 2 or not t.isalpha())),
                      key=lambda t: (-self.idf[t], t))
        return rare[:limit]


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


def _text(it: ItemSummary) -> str:
    return f"{it.title} {it.statement}".strip()


def _is_zh(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


# -- ranking ----------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Scored:
    item: ItemSummary
    score: float
    reason: str


def _asil_factor(upper: ItemSummary, lower: ItemSummary) -> tuple[float, str]:
    up = parse_asil(upper.asil) if upper.asil else None
    low = parse_asil(lower.asil) if lower.asil else None
    if up is None or low is None:
        return 1.0, ""
    low_level = low.original if low.decomposed and low.original else low.level
    if rank(low_level) > rank(up.effective):
        return float(link_rules()["asil_mismatch"]), f"ASIL {lower.asil} is above {upper.id}'s {upper.asil}"
    if low.decomposed and low.original == up.effective:
        return 1.0, f"ASIL {lower.asil} decomposes {upper.id}'s {upper.asil}"
    if low_level == up.effective:
        return 1.0, f"same ASIL {up.effective}"
    return 1.0, ""


def rank_links(view: WorkspaceView, relation: Relation, limit: int | None = 3,
               abstain: bool = True) -> list[Scored]:
    """The item's likely parents (or children), best first, each with the reason that distinguishes it.

    ``limit=None, abstain=False`` gives the whole ranking (the evaluation's recall@k); by default weak
    candidates are left out and an empty list means nothing was convincing.
    """
    ctx = view.item
    assert ctx is not None
    rules = link_rules()
    w = rules["weights"]
    parents, children = link_candidates(view)
    pool = parents if relation == "parent" else children
    if not pool:
        return []
    me = ItemSummary(ctx.id, ctx.kind, ctx.category, ctx.title, ctx.statement, ctx.asil, ctx.path,
                     tuple(p.id for p in ctx.parents), ctx.allocated_to, ctx.language)
    by_id = {it.id: it for it in view.items}
    texts = {it.id: _text(it) for it in view.items}
    texts[me.id] = _text(me)
    bm25 = Bm25(texts)
    chain = chain_of(view.items)
    kids: dict[str, list[str]] = {}
    for it in view.items:
        for p in it.parents:
            if it.id != me.id:
                kids.setdefault(p, []).append(it.id)

    def siblings_of(candidate: ItemSummary) -> list[str]:
        """For a parent: its other children. For a child: the item's existing children (what it resembles)."""
        if relation == "parent":
            return kids.get(candidate.id, [])
        return [c.id for c in ctx.children]

    base = {}
    for it in pool:
        upper, lower = (it, me) if relation == "parent" else (me, it)
        prior = chain.prior(kind_prefix(upper.id), kind_prefix(lower.id)) or 0.0
        text = bm25.relative(me.id, it.id)
        if relation == "parent":
            like = [(bm25.relative(me.id, s), s) for s in siblings_of(it) if s in texts and s != it.id]
        else:
            like = [(bm25.relative(it.id, s), s) for s in siblings_of(it) if s in texts and s != it.id]
        sib_score, sib_id = max(like, default=(0.0, ""))
        base[it.id] = (prior, text, sib_score, sib_id)

    mine_zh = _is_zh(texts[me.id])
    # Meaning where words cannot meet (the other language, or no shared word), and for a pool small enough to
    # embed at once (vectors are cached, so only new or changed items cost); then for every candidate, so
    # that none gains from being the only one compared by meaning.
    always = os.environ.get("SAFEREQ_LINK_MEANING") == "always"
    needed = always or len(pool) <= int(rules["meaning_pool"]) or any(
        _is_zh(texts[it.id]) != mine_zh or base[it.id][1] == 0.0 for it in pool)
    meaning_raw = meaning_similarity(texts[me.id], {it.id: texts[it.id] for it in pool}) if needed else {}
    # Cosines of this small model sit high for any two requirements; what counts is how far a candidate
    # stands above the pool's median.
    values = sorted(meaning_raw.values())
    middle = values[len(values) // 2] if values else 0.0
    spread = float(rules["meaning_spread"])

    out: list[Scored] = []
    for it in pool:
        prior, text, sib_score, sib_id = base[it.id]
        upper, lower = (it, me) if relation == "parent" else (me, it)
        cos = meaning_raw.get(it.id)
        meaning = min(1.0, max(0.0, (cos - middle) / spread)) if cos is not None and len(values) > 1 else 0.0
        element = bool(it.allocated_to and it.allocated_to.casefold() == me.allocated_to.casefold())
        across = _is_zh(texts[it.id]) != mine_zh  # words cannot meet: meaning is the witness there
        evidence = max(text, sib_score, meaning * (1.0 if across else float(rules["meaning_evidence"])))
        # Resembling a candidate's existing children is as good as resembling the candidate, not better, and
        # a candidate with no children yet (one-to-one traces) must not lose for that: the larger counts.
        content = max(text, w["siblings"] * sib_score)
        score = w["text"] * content + w["meaning"] * meaning + w["chain"] * prior + (w["element"] if element else 0.0)
        factor, asil_note = _asil_factor(upper, lower)
        score = min(1.0, score * factor)
        if abstain and (evidence < float(rules["min_evidence"]) or score < float(rules["min_score"])):
            continue
        why: list[str] = []
        words = bm25.distinctive(me.id, it.id)
        if words:
            why.append(f"both name {', '.join(words)}")
        if sib_id and sib_score >= float(rules["min_evidence"]):
            sib = by_id.get(sib_id)
            if relation == "parent":
                why.append(f"resembles {sib_id}, already derived from it")
            elif sib is not None:
                why.append(f"resembles {sib_id}, already derived from {me.id}")
        if cos is not None and meaning > 0:
            why.append(f"close in meaning across the wording ({cos:.2f})")
        if element:
            why.append(f"both allocated to {it.allocated_to}")
        pair = f"{kind_prefix(upper.id)} → {kind_prefix(lower.id)}"
        seen = chain.observed.get((kind_prefix(upper.id), kind_prefix(lower.id)), 0)
        if seen:
            why.append(f"{pair} is how this workspace derives ({seen} links)")
        else:
            usual = sorted(k for (k, low), n in chain.observed.items() if low == kind_prefix(lower.id) and n)
            why.append(f"{pair} follows the derivation chain" + (
                f" (this workspace derives {kind_prefix(lower.id)} from {', '.join(usual)} so far)" if usual else ""))
        if asil_note:
            why.append(asil_note)
        out.append(Scored(it, score, "; ".join(why)))
    out.sort(key=lambda s: (-s.score, s.item.id))
    if abstain and out:
        keep = float(rules["relative"]) * out[0].score
        out = [s for s in out if s.score >= keep]
    return out if limit is None else out[:limit]


# -- clauses ----------------------------------------------------------------------------------------------
def rank_clauses(view: WorkspaceView, state: LoopState, limit: int = 3) -> list[tuple[Evidence, str, float]]:
    """Clauses the item should cite, with a reason: what the item's kind is specified under (rules/links.yaml)
    and what its rare words match, among the clauses gathered for it; clauses it already cites are skipped."""
    ctx = view.item
    assert ctx is not None
    mine = f"{ctx.title} {ctx.statement}"
    cited = {(r.document, r.clause) for r in (parse_clause_ref(c) for c in ctx.clause_refs) if r}
    pool = {k: e for k, e in state.evidence.items() if e.clause and k not in cited}
    if not pool:
        return []
    texts = {f"{d} {c}": f"{e.title} {e.text}" for (d, c), e in pool.items()}
    texts["\0item"] = mine
    bm25 = Bm25(texts)
    usual = [tuple(ref.rsplit(" ", 1)) for ref in link_rules()["kind_clauses"].get(kind_prefix(ctx.id), [])]
    scored = []
    for (doc, clause), e in pool.items():
        key = f"{doc} {clause}"
        text = bm25.relative("\0item", key)
        words = bm25.distinctive("\0item", key, cap=0.5)  # a handful of clauses: "rare" is relative
        prior = 0.0
        why = []
        if (doc, clause) in usual:
            prior = 0.5 - 0.1 * usual.index((doc, clause))
            why.append(f"where a {kind_prefix(ctx.id)} is specified ({e.title or clause})")
        if words:
            why.append(f"{e.title or clause} is about {', '.join(words)}")
        score = min(1.0, 0.6 * text + prior + 0.05 * len(words))
        if prior or len(words) >= 2:  # the item's kind is specified there, or two rare words meet
            scored.append((e, "; ".join(why), score))
    scored.sort(key=lambda s: (-s[2], s[0].document, s[0].clause))
    return scored[:limit]


def links_offline(plan: Plan, state: LoopState, view: WorkspaceView, limit: int = 3) -> list[TraceLinkSuggestion]:
    ctx = view.item
    assert ctx is not None
    out = [TraceLinkSuggestion(relation, s.item.id, s.reason, s.score, s.item.title)
           for relation in ("parent", "child") for s in rank_links(view, relation, limit)]
    mine = f"{ctx.title} {ctx.statement}"
    for e, why, score in rank_clauses(view, state, limit):
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
