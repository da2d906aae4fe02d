"""Which clause governs an item, by what the item is about rather than by the words it happens to share.

A process requirement about baselines belongs under configuration management (ISO 26262-8 §7), one about
tool confidence under §11, whatever words the clause's own summary uses; a functional safety requirement is
specified under ISO 26262-3 §7. :func:`topic_clauses` reads that from rules/clause_topics.yaml (activity
keywords -> clauses) and rules/links.yaml `kind_clauses` (kind -> clauses), so the planner reads those
clauses and :func:`rank_clauses` puts them first. Documents that are not standards (a research report, a
military handbook, another project's documents) are offered only when their clause is clearly about the
item, and labelled as what they are. A catalogue entry is called confirmed only when the catalogue marks it
so (its `confirmed/` lists); the reason says when it is not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from ...data import load_rules_yaml
from ...model.clauses import parse_clause_ref
from ...model.ids import kind_prefix
from ..item.context import ItemContext
from .link_features import Bm25, terms

if TYPE_CHECKING:
    from .loop import Evidence, LoopState


@cache
def topic_rules() -> dict[str, Any]:
    return load_rules_yaml("clause_topics.yaml")


@cache
def _topics() -> list[tuple[str, list[list[str]], list[tuple[str, str]]]]:
    out = []
    for t in topic_rules()["topics"]:
        keys = [terms(k) for k in t["keywords"]]
        refs = [tuple(ref.rsplit(" ", 1)) for ref in t["clauses"]]
        out.append((t["name"], [k for k in keys if k], refs))
    return out


@dataclass(frozen=True, slots=True)
class TopicClause:
    document: str
    clause: str
    reason: str
    strength: float  # 1 for the kind's own clause; the share of matched keywords otherwise


def topic_clauses(ctx: ItemContext) -> list[TopicClause]:
    """The clauses that govern the item's kind and its activities, strongest first (data: rules/)."""
    seq = terms(f"{ctx.title} {ctx.statement}")
    mine = {tuple(seq[i:i + n]) for n in (1, 2, 3, 4) for i in range(len(seq) - n + 1)}
    out: list[TopicClause] = []
    for i, raw in enumerate(load_rules_yaml("links.yaml")["kind_clauses"].get(kind_prefix(ctx.id), [])):
        doc, clause = raw.rsplit(" ", 1)
        out.append(TopicClause(doc, clause, f"where a {kind_prefix(ctx.id)} is specified", 1.0 - 0.05 * i))
    for name, keys, refs in _topics():
        hits = [k for k in keys if tuple(k) in mine]
        if not hits:
            continue
        strength = min(0.95, 0.5 + 0.15 * len(hits) + 0.05 * max(len(k) for k in hits))
        for j, (doc, clause) in enumerate(refs):
            out.append(TopicClause(doc, clause, f"the clause on {name}", strength - 0.01 * j))
    out.sort(key=lambda t: -t.strength)
    seen: set[tuple[str, str]] = set()
    return [t for t in out if (t.document, t.clause) not in seen and not seen.add((t.document, t.clause))]


def is_standard(document: str) -> bool:
    return any(document.startswith(s) for s in topic_rules()["standards"])


def reference_label(document: str) -> str:
    labels = topic_rules()["references"]["labels"]
    for name, label in labels.items():
        if document.startswith(name) or name.startswith(document):
            return label
    return "a reference document, not a standard"


def confirmed(document: str, clause: str) -> bool:
    """Whether the shipped catalogue confirms the clause for its edition (its confirmed-clause lists)."""
    from ...knowledge.catalogue import get_catalogue

    return get_catalogue().is_confirmed(document, clause)


def rank_clauses(ctx: ItemContext, state: LoopState, limit: int = 5) -> list[tuple[Evidence, str, float]]:
    """Clauses the item should cite, with a reason: the governing clauses of its kind and activities first
    (among the clauses read for it), then standard clauses that share several rare words with it, then
    reference documents only when clearly about it. Clauses it already cites are skipped."""
    cited = {(r.document, r.clause) for r in (parse_clause_ref(c) for c in ctx.clause_refs) if r}
    pool = {k: e for k, e in state.evidence.items() if e.clause and k not in cited}
    if not pool:
        return []
    out: list[tuple[Evidence, str, float]] = []
    taken: set[tuple[str, str]] = set()
    for t in topic_clauses(ctx):
        e = pool.get((t.document, t.clause))
        if e is None:
            continue
        out.append((e, _why(e, f"{t.reason} ({e.title or e.clause})"), round(t.strength, 3)))
        taken.add(e.key)
    texts = {f"{d}\0{c}": f"{e.title} {e.text}" for (d, c), e in pool.items()}
    texts["\0item"] = f"{ctx.title} {ctx.statement}"
    bm25 = Bm25(texts)
    refs = topic_rules()["references"]
    for (doc, clause), e in pool.items():
        if (doc, clause) in taken or any(clause.startswith(c + ".") and doc == d for d, c in taken):
            continue
        key = f"{doc}\0{clause}"
        words = bm25.distinctive("\0item", key, cap=0.5)
        rel = bm25.relative("\0item", key)
        if is_standard(doc):
            if len(words) >= 2:
                out.append((e, _why(e, f"{e.title or clause} is about {', '.join(words)}"), round(0.3 * rel + 0.05 * len(words), 3)))
        elif len(words) >= int(refs["min_words"]) and rel >= float(refs["min_relative"]):
            out.append((e, f"{reference_label(doc)}: {e.title or clause} is about {', '.join(words)}",
                        round(0.25 * rel, 3)))
    out.sort(key=lambda s: (-s[2], s[0].document, s[0].clause))
    return out[:limit]


def _why(e: Evidence, reason: str) -> str:
    if e.document.startswith("ISO") and not confirmed(e.document, e.clause):
        return f"{reason}; catalogue entry not confirmed for the edition"
    return reason


def planned(ctx: ItemContext) -> Sequence[tuple[str, str, str]]:
    """(document, clause, why) the planner should read for a `links` request."""
    return [(t.document, t.clause, t.reason) for t in topic_clauses(ctx)]
