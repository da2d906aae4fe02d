"""Retrieval evaluation: recall@5, MRR and context precision for fts, vector, hybrid and hybrid + rerank.

Usage (from the repository root, after `safereq index` has indexed the shipped corpora):

    .venv/bin/python eval/evaluate.py [--index-dir .safereq/index] [--devset eval/devset.yaml] [--json]

Metrics, per question, averaged over the set (k = 5):
  recall@5           share of the question's gold clauses found among the top 5 hits
  MRR                1 / rank of the first relevant hit within the top 10 (0 if none)
  context precision  mean of precision@i over the ranks i ≤ 5 that hold a relevant hit (0 if none):
                     rewards rankings that put the relevant chunks first (the RAGAS definition,
                     with relevance judged from the gold clauses instead of by an LLM)
Latency is the wall time of KnowledgeBase.search per query, including embedding the query (model and index
already loaded, query cache cleared before each configuration).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import yaml

from safereq.knowledge import open_knowledge_base
from safereq.knowledge.clause_ids import is_within, normalise_clause

K = 5
MRR_DEPTH = 10
CONFIGS = [("full-text only", "fts", False), ("vector only", "vector", False), ("hybrid (RRF)", "hybrid", False),
           ("hybrid + rerank", "hybrid", True)]


def relevant(hit, gold: list[str]) -> bool:
    """Whether ``hit`` answers the gold entry [document, alternative, ...] (see devset.yaml)."""
    document, *alternatives = gold
    if hit.document != document:
        return False
    for alt in alternatives:
        alt = str(alt)
        if alt.startswith("title:"):
            if hit.title.strip().lower() == alt[6:].strip().lower():
                return True
            continue
        alt = normalise_clause(alt)
        if hit.clause and is_within(hit.clause, alt):
            return True
        if hit.kind == "table" and hit.parent and is_within(hit.parent, alt):
            return True
    return False


def score(hits, golds: list[list[str]]) -> tuple[float, float, float]:
    top = hits[:K]
    recall = sum(any(relevant(h, g) for h in top) for g in golds) / len(golds)
    rel = [any(relevant(h, g) for g in golds) for h in hits[:MRR_DEPTH]]
    mrr = next((1.0 / (i + 1) for i, r in enumerate(rel) if r), 0.0)
    precisions = [sum(rel[:i + 1]) / (i + 1) for i in range(min(K, len(rel))) if rel[i]]
    cp = sum(precisions) / len(precisions) if precisions else 0.0
    return recall, mrr, cp


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def evaluate(index_dir: Path, devset: Path) -> dict:
    questions = yaml.safe_load(devset.read_text(encoding="utf-8"))["questions"]
    kb = open_knowledge_base(index_dir)
    kb.warm()
    results = {}
    for name, mode, rerank in CONFIGS:
        if hasattr(kb.embedder, "clear_query_cache"):
            kb.embedder.clear_query_cache()  # every configuration pays for embedding its queries
        rows, latencies, by_lang, misses = [], [], {}, []
        for item in questions:
            t = time.perf_counter()
            hits = kb.search(item["q"], limit=MRR_DEPTH, mode=mode, rerank=rerank)
            latencies.append((time.perf_counter() - t) * 1000)
            s = score(hits, item["gold"])
            rows.append(s)
            if s[0] < 1.0:
                misses.append({"q": item["q"], "gold": item["gold"],
                               "top": [f"{h.document} {h.clause or h.title}" for h in hits[:K]]})
            by_lang.setdefault(item.get("lang", "en"), []).append(s)
        mean = [statistics.fmean(col) for col in zip(*rows, strict=True)]
        results[name] = {
            "recall@5": mean[0], "mrr": mean[1], "context_precision": mean[2],
            "recall@5_by_lang": {lang: statistics.fmean(r[0] for r in v) for lang, v in by_lang.items()},
            "latency_ms_p50": pct(latencies, 0.5), "latency_ms_p95": pct(latencies, 0.95), "misses": misses,
        }
    return {"questions": len(questions), "index": str(index_dir), "results": results,
            "vectors": kb.has_vectors}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index-dir", default=".safereq/index", type=Path)
    parser.add_argument("--devset", default=Path(__file__).with_name("devset.yaml"), type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--misses", action="store_true", help="list the questions whose gold is not in the top 5")
    args = parser.parse_args(argv)
    out = evaluate(args.index_dir, args.devset)
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    print(f"{out['questions']} questions, index {out['index']}\n")
    print("| retrieval | recall@5 | MRR | context precision | recall@5 (zh) | p50 ms | p95 ms |")
    print("|---|---|---|---|---|---|---|")
    for name, r in out["results"].items():
        zh = r["recall@5_by_lang"].get("zh", float("nan"))
        print(f"| {name} | {r['recall@5']:.3f} | {r['mrr']:.3f} | {r['context_precision']:.3f} | {zh:.3f} "
              f"| {r['latency_ms_p50']:.1f} | {r['latency_ms_p95']:.1f} |")
    if args.misses:
        for name, r in out["results"].items():
            print(f"\n{name}: {len(r['misses'])} question(s) with gold missing from the top {K}")
            for m in r["misses"]:
                print(f"  {m['q']}\n    gold {m['gold']}\n    got  {m['top']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
