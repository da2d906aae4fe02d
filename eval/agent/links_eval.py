"""How well `safereq links` finds parents and clauses, beside a plain BM25 ranking measured in the same run.

Usage (from the repository root):

    .venv/bin/python eval/agent/links_eval.py [--sets nhtsa,easyclinic,dronology] [--json]

Workspaces: eval/data/nhtsa-alc (committed; NHTSA DOT HS 812 573 is public domain) and, when converted,
eval/.data/easyclinic and eval/.data/dronology (see eval/agent/link_sets.py; sets not converted are listed as
missing, not silently skipped).

Parents. Leave-one-out over the workspace's "Derived from" links: each link (child → parent) is removed in
turn and the parents suggested for the child are ranked; the removed parent's rank gives recall@1/3/5 and MRR
(1/rank, 0 when missed). safereq's ranking is `rank_links(view, "parent", limit=None)` with its abstention on
(an abstained case is a miss); "safereq+meaning" is the same with the multilingual embeddings compared for
every candidate (SAFEREQ_LINK_MEANING=always; by default only where words cannot meet). The baseline "bm25" ranks the same candidates (the items the derivation chain allows
as parents: without that filter BM25 mostly finds the child's siblings and scores near 0) by plain BM25 of
the child's title and statement against the candidate's, over the same tokens; "bm25-all" ranks every
other item (except the child's remaining parents) the same way.

Clauses. Part + clause level recall@5 of the clauses `safereq links` suggests citing (offline, shipped clause
catalogue as the knowledge source), against gold clauses: no public requirement set traced by engineers to
ISO 26262 clauses was found besides the held-out Eclipse S-CORE, so the gold is what the NHTSA report says of
its own items: goals come from the hazard analysis (ISO 26262-3:2018 §6, 2011's clause 7), the functional safety
requirements make the functional safety concept (ISO 26262-3:2018 §7, 2011's clause 8), and two FSRs that name
the hardware architectural metrics also ISO 26262-5 §8. A suggestion matches a gold clause when it is that
clause or lies within it. This is a kind-level substitute, and says so in its output.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETS = {"nhtsa": ROOT / "eval" / "data" / "nhtsa-alc", "easyclinic": ROOT / "eval" / ".data" / "easyclinic",
        "dronology": ROOT / "eval" / ".data" / "dronology"}
KS = (1, 3, 5)
WHO = ("safereq", "safereq+meaning", "bm25", "bm25-all")
# Gold clauses from the report's own account (see the module docstring); by kind, plus item-specific ones.
CLAUSE_GOLD_BY_KIND = {"SG": [("ISO 26262-3", "6")], "FSR": [("ISO 26262-3", "7")]}
CLAUSE_GOLD_EXTRA = {"FSR-1.6": [("ISO 26262-5", "8")], "FSR-2.3": [("ISO 26262-5", "8")]}


def load_workspace(root: Path):
    from safereq.checks.config import load_config
    from safereq.model.vocabulary import load_vocabulary
    from safereq.workspace import Workspace
    from safereq.workspace.loader import load

    config = load_config(root)
    ws = Workspace(load_vocabulary(config.kinds) if config.kinds else None)
    for source in load([root]).sources:
        ws.update(str(Path(source.fs_path).resolve()), source.text)
    return ws


def without_link(view, child: str, parent: str):
    """The view with one "Derived from" link removed, as if the engineer had not written it yet."""
    items = tuple(replace(it, parents=tuple(p for p in it.parents if p != parent)) if it.id == child else it
                  for it in view.items)
    ctx = replace(view.item, parents=tuple(p for p in view.item.parents if p.id != parent))
    return replace(view, item=ctx, items=items)


def _rank_of(target: str, ranked: list[str]) -> int | None:
    return ranked.index(target) + 1 if target in ranked else None


def _summary(ranks: list[int | None]) -> dict[str, float]:
    n = max(1, len(ranks))
    out = {f"recall@{k}": sum(1 for r in ranks if r is not None and r <= k) / n for k in KS}
    out["mrr"] = sum(1.0 / r for r in ranks if r) / n
    return out


def parents_eval(ws) -> dict:
    from safereq.agent.item.context import workspace_view
    from safereq.agent.tasks.linking import Bm25, link_candidates, rank_links

    ours, meaning, base, plain, cases, abstained = [], [], [], [], 0, 0
    started = time.perf_counter()
    items = list(ws.items())
    for item in items:
        parent_ids = [link.target for link in ws.parents(item)]
        if not parent_ids:
            continue
        view = workspace_view(ws, item)
        known = {it.id for it in view.items}
        for parent in parent_ids:
            if parent not in known:
                continue
            cases += 1
            v = without_link(view, item.id, parent)
            ranked = [s.item.id for s in rank_links(v, "parent", limit=None)]
            abstained += not ranked
            ours.append(_rank_of(parent, ranked))
            os.environ["SAFEREQ_LINK_MEANING"] = "always"
            try:
                meaning.append(_rank_of(parent, [s.item.id for s in rank_links(v, "parent", limit=None)]))
            finally:
                os.environ.pop("SAFEREQ_LINK_MEANING")
            texts = {it.id: f"{it.title} {it.statement}" for it in v.items}
            bm25 = Bm25(texts)
            query = bm25.terms[item.id]
            candidates = [c.id for c in link_candidates(v)[0]]
            pool = sorted(candidates, key=lambda k: (-bm25.score(query, k), k))
            base.append(_rank_of(parent, pool))
            others = {p.id for p in v.item.parents} | {item.id}
            everything = sorted((k for k in texts if k not in others), key=lambda k: (-bm25.score(query, k), k))
            plain.append(_rank_of(parent, everything))
    return {"cases": cases, "abstained": abstained, "safereq": _summary(ours), "safereq+meaning": _summary(meaning),
            "bm25": _summary(base), "bm25-all": _summary(plain),
            "seconds": round(time.perf_counter() - started, 1)}


def clauses_eval(ws) -> dict:
    from safereq.agent.item.context import workspace_view
    from safereq.agent.retrieval.knowledge import catalogue_source
    from safereq.agent.tasks.pipeline import AgentRequest, Assistant
    from safereq.knowledge.clause_ids import is_within
    from safereq.model.clauses import parse_clause_ref
    from safereq.model.ids import kind_prefix

    assistant = Assistant(catalogue_source())
    found = total = items = 0
    started = time.perf_counter()
    for item in ws.items():
        gold = CLAUSE_GOLD_BY_KIND.get(kind_prefix(item.id), []) + CLAUSE_GOLD_EXTRA.get(item.id, [])
        if not gold:
            continue
        items += 1
        result = assistant.run(AgentRequest("links", workspace_view(ws, item)))
        cited = [parse_clause_ref(s.target) for s in result.suggestions if s.relation == "cites"][:5]
        got = [(r.document, r.clause or "") for r in cited if r]
        total += len(gold)
        found += sum(1 for doc, clause in gold if any(d == doc and is_within(c, clause) for d, c in got))
    return {"items": items, "gold": total, "recall@5": found / max(1, total),
            "seconds": round(time.perf_counter() - started, 1),
            "gold_source": "kind-level substitute from the NHTSA report's own account (see links_eval.py)"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    os.environ.setdefault("LANCE_LOG", "error")
    report: dict = {"parents": {}, "clauses": {}, "missing": []}
    for name in args.sets.split(","):
        root = SETS[name]
        if not any(root.glob("*.md")):
            report["missing"].append(f"{name}: convert it first (eval/agent/link_sets.py {name} --snapshot ...)")
            continue
        ws = load_workspace(root)
        report["parents"][name] = parents_eval(ws)
        if name == "nhtsa":
            report["clauses"][name] = clauses_eval(ws)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{'set':<12}{'cases':>6}  {'':16}{'R@1':>6}{'R@3':>6}{'R@5':>6}{'MRR':>6}  abstained")
    for name, r in report["parents"].items():
        for who in WHO:
            m = r[who]
            print(f"{name if who == 'safereq' else '':<12}{r['cases'] if who == 'safereq' else '':>6}  {who:16}"
                  f"{m['recall@1']:6.2f}{m['recall@3']:6.2f}{m['recall@5']:6.2f}{m['mrr']:6.2f}  "
                  f"{r['abstained'] if who == 'safereq' else ''}")
    for name, r in report["clauses"].items():
        print(f"clauses {name}: recall@5 {r['recall@5']:.2f} at part + clause level ({r['gold']} gold clauses, "
              f"{r['items']} items; {r['gold_source']})")
    for line in report["missing"]:
        print(f"missing: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
