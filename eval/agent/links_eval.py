"""How well `safereq links` finds parents, beside BM25 on the same candidates and the previous version, in one run.

Usage (from the repository root; convert the sets first with eval/agent/link_sets.py all):

    nice -n 10 .venv/bin/python eval/agent/links_eval.py [--sets cm1,gannt,...] [--no-prev] [--fit] [--json]

Sets: eval/data/nhtsa-alc (committed, public domain) and, when converted into eval/.data/, EasyClinic, the
Dronology prototype's FMECA links, and the CoEST requirement-to-requirement sets CM1, GANNT, MODIS, WARC,
Dronology and CCHIT (see link_sets.py for sources; a set not converted is listed as missing). Never the held-out
sets (the sphinx-needs vehicle demo, Eclipse S-CORE, Zephyr) and never examples/.

Recall. Each "Derived from" link (child -> parent) is removed in turn and the child's parents are ranked; the
removed parent's rank gives R@1/3/5 and MRR (1/rank, 0 when missed). Three rankers on the same cases:
- **safereq**: the ranking of this branch, with weights fitted on the *other* sets only (leave one set out:
  `fit_weights`, a listwise model of the parent's place, runs once per reported set, without it).
- **bm25**: plain Okapi BM25 of the child's title and statement (stemmed words, no identifier parts, no word
  pairs) against the candidates the
  derivation chain allows (link_candidates: same chain, not itself, not its children), no other signal.
- **bm25-own**: the same BM25 over this branch's candidates (no parent for the head of a chain, no item of the
  child's own kind and document unless the project links inside that document): the stricter baseline, and
  the one the targets are checked against where it is the better of the two.
- **previous**: main at 06829b3 (the standing signals, the shipped weights), run in a subprocess from a `git archive` of that commit (server/ and rules/
  unpacked to a temporary folder) on the same cases.

F1. Each child of a document that has parents is asked for its parents with *all* its links removed (a new
requirement), the others kept; the suggestions are compared with its true parents. "F1 fit" uses thresholds
fitted on the other sets; "F1 best" the best thresholds on the set itself (a score cut, a cut relative to the
item's best candidate, at most five), as published figures are often reported. Published figures for the same
sets (Hey et al., REFSQ 2025, best configuration, GPT-4o with chain-of-thought) are printed beside them;
their protocol knows no other links, ours knows the other items' links, so the comparison favours us there.

`--fit` prints the weights and thresholds fitted on all sets, for rules/links.yaml `ranking`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, replace
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "eval" / ".data"
SETS = {"nhtsa": ROOT / "eval" / "data" / "nhtsa-alc", "easyclinic": DATA / "easyclinic",
        "dronology-fmeca": DATA / "dronology-fmeca", "cm1": DATA / "cm1", "gannt": DATA / "gannt",
        "modis": DATA / "modis", "warc": DATA / "warc", "dronology": DATA / "dronology", "cchit": DATA / "cchit"}
# Hey, Fuchß, Keim, Koziolek: Requirements Traceability Link Recovery via Retrieval-Augmented Generation,
# REFSQ 2025, replication package experiments/approach-results.csv: F1 of GPT-4o (chain of thought) and of
# their retrieval step alone.
PUBLISHED = {"cm1": (0.52, 0.44), "gannt": (0.57, 0.54), "modis": (0.25, 0.19), "warc": (0.58, 0.48),
             "dronology": (0.57, 0.50), "cchit": (0.20, 0.18)}
PREVIOUS = "06829b3"
# A set the previous version is too slow for runs on every k-th case only, and its rows say so (main at
# 06829b3 keeps its word statistics between requests: every case).
PREVIOUS_SAMPLE: dict[str, int] = {}
KS = (1, 3, 5)
START = {"text": 1.0, "meaning": 0.5}  # plain BM25: every fit starts there, never from the shipped weights


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


def without(view, child: str, parents: set[str]):
    """The view with some of the child's "Derived from" links removed, as if not written yet."""
    items = tuple(replace(it, parents=tuple(p for p in it.parents if p not in parents)) if it.id == child else it
                  for it in view.items)
    ctx = replace(view.item, parents=tuple(p for p in view.item.parents if p.id not in parents))
    return replace(view, item=ctx, items=items)


def cases(ws):
    """(recall cases: child, parent, view without that link; F1 cases: child, its parents, view without all)."""
    from safereq.agent.item.context import WorkspaceView, item_context, summarise

    items = list(ws.items())
    summaries = tuple(summarise(ws, it) for it in items)  # once: every case's view shares them
    ids = frozenset(ws.all_ids())
    parents_of = {it.id: [link.target for link in ws.parents(it)] for it in items}
    known = set(parents_of)
    child_docs = {it.path for it in items if any(p in known for p in parents_of[it.id])}
    recall, f1 = [], []
    for it in items:
        gold = [p for p in parents_of[it.id] if p in known]
        if it.path not in child_docs:
            continue
        view = WorkspaceView(item_context(ws, it), summaries, ids)
        for p in gold:
            recall.append((it.id, p, without(view, it.id, {p})))
        f1.append((it.id, set(gold), without(view, it.id, set(gold))))
    return recall, f1


# -- features of this branch's ranking and the BM25 baseline ----------------------------------------------
@dataclass
class Table:
    """One set's cases as matrices: a row per (case, candidate); weights are tried without recomputing."""

    rows: "object"  # numpy (rows, features)
    case: "object"  # row -> case index
    order: "object"  # row -> the candidate's position in ID order within its case (ties)
    gold: "object"  # row -> 1 when the candidate is a true parent
    evidence: "object"  # row -> evidence (abstention)
    same_doc: "object"  # row -> 1 when in the child's own document
    n: int  # cases
    positives: "object"  # case -> number of true parents (F1: missed ones count too)
    plain: "object" = None  # row -> plain BM25 of the child against the candidate (the bm25-own baseline)
    _sorted: tuple = ()  # (scores' id, rows sorted by case, score descending, ID)

    def sorted_rows(self, scores):
        import numpy as np

        if not self._sorted or self._sorted[0] is not scores:
            self._sorted = (scores, np.lexsort((self.order, -scores, self.case)))
        return self._sorted[1]


def table(groups: list[tuple[set[str], list]], plain: list[dict[str, float]] | None = None) -> Table:
    import numpy as np

    from safereq.agent.retrieval.link_features import FEATURES
    from safereq.agent.tasks.linking import evidence

    rows, case, order, gold, ev, same, pos, base = [], [], [], [], [], [], [], []
    for i, (truth, cands) in enumerate(groups):
        pos.append(len(truth))
        for j, c in enumerate(sorted(cands, key=lambda c: c.item.id)):
            rows.append([c.f[name] for name in FEATURES])
            base.append(plain[i].get(c.item.id, 0.0) if plain else c.f["text"])
            case.append(i)
            order.append(j)
            gold.append(1 if c.item.id in truth else 0)
            ev.append(evidence(c))
            same.append(1 if c.same_document else 0)
    return Table(np.array(rows, dtype=float).reshape(-1, len(FEATURES)), np.array(case, dtype=int),
                 np.array(order, dtype=int), np.array(gold, dtype=int), np.array(ev), np.array(same),
                 len(groups), np.array(pos, dtype=int), np.array(base, dtype=float))


def ranks(t: Table, scores) -> list[int | None]:
    """The rank of each recall case's true parent under ``scores`` (ties broken by ID), None when absent."""
    import numpy as np

    out: list[int | None] = [None] * t.n
    if not len(scores):
        return out
    g = np.flatnonzero(t.gold == 1)
    gold_score = np.full(t.n, np.nan)
    gold_order = np.zeros(t.n, dtype=int)
    gold_score[t.case[g]] = scores[g]
    gold_order[t.case[g]] = t.order[g]
    gs, go = gold_score[t.case], gold_order[t.case]
    better = (scores > gs) | ((scores == gs) & (t.order < go))
    r = np.bincount(t.case, weights=better.astype(float), minlength=t.n) + 1
    for i in range(t.n):
        if not np.isnan(gold_score[i]):
            out[i] = int(r[i])
    return out


def summary(rs: list[int | None]) -> dict[str, float]:
    n = max(1, len(rs))
    out = {f"R@{k}": sum(1 for r in rs if r is not None and r <= k) / n for k in KS}
    out["MRR"] = sum(1.0 / r for r in rs if r) / n
    return out


def text_only(t: Table):
    """Plain BM25 alone over this branch's candidates: the stricter baseline."""
    return t.plain


def weights_vector(weights: dict[str, float]):
    import numpy as np

    from safereq.agent.retrieval.link_features import FEATURES

    return np.array([(-1.0 if name == "asil" else 1.0) * weights.get(name, 0.0) for name in FEATURES])


def sample(t: Table, most: int = 120) -> Table:
    """Every k-th case of a large table (fitting only: the figures are always on every case)."""
    k = -(-t.n // most)
    if k <= 1:
        return t
    keep = t.case % k == 0
    return Table(t.rows[keep], t.case[keep] // k, t.order[keep], t.gold[keep], t.evidence[keep], t.same_doc[keep],
                 -(-t.n // k), t.positives[::k], t.plain[keep])


def fit_weights(tables: list[Table], start: dict[str, float], lam: float = 0.001, steps: int = 300) -> dict[str, float]:
    """A listwise model of the true parent's place (softmax over each case's candidates, L2 penalty ``lam``),
    fitted by Adam from plain BM25 on the given sets (each set counts alike, at most 300 cases of each).

    A smooth objective over every candidate generalises to a left-out set better than a search on MRR
    (which follows the few cases a weight flips); `meaning` keeps its start value (no cross-language set).
    """
    import numpy as np

    from safereq.agent.retrieval.link_features import FEATURES

    tables = [sample(t, 300) for t in tables]
    free = np.array([0.0 if name == "meaning" else 1.0 for name in FEATURES])
    v = weights_vector(start)
    m1, m2 = np.zeros_like(v), np.zeros_like(v)
    for step in range(1, steps + 1):
        grad = np.zeros_like(v)
        for t in tables:
            scores = t.rows @ v
            top = np.full(t.n, -np.inf)
            np.maximum.at(top, t.case, scores)
            e = np.exp(scores - top[t.case])
            p = e / np.bincount(t.case, weights=e, minlength=t.n)[t.case]
            found = np.bincount(t.case, weights=t.gold, minlength=t.n) > 0  # the parent is a candidate
            grad += ((p - t.gold) * found[t.case]) @ t.rows / max(1, int(found.sum()))
        grad = (grad / len(tables) + lam * v) * free
        m1 = 0.9 * m1 + 0.1 * grad
        m2 = 0.999 * m2 + 0.001 * grad * grad
        v -= 0.05 * (m1 / (1 - 0.9 ** step)) / (np.sqrt(m2 / (1 - 0.999 ** step)) + 1e-8)
    return {name: round(float(-x if name == "asil" else x), 3) for name, x in zip(FEATURES, v)}


def predicted(t: Table, scores, min_score: float, relative: float, min_evidence: float, limit: int = 5):
    """Rows kept as suggestions: the abstention of agent/tasks/linking.py `keep`, vectorised."""
    import numpy as np

    best = np.full(t.n, -np.inf)
    np.maximum.at(best, t.case, scores)
    elsewhere = np.full(t.n, -np.inf)
    other = t.same_doc == 0
    np.maximum.at(elsewhere, t.case[other], scores[other])
    floor = np.maximum(min_score, relative * best[t.case])
    ok = (scores >= floor) & (t.evidence >= min_evidence) & ((t.same_doc == 0) | (scores > elsewhere[t.case]))
    # at most ``limit`` per case, best first: the running count of kept rows within each case
    idx = t.sorted_rows(scores)
    ok_sorted = ok[idx].astype(int)
    running = np.cumsum(ok_sorted)
    starts = np.searchsorted(t.case[idx], np.arange(t.n))
    before = np.concatenate(([0], running))[starts]
    within = running - before[t.case[idx]]
    kept = np.zeros(len(scores), dtype=bool)
    kept[idx] = (ok_sorted == 1) & (within <= limit)
    return kept


def f1(t: Table, kept) -> float:
    tp = int((kept & (t.gold == 1)).sum())
    fp = int((kept & (t.gold == 0)).sum())
    fn = int(t.positives.sum()) - tp
    return 2 * tp / max(1, 2 * tp + fp + fn)


THRESHOLDS = [(s, r, e) for s in (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0) for r in (0.0, 0.6, 0.8, 0.95)
              for e in (0.0, 0.1, 0.25)]


def fit_thresholds(tables: list[Table], weights: dict[str, float]) -> tuple[float, float, float]:
    v = weights_vector(weights)
    tables = [sample(t) for t in tables]
    scores = [t.rows @ v for t in tables]  # one array per table, so its sort order is computed once
    return max(THRESHOLDS, key=lambda th: sum(f1(t, predicted(t, sc, *th)) for t, sc in zip(tables, scores))
               / len(tables))


def best_f1(t: Table, scores) -> float:
    """F1 at the best score cut and relative cut on the set itself (no evidence cut), at most five a child."""
    import numpy as np

    if not len(scores):
        return 0.0
    lo, hi = float(np.min(scores)), float(np.max(scores))
    cuts = [lo + (hi - lo) * q for q in np.linspace(0, 1, 21)]
    ev = t.evidence
    t.evidence = np.ones_like(ev)
    try:
        return max(f1(t, predicted(t, scores, c, r, 0.0)) for c in cuts for r in (0.0, 0.5, 0.7, 0.85, 0.95))
    finally:
        t.evidence = ev


# -- the previous version, in a subprocess -----------------------------------------------------------------
def previous_tree() -> Path:
    """server/ and rules/ of the previous version, unpacked once into the temporary folder."""
    target = Path(tempfile.gettempdir()) / f"safereq-links-eval-{PREVIOUS}"
    if not (target / "server" / "safereq").is_dir():
        raw = subprocess.run(["git", "-C", str(ROOT), "archive", PREVIOUS, "server", "rules"], check=True,
                             capture_output=True).stdout
        with tarfile.open(fileobj=BytesIO(raw)) as tar:
            tar.extractall(target, filter="data")
    return target


def previous_worker(root: Path, every: int) -> dict:
    """Run inside the previous version: its ranking on the same cases (rank_links, whole ranking, no cut),
    every ``every``-th case."""
    from safereq.agent.tasks.linking import rank_links

    ws = load_workspace(root)
    recall, f1_cases = cases(ws)
    recall, f1_cases = recall[::every], f1_cases[::every]
    out = {"recall": [], "f1": [], "every": every}
    for child, parent, view in recall:
        ranked = rank_links(view, "parent", limit=None, abstain=False)
        out["recall"].append([child, parent, [[s.item.id, s.score] for s in ranked[:50]]])
    for child, gold, view in f1_cases:
        ranked = rank_links(view, "parent", limit=None, abstain=False)
        out["f1"].append([child, sorted(gold), [[s.item.id, s.score] for s in ranked[:20]]])
    return out


def previous(root: Path) -> dict:
    """The previous version's rankings on a set; kept beside its unpacked tree, keyed by the set's files."""
    import hashlib

    tree = previous_tree()
    digest = hashlib.sha1(b"".join(p.read_bytes() for p in sorted(root.glob("*")) if p.is_file())).hexdigest()
    every = PREVIOUS_SAMPLE.get(root.name, 1)
    kept = tree / "results" / f"{root.name}-{digest[:16]}-{every}.json"
    if kept.exists():
        return json.loads(kept.read_text(encoding="utf-8"))
    env = {**os.environ, "PYTHONPATH": str(tree / "server"), "SAFEREQ_CACHE_DIR": str(tree / "vectors"), "LANCE_LOG": "error"}
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--previous-worker", str(root),
                           "--every", str(every)],
                          env=env, capture_output=True, text=True, cwd=str(tree))
    if done.returncode != 0:
        raise RuntimeError(f"previous version failed on {root.name}: {done.stderr[-2000:]}")
    kept.parent.mkdir(exist_ok=True)
    kept.write_text(done.stdout, encoding="utf-8")
    return json.loads(done.stdout)


def previous_ranks(prev: dict) -> list[int | None]:
    out = []
    for _, parent, ranked in prev["recall"]:
        ids = [i for i, _ in ranked]
        out.append(ids.index(parent) + 1 if parent in ids else None)
    return out


def previous_best_f1(prev: dict) -> float:
    """The previous version's F1 at its best cuts (the same search as best_f1)."""
    best = 0.0
    positives = sum(len(g) for _, g, _ in prev["f1"])
    for cut in [i / 20 for i in range(21)]:
        for rel in (0.0, 0.5, 0.7, 0.85, 0.95):
            tp = fp = 0
            for _, gold, ranked in prev["f1"]:
                top = ranked[0][1] if ranked else 0.0
                kept = [i for i, s in ranked if s >= max(cut, rel * top)][:5]
                tp += sum(1 for i in kept if i in gold)
                fp += sum(1 for i in kept if i not in gold)
            best = max(best, 2 * tp / max(1, tp + fp + positives))
    return best


# -- clauses ----------------------------------------------------------------------------------------------
CLAUSE_SET = DATA / "taktflow-clauses"


def clauses_eval(root: Path = CLAUSE_SET) -> dict:
    """Clause recall@5 at part + clause level: `links` offline over the shipped catalogue, beside BM25 search
    of the catalogue with the item's text (what `safereq search` does without an index)."""
    from safereq.agent.item.context import workspace_view
    from safereq.agent.retrieval.knowledge import catalogue_source
    from safereq.agent.tasks.pipeline import AgentRequest, Assistant
    from safereq.model.clauses import parse_clause_ref

    gold = json.loads((root / "gold-clauses.json").read_text(encoding="utf-8"))
    ws = load_workspace(root)
    source = catalogue_source()
    assistant = Assistant(source)
    hits = {"safereq": 0, "bm25 search": 0}
    misses = []
    for item in ws.items():
        want = [tuple(g.rsplit(" ", 1)) for g in gold.get(item.id, [])]
        if not want:
            continue
        result = assistant.run(AgentRequest("links", workspace_view(ws, item)))
        refs = [parse_clause_ref(s.target) for s in result.suggestions if s.relation == "cites"][:5]
        got = [(r.document, (r.clause or "").split(".")[0]) for r in refs if r]
        searched = [(h.document, h.clause.split(".")[0]) for h in
                    source.search(f"{item.title} {item.statement.text}", limit=5)]
        for who, suggested in (("safereq", got), ("bm25 search", searched)):
            ok = all(w in suggested for w in want)
            hits[who] += ok
            if who == "safereq" and not ok:
                misses.append(f"{item.id} wants {want[0][0]} §{want[0][1]}, got "
                              + (", ".join(f"{d} §{c}" for d, c in got) or "nothing"))
    n = sum(1 for item in ws.items() if gold.get(item.id))
    return {"items": n, "recall@5": {k: v / max(1, n) for k, v in hits.items()}, "misses": misses,
            "gold": "Taktflow docs' own ISO 26262 citations, 2011 numbers mapped to 2018 (eval/agent/link_sets.py)"}


# -- one run ------------------------------------------------------------------------------------------------
def measure(name: str, root: Path) -> dict:
    """Features of every case (this branch), the BM25 baseline's ranks, and how long it took."""
    import numpy as np

    from safereq.agent.tasks.linking import candidates, link_candidates
    from safereq.agent.retrieval.link_features import Bm25, workspace_index

    started = time.perf_counter()
    ws = load_workspace(root)
    recall, f1_cases = cases(ws)
    plain: dict[int, Bm25] = {}  # the baseline: Okapi BM25 of stemmed words, nothing else (one per text set)

    def bm25_of(view, child: str) -> dict[str, float]:
        _, texts = workspace_index(view)
        key = hash(tuple(sorted(texts.items())))
        if key not in plain:
            plain.clear()
            plain[key] = Bm25(texts)
        return plain[key].score_all(plain[key].terms.get(child, []))

    groups, base, tops, own = [], [], 0, []
    for child, parent, view in recall:
        groups.append(({parent}, candidates(view, "parent")))
        scores = bm25_of(view, child)
        own.append(scores)
        pool = sorted((c.id for c in link_candidates(view)[0]), key=lambda k: (-scores.get(k, 0.0), k))
        base.append(pool.index(parent) + 1 if parent in pool else None)
    f1_groups, base_f1_rows, own_f1 = [], [], []
    for child, gold, view in f1_cases:
        f1_groups.append((gold, candidates(view, "parent")))
        scores = bm25_of(view, child)
        own_f1.append(scores)
        base_f1_rows.append((gold, [(c.id, scores.get(c.id, 0.0)) for c in link_candidates(view)[0]]))
    from safereq.agent.item.context import workspace_view
    from safereq.agent.tasks.linking import rank_links

    child_docs = {it.path for it in ws.items() if any(True for _ in ws.parents(it))}
    top_items = [it for it in ws.items() if it.path not in child_docs]

    for it in top_items[:40]:  # items heading their chain must get no parent
        tops += bool(rank_links(workspace_view(ws, it), "parent"))
    return {"name": name, "recall": table(groups, own), "f1": table(f1_groups, own_f1), "bm25": base, "bm25_f1": base_f1_rows,
            "cases": len(recall), "children": len(f1_cases), "tops_asked": min(40, len(top_items)),
            "tops_offered": tops, "seconds": round(time.perf_counter() - started, 1), "np": np}


def bm25_best_f1(rows) -> float:
    """BM25's F1 at its best cuts, searched as for safereq (best_f1) over a one-signal table."""
    import numpy as np

    rs, case, order, gold, pos = [], [], [], [], []
    for i, (truth, cands) in enumerate(rows):
        pos.append(len(truth))
        for j, (cid, score) in enumerate(sorted(cands)):
            rs.append(score)
            case.append(i)
            order.append(j)
            gold.append(1 if cid in truth else 0)
    n = len(rs)
    t = Table(np.array(rs).reshape(-1, 1), np.array(case, dtype=int), np.array(order, dtype=int),
              np.array(gold, dtype=int), np.ones(n), np.zeros(n, dtype=int), len(rows), np.array(pos, dtype=int))
    return best_f1(t, t.rows[:, 0])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--no-prev", action="store_true", help="leave the previous version out (faster)")
    ap.add_argument("--fit", action="store_true", help="print weights and thresholds fitted on all sets")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--out", help="also write the report as JSON to this file")
    ap.add_argument("--no-clauses", dest="clauses", action="store_false", help="leave the clause recall out")
    ap.add_argument("--previous-worker", help=argparse.SUPPRESS)
    ap.add_argument("--every", type=int, default=1, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    os.environ.setdefault("LANCE_LOG", "error")
    if args.previous_worker:
        print(json.dumps(previous_worker(Path(args.previous_worker), args.every)))
        return 0
    os.environ.setdefault("SAFEREQ_LINK_MEANING", "auto")
    # the item vectors the previous version's runs cached (same model, same texts): embedded once
    os.environ.setdefault("SAFEREQ_CACHE_DIR", str(previous_tree() / "vectors"))
    from safereq.agent.tasks.linking import Policy

    shipped = Policy.shipped()
    measured, missing = {}, []
    for name in args.sets.split(","):
        root = SETS[name]
        if not any(root.glob("*.md")):
            missing.append(f"{name}: convert it first (eval/agent/link_sets.py all)")
            continue
        measured[name] = measure(name, root)
    report: dict = {"sets": {}, "missing": missing}
    for name, m in measured.items():
        others = [o for k, o in measured.items() if k != name]
        w = fit_weights([o["recall"] for o in others], START) if others else shipped.weights
        th = fit_thresholds([o["f1"] for o in others], w) if others else (
            shipped.min_score, shipped.relative, shipped.min_evidence)
        v = weights_vector(w)
        ours = summary(ranks(m["recall"], m["recall"].rows @ v))
        f1_scores = m["f1"].rows @ v
        entry = {"cases": m["cases"], "children": m["children"], "safereq": ours, "bm25": summary(m["bm25"]),
                 "bm25-own": summary(ranks(m["recall"], text_only(m["recall"]))),
                 "bm25-own F1 best": best_f1(m["f1"], text_only(m["f1"])),
                 "F1 fit": f1(m["f1"], predicted(m["f1"], f1_scores, *th)),
                 "F1 best": best_f1(m["f1"], f1_scores), "bm25 F1 best": bm25_best_f1(m["bm25_f1"]),
                 "F1 shipped": f1(m["f1"], predicted(m["f1"], m["f1"].rows @ weights_vector(shipped.weights),
                                                     shipped.min_score, shipped.relative, shipped.min_evidence)),
                 "weights": {k: v for k, v in w.items() if v}, "thresholds": th,
                 "tops": f"{m['tops_offered']} of {m['tops_asked']}", "seconds": m["seconds"]}
        if not args.no_prev:
            started = time.perf_counter()
            prev = previous(SETS[name])
            entry["previous"] = summary(previous_ranks(prev))
            entry["previous F1 best"] = previous_best_f1(prev)
            entry["previous seconds"] = round(time.perf_counter() - started, 1)
        report["sets"][name] = entry
    if args.fit and measured:
        tables = [m["recall"] for m in measured.values()]
        w = fit_weights(tables, START)
        report["fitted on all"] = {"weights": w, "thresholds (min_score, relative, min_evidence)":
                                   fit_thresholds([m["f1"] for m in measured.values()], w)}
    if CLAUSE_SET.joinpath("gold-clauses.json").exists() and args.clauses:
        report["clauses"] = clauses_eval()
    else:
        report["missing"].append("taktflow-clauses: convert it first (eval/agent/link_sets.py all)")
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2, default=str), encoding="utf-8")
    if args.json:
        print(json.dumps(report, indent=2, default=str))
        return 0
    print_table(report)
    return 0


def print_table(report: dict) -> None:
    head = (f"{'set':<16}{'cases':>6}  {'ranker':10}{'R@1':>6}{'R@3':>6}{'R@5':>6}{'MRR':>6}   "
            f"F1 (fit / best / shipped)  published F1")
    print(head)
    for name, r in report["sets"].items():
        pub = PUBLISHED.get(name)
        rows = [("safereq", r["safereq"], f"{r['F1 fit']:.2f} / {r['F1 best']:.2f} / {r['F1 shipped']:.2f}",
                 f"GPT-4o {pub[0]:.2f}, IR {pub[1]:.2f}" if pub else ""),
                ("bm25", r["bm25"], f"       {r['bm25 F1 best']:.2f}", ""),
                ("bm25-own", r["bm25-own"], f"       {r['bm25-own F1 best']:.2f}", "")]
        if "previous" in r:
            every = r.get("previous every", 1)
            rows.append(("previous", r["previous"], f"       {r['previous F1 best']:.2f}",
                         f"(every {every}th case)" if every > 1 else ""))
        for i, (who, m, f, p) in enumerate(rows):
            print(f"{name if i == 0 else '':<16}{r['cases'] if i == 0 else '':>6}  {who:10}{m['R@1']:6.2f}{m['R@3']:6.2f}"
                  f"{m['R@5']:6.2f}{m['MRR']:6.2f}   {f:25} {p}")
        base = {k: max(r["bm25"][k], r["bm25-own"][k]) for k in r["bm25"]}
        met3 = r["safereq"]["R@3"] >= base["R@5"]
        met1 = r["safereq"]["R@1"] >= base["R@1"] + 0.10
        print(f"{'':24}targets (against the better BM25): R@3 >= R@5 {'met' if met3 else 'MISSED'}; R@1 >= R@1 + 0.10 "
              f"{'met' if met1 else 'MISSED'}; top-of-chain items offered a parent: {r['tops']}; "
              f"weights fitted on the other sets: {r['weights']}")
    if "clauses" in report:
        c = report["clauses"]
        print(f"clauses: recall@5 at part + clause level on {c['items']} traced items: safereq "
              f"{c['recall@5']['safereq']:.2f}, bm25 search of the catalogue {c['recall@5']['bm25 search']:.2f} "
              f"(gold: {c['gold']})")
        for line in c["misses"]:
            print(f"  missed: {line}")
    if "fitted on all" in report:
        print("fitted on all sets:", report["fitted on all"])
    for line in report["missing"]:
        print(f"missing: {line}")


if __name__ == "__main__":
    sys.exit(main())
