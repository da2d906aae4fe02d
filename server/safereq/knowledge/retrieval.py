"""Ranking: full-text (BM25), vector (cosine) and hybrid (both, fused by reciprocal rank), with filters.

Hybrid search runs the two searches separately on the same filter and fuses the ranked lists with
reciprocal-rank fusion (RRF, k=60): a chunk's score is Σ 1/(k + rank). We fuse ourselves rather than use
LanceDB's hybrid query so that either side may be empty (a Chinese query finds nothing in the English
full-text index; a table built without vectors has no vector side) and so that scores are comparable
across queries (normalised so that rank 1 in both lists scores 1.0).

The optional rerank step re-scores the fused top candidates with cheap, explainable features: a clause
reference in the query that names the chunk's clause, and how many of the query's content words appear in
the chunk's clause title path. It needs no model, so it runs offline and fast.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..model.clauses import find_clause_refs
from .clause_ids import is_within, normalise_clause
from .reader import TableReader
from .store_schema import LIGHT_COLUMNS, quote

log = logging.getLogger(__name__)

RRF_K = 60
CANDIDATES = 50
MODES = ("hybrid", "fts", "vector")

_STOP = frozenset("""a an and are as at be by can do does for from how i in is it its of on or shall should that
the this to was what when where which who why with within must may be been being into about according
under over per all any each other than then there these those their they we you your our""".split())


@dataclass(frozen=True, slots=True)
class Filters:
    document: str | Sequence[str] | None = None
    part: str | None = None
    clause_prefix: str | None = None
    kind: str | None = None

    def where(self) -> str | None:
        parts: list[str] = []
        if self.document:
            docs = [self.document] if isinstance(self.document, str) else list(self.document)
            names = ", ".join(quote(d.strip()) for d in docs)
            parts.append(f"(document IN ({names}) OR standard IN ({names}))")
        if self.part:
            parts.append(f"part = {quote(str(self.part))}")
        if self.clause_prefix:
            c = normalise_clause(self.clause_prefix)
            if not re.fullmatch(r"[A-Za-z0-9. ]+", c):
                raise ValueError(f"not a clause id: {self.clause_prefix!r}")
            like = quote(c + ".%")
            parts.append(f"(clause = {quote(c)} OR clause LIKE {like} OR parent = {quote(c)} OR parent LIKE {like})")
        if self.kind:
            parts.append(f"kind = {quote(self.kind)}")
        return " AND ".join(parts) or None


def _words(text: str) -> set[str]:
    return {w.rstrip("s") for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP and len(w) > 1}


def fts_search(store: TableReader, query: str, where: str | None, limit: int) -> list[dict]:
    if not re.search(r"\w", query):
        return []
    def run(q: str) -> list[dict]:
        return store.fts(q, where, LIGHT_COLUMNS, limit)
    try:
        return run(query)
    except Exception as exc:  # noqa: BLE001 - a query the FTS parser dislikes: retry with plain words
        log.debug("fts query failed (%s); retrying with words only", exc)
        words = " ".join(re.findall(r"\w+", query))
        try:
            return run(words) if words else []
        except Exception:  # noqa: BLE001
            return []


def vector_search(store: TableReader, vector: list[float], where: str | None, limit: int) -> list[dict]:
    return store.nearest(vector, where, LIGHT_COLUMNS, limit)


def fuse(lists: list[list[dict]], k: int = RRF_K) -> list[tuple[dict, float]]:
    """Reciprocal-rank fusion of ranked row lists, scores normalised to 1.0 for rank 1 in every list."""
    scores: dict[str, float] = {}
    rows: dict[str, dict] = {}
    for ranked in lists:
        for rank, row in enumerate(ranked, start=1):
            scores[row["id"]] = scores.get(row["id"], 0.0) + 1.0 / (k + rank)
            rows.setdefault(row["id"], row)
    best = len(lists) / (k + 1) if lists else 1.0
    order = sorted(scores, key=lambda i: (-scores[i], rows[i]["document"], rows[i]["ordinal"]))
    return [(rows[i], scores[i] / best) for i in order]


def rerank(query: str, scored: list[tuple[dict, float]]) -> list[tuple[dict, float]]:
    """Re-score candidates with clause-reference and title-path features (see the module docstring)."""
    refs = [r for line in query.splitlines() for r in find_clause_refs(line)]
    qwords = _words(query)
    out: list[tuple[dict, float]] = []
    for row, score in scored:
        bonus = 0.0
        for ref in refs:
            if ref.document in (row["document"],) or row["document"].startswith(ref.document + "-"):
                bonus += 0.3
                if ref.clause and is_within(row["clause"], normalise_clause(ref.clause)):
                    bonus += 1.0
        if qwords:
            try:
                titles = " ".join(t for _c, t in json.loads(row.get("path") or "[]"))
            except (ValueError, TypeError):
                titles = row.get("title", "")
            overlap = len(qwords & _words(titles + " " + row.get("title", ""))) / len(qwords)
            bonus += 0.5 * overlap
        out.append((row, score + bonus))
    out.sort(key=lambda x: (-x[1], x[0]["document"], x[0]["ordinal"]))
    return out
