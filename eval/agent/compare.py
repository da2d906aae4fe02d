"""Agentic retrieval vs plain top-k: context precision on the knowledge base's development set.

Usage (from the repository root, after `safereq index` has indexed the shipped corpora):

    .venv/bin/python eval/agent/compare.py [--index-dir .safereq/index] [--devset eval/devset.yaml] [--json]

For every question of eval/devset.yaml both retrievers produce the contexts a generator would be given:

  plain top-k      KnowledgeBase.search(question, limit=5) (hybrid), the five hits as they rank
  agentic          the offline agent's evidence for ``safereq ask``: plan → router (about 3 documents) →
                   document agents (engine choice, extractive condensation; irrelevant context discarded) →
                   the hop-bounded loop over the clause tree → evidence ranked by retrieval score weighted
                   with the document's routing prior; the top five are the contexts

Relevance is judged from the gold clauses exactly as eval/evaluate.py does. Metrics (k = 5):
  context precision  RAGAS-style: mean of precision@i over the ranks i that hold a relevant context
  precision@5        share of the (up to) five contexts that are relevant
  recall@5           share of the question's gold clauses covered by the five contexts
  empty              questions for which the retriever returned no context at all
Both run offline (no LLM), so the comparison isolates retrieval.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

K = 5
HERE = Path(__file__).resolve().parent


def _evaluate_module():
    """eval/evaluate.py (the knowledge base's evaluation), for its relevance judgement."""
    spec = importlib.util.spec_from_file_location("kb_evaluate", HERE.parent / "evaluate.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class Context:
    """What ``relevant`` needs of a context: document, clause, title, kind, parent."""

    document: str
    clause: str
    title: str
    kind: str = "text"
    parent: str = ""


def metrics(contexts: list[Context], golds: list[list[str]], relevant) -> tuple[float, float, float]:
    top = contexts[:K]
    rel = [any(relevant(c, g) for g in golds) for c in top]
    precisions = [sum(rel[: i + 1]) / (i + 1) for i in range(len(rel)) if rel[i]]
    cp = sum(precisions) / len(precisions) if precisions else 0.0
    p_at_k = sum(rel) / len(rel) if rel else 0.0
    recall = sum(any(relevant(c, g) for c in top) for g in golds) / len(golds)
    return cp, p_at_k, recall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index-dir", default=".safereq/index", type=Path)
    parser.add_argument("--devset", default=HERE.parent / "devset.yaml", type=Path)
    parser.add_argument("--hops", type=int, default=4, help="hop budget of the agent's loop (default 4)")
    parser.add_argument("--limit", type=int, default=0, help="only the first N questions (0 = all)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    from safereq.agent.writing.compose import ranked_evidence
    from safereq.agent.item.context import WorkspaceView
    from safereq.agent.retrieval.knowledge import KnowledgeBaseSource
    from safereq.agent.tasks.pipeline import AgentRequest, Assistant
    from safereq.knowledge import open_knowledge_base
    from safereq.knowledge.clause_ids import parent_clause

    relevant = _evaluate_module().relevant
    questions = yaml.safe_load(args.devset.read_text(encoding="utf-8"))["questions"]
    if args.limit:
        questions = questions[: args.limit]
    kb = open_knowledge_base(args.index_dir)
    kb.warm()
    assistant = Assistant(KnowledgeBaseSource(kb))
    empty_view = WorkspaceView(None, (), frozenset())
    rows: dict[str, list[tuple[float, float, float]]] = {"plain top-k (hybrid, k=5)": [], "agentic (offline)": []}
    empty = dict.fromkeys(rows, 0)
    seconds = dict.fromkeys(rows, 0.0)
    for item in questions:
        t = time.perf_counter()
        hits = kb.search(item["q"], limit=K)
        seconds["plain top-k (hybrid, k=5)"] += time.perf_counter() - t
        plain = [Context(h.document, h.clause, h.title, h.kind, getattr(h, "parent", "")) for h in hits]
        t = time.perf_counter()
        _, state = assistant.gather(AgentRequest("ask", empty_view, item["q"], max_hops=args.hops))
        agentic = [Context(e.document, e.clause, e.title, "text", parent_clause(e.clause))
                   for e in ranked_evidence(state, item["q"], by="retrieval")[:K]]
        seconds["agentic (offline)"] += time.perf_counter() - t
        for name, contexts in (("plain top-k (hybrid, k=5)", plain), ("agentic (offline)", agentic)):
            empty[name] += not contexts
            rows[name].append(metrics(contexts, item["gold"], relevant))
    out = {
        "questions": len(questions), "index": str(args.index_dir), "hops": args.hops,
        "results": {name: {"context_precision": statistics.fmean(r[0] for r in rs),
                           "precision@5": statistics.fmean(r[1] for r in rs),
                           "recall@5": statistics.fmean(r[2] for r in rs),
                           "empty": empty[name], "seconds_per_question": seconds[name] / len(questions)}
                    for name, rs in rows.items()},
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{out['questions']} questions, index {out['index']}, agent hop budget {out['hops']}\n")
    print("| retrieval | context precision | precision@5 | recall@5 | empty | s/question |")
    print("|---|---|---|---|---|---|")
    for name, r in out["results"].items():
        print(f"| {name} | {r['context_precision']:.3f} | {r['precision@5']:.3f} | {r['recall@5']:.3f} "
              f"| {r['empty']} | {r['seconds_per_question']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
