"""Query understanding: a request turned into a retrieval plan validated against a schema.

The plan says which standards and clauses to look at, which keywords and queries to search, the topic, the
question type (facts or overview, which decides each document agent's engine) and the aspects the evidence
must cover before the loop stops. The LLM may propose a plan (structured output, :class:`RetrievalPlan`'s
JSON schema); the deterministic planner makes one from the item and the patterns. Either way, references are
resolved explicitly here: "part 9 clause 5", "§5.4" (relative to the item's standard) and "its parent clause"
become (document, clause) pairs, and clauses the index does not hold are dropped with a note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ...knowledge.clause_ids import normalise_clause, parent_clause
from ...model.clauses import find_clause_refs, parse_clause_ref
from ..item.context import ItemContext
from .clause_topics import planned
from .knowledge import tokens
from ..writing.patterns import Pattern, item_words, rebuttal_patterns, requirement_patterns, select

Task = Literal["derive", "links", "rebut", "ask"]


class ClauseTarget(BaseModel):
    model_config = ConfigDict(extra="forbid")
    document: str = Field(max_length=60)
    clause: str = Field(default="", max_length=40)
    reason: str = Field(default="", max_length=200)


class Aspect(BaseModel):
    """Something the evidence must cover (a pattern, a question); ``query`` searches for it."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(max_length=60)
    query: str = Field(max_length=300)


class RetrievalPlan(BaseModel):
    """The schema of a plan (also sent to the LLM as the structured-output schema)."""

    model_config = ConfigDict(extra="forbid")
    topic: str = Field(max_length=200)
    question_type: Literal["fact", "overview"] = "fact"
    documents: list[str] = Field(default_factory=list, max_length=6)
    clauses: list[ClauseTarget] = Field(default_factory=list, max_length=12)
    keywords: list[str] = Field(default_factory=list, max_length=16)
    aspects: list[Aspect] = Field(default_factory=list, max_length=8)
    references: list[str] = Field(default_factory=list, max_length=8,
                                  description="clause references mentioned in the request, as written")


@dataclass(frozen=True, slots=True)
class Resolved:
    """A reference as written and what it was resolved to (``how`` says which rule applied)."""

    text: str
    document: str
    clause: str
    how: str


@dataclass(slots=True)
class Plan:
    """A validated plan plus what resolution did (for the log and ``--verbose``)."""

    task: str
    spec: RetrievalPlan
    resolved: list[Resolved] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    patterns: list[Pattern] = field(default_factory=list)

    @property
    def targets(self) -> list[tuple[str, str]]:
        return [(c.document, normalise_clause(c.clause)) for c in self.spec.clauses]


_PART = re.compile(r"\b(?:ISO\s*26262\s*)?(?:part|Part|PART)\s*(\d{1,2})\b(?:[,\s]*(?:clause|§|section)\s*(\d{1,2}(?:\.\d{1,3})*))?")
_ZH_PART = re.compile(r"第\s*(\d{1,2})\s*部分(?:\s*第?\s*(\d{1,2}(?:\.\d{1,3})*)\s*[条章节]?)?")
_BARE = re.compile(r"(?:§\s?|\bclause\s+|\bsection\s+)(\d{1,2}(?:\.\d{1,3})*)")
_PARENT = re.compile(r"\b(?:its|the)\s+parent\s+clause\b|上一级条款")


def resolve_references(text: str, default_document: str = "") -> list[Resolved]:
    """Every clause reference in ``text``, absolute or relative, resolved to (document, clause).

    Absolute references use the shared grammar; "part 9 clause 5" and "第9部分 第5条" name ISO 26262 parts;
    a bare "§5.4" or "clause 5.4" is read against ``default_document`` (the item's standard), and "its parent
    clause" against the previous reference. Nothing is guessed beyond these rules.
    """
    out: list[Resolved] = []
    taken: list[tuple[int, int]] = []
    for ref in find_clause_refs(text):
        clause = normalise_clause(ref.clause or "")
        out.append(Resolved(ref.raw, ref.document, clause, "absolute"))
        start = text.find(ref.raw)
        taken.append((start, start + len(ref.raw)))

    def free(m: re.Match[str]) -> bool:
        return not any(a <= m.start() < b for a, b in taken)

    for rx in (_PART, _ZH_PART):
        for m in rx.finditer(text):
            if free(m):
                out.append(Resolved(m.group(0), f"ISO 26262-{int(m.group(1))}", normalise_clause(m.group(2) or ""),
                                    "ISO 26262 part number"))
                taken.append((m.start(), m.end()))
    for m in _BARE.finditer(text):
        if free(m) and default_document:
            out.append(Resolved(m.group(0), default_document, normalise_clause(m.group(1)),
                                f"relative to {default_document}"))
    for m in _PARENT.finditer(text):
        if out and out[-1].clause:
            last = out[-1]
            out.append(Resolved(m.group(0), last.document, parent_clause(last.clause), f"parent of {last.clause}"))
    return out


_HINT = re.compile(r"^(.*?)\s+((?:Annex|Table)\s+\w+|[\dA-Z][\d.]*)$")


def hint(text: str) -> tuple[str, str] | None:
    """A pattern hint such as "ISO 26262-9 5" → ("ISO 26262-9", "5"), "ISO 26262-6 Annex D" → (…, "Annex D")."""
    m = _HINT.match(text.strip())
    ref = parse_clause_ref(m.group(1)) if m else None
    return (ref.document, normalise_clause(m.group(2))) if ref and m else None


def keywords_of(*texts: str, limit: int = 12) -> list[str]:
    seen: dict[str, None] = {}
    for text in texts:
        for t in tokens(text):
            if not t.replace(".", "").isdigit():
                seen.setdefault(t, None)
    return list(seen)[:limit]


_OVERVIEW = re.compile(r"\b(overview|summar\w*|outline|what (?:is|does) .{0,40}\b(?:about|cover)|which (?:parts|clauses)|list)\b|概述|概要|总结",
                       re.IGNORECASE)


def question_type(question: str) -> Literal["fact", "overview"]:
    """Overview questions go to a document's summary index, everything else to its vector engine."""
    return "overview" if _OVERVIEW.search(question) else "fact"


def patterns_for(task: str, ctx: ItemContext | None) -> list[Pattern]:
    if ctx is None or task in ("links", "ask"):
        return []
    return select(requirement_patterns() if task == "derive" else rebuttal_patterns(), ctx)


def _not_indexed(documents: set[str], indexed: set[str]) -> set[str]:
    """The documents none of whose parts is indexed: "ISO 26262" is covered by an indexed "ISO 26262-2"."""
    return {d for d in documents - indexed if not any(i.startswith(d + "-") for i in indexed)}


def deterministic_plan(task: str, ctx: ItemContext | None, question: str, indexed: set[str]) -> Plan:
    """The offline planner: keywords from the item, clauses from its references and the patterns' hints."""
    pats = patterns_for(task, ctx)
    text = " ".join(x for x in (ctx.title if ctx else "", ctx.statement if ctx else "", question) if x)
    parents = " ".join(p.title for p in ctx.parents) if ctx else ""
    resolved = resolve_references(" ".join([*(ctx.clause_refs if ctx else ()), question]),
                                  _default_document(ctx))
    clauses = [ClauseTarget(document=r.document, clause=r.clause, reason=f"referenced ({r.how})") for r in resolved]
    for p in pats:
        for raw in p.hints(ctx) if ctx else p.clauses:
            h = hint(raw)
            if h:
                clauses.append(ClauseTarget(document=h[0], clause=h[1], reason=f"pattern {p.id}"))
    if task == "links" and ctx is not None:  # the clauses that govern the item's kind and activities
        for doc, clause, why in planned(ctx):
            clauses.append(ClauseTarget(document=doc, clause=normalise_clause(clause), reason=why))
    if task == "ask":
        aspects = [Aspect(id="question", query=question[:300])]
    elif task == "links":
        aspects = [Aspect(id="clauses", query=text[:300])]
    else:
        aspects = [Aspect(id=p.id, query=f"{p.query} {ctx.title if ctx else ''}"[:300]) for p in pats]
    spec = RetrievalPlan.model_construct(
        topic=(ctx.title if ctx else question)[:200], question_type=question_type(question) if task == "ask" else "fact",
        documents=[], clauses=_dedupe(clauses), keywords=keywords_of(text, parents, limit=16),
        aspects=aspects, references=[r.text for r in resolved],
    )
    return finalise(Plan(task, spec, resolved, patterns=pats), indexed)


def _default_document(ctx: ItemContext | None) -> str:
    if ctx is None:
        return ""
    for raw in ctx.clause_refs:
        ref = parse_clause_ref(raw)
        if ref:
            return ref.document
    return ""


def _dedupe(clauses: list[ClauseTarget]) -> list[ClauseTarget]:
    seen: set[tuple[str, str]] = set()
    out = []
    for c in clauses:
        key = (c.document, normalise_clause(c.clause))
        if key not in seen:
            seen.add(key)
            out.append(ClauseTarget(document=c.document, clause=key[1], reason=c.reason))
    return out


MAX_CLAUSES = 12
MAX_ASPECTS = 8


def finalise(plan: Plan, indexed: set[str]) -> Plan:
    """Keep only documents the index holds, then cut to :data:`MAX_CLAUSES` / :data:`MAX_ASPECTS` (in that
    order, so an unindexed clause never takes the place of an indexed one); the plan's documents are its
    own plus the documents of its clauses."""
    spec = plan.spec
    kept = [c for c in _dedupe(spec.clauses) if c.document in indexed]
    dropped = _not_indexed({c.document for c in spec.clauses}, indexed)
    if dropped:
        plan.notes.append("not indexed, skipped: " + ", ".join(sorted(dropped)))
    docs = [d for d in dict.fromkeys([*spec.documents, *(c.document for c in kept)]) if d in indexed]
    plan.spec = spec.model_copy(update={"clauses": kept[:MAX_CLAUSES], "documents": docs[:6],
                                        "aspects": spec.aspects[:MAX_ASPECTS], "references": spec.references[:8]})
    return plan


def plan_from_llm(task: str, ctx: ItemContext | None, question: str, indexed: set[str], proposed: RetrievalPlan) -> Plan:
    """An LLM-proposed plan merged into the deterministic one, which it can extend but never displace.

    The item's own clause references, the patterns' clause hints and the patterns' aspects come first and
    always survive; the model's clauses (and the references it names, resolved by the same rules) and
    aspects fill the remaining places, after unindexed documents are dropped. The model chooses topic,
    question type, documents and keywords (the item's keywords are kept after the model's), so neither the
    sufficiency check nor the item's own clauses can be argued away by the model.
    """
    base = deterministic_plan(task, ctx, question, indexed)
    resolved = resolve_references(" ".join(proposed.references), _default_document(ctx))
    extra = [ClauseTarget(document=r.document, clause=r.clause, reason=f"LLM reference ({r.how})") for r in resolved]
    own = base.spec.clauses
    theirs = [c for c in _dedupe([*proposed.clauses, *extra]) if c.document in indexed]
    dropped = _not_indexed({c.document for c in [*proposed.clauses, *extra]}, indexed)
    mine = {a.id for a in base.spec.aspects}
    aspects = [*base.spec.aspects, *(a for a in proposed.aspects if a.id not in mine and a.query.strip())]
    spec = proposed.model_copy(update={
        "clauses": _dedupe([*own, *theirs]),
        "aspects": aspects[:max(MAX_ASPECTS, len(base.spec.aspects))],
        "keywords": list(dict.fromkeys([*proposed.keywords, *base.spec.keywords]))[:16],
        "references": [*base.spec.references, *proposed.references],
    })
    plan = Plan(task, spec, [*base.resolved, *resolved], notes=list(base.notes), patterns=base.patterns)
    if dropped:
        plan.notes.append("not indexed, skipped: " + ", ".join(sorted(dropped)))
    kept = [c for c in plan.spec.clauses if c.document in indexed]
    plan.spec = plan.spec.model_copy(update={
        "clauses": kept[:max(MAX_CLAUSES, len(own))],
        "documents": [d for d in dict.fromkeys([*spec.documents, *(c.document for c in kept)]) if d in indexed][:6],
        "references": spec.references[:16]})
    return plan


def request_data(task: str, ctx: ItemContext | None, question: str) -> dict[str, object]:
    """The request as the model reads it, inside its data block: the item's own words (or the question)."""
    if ctx is None:
        return {"task": task, "question": question}
    return {
        "task": task,
        "item": {"id": ctx.id, "kind": ctx.kind, "category": ctx.category, "asil": ctx.asil or "not stated",
                 "language": ctx.language, "title": ctx.title, "statement": ctx.statement, "ears": ctx.ears or "",
                 "attributes": {k: v for k, v in ctx.attributes.items() if k != "derived-from"},
                 "cited_clauses": list(ctx.clause_refs)},
        "parents": [{"id": p.id, "title": p.title, "asil": p.asil or ""} for p in ctx.parents],
        "question": question,
        "words_to_match_patterns": item_words(ctx)[:300],
    }
