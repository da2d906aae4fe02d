"""Which decision turns the trace-link ranking into F1, leave one set out: the study behind docs/agent.md's CM1 note.

Usage (from the repository root, after eval/agent/link_sets.py all):

    nice -n 10 .venv/bin/python eval/agent/f1_decisions.py [--sets cm1,gannt,...]

The ranking is the one links_eval.py measures (its weights fitted on the other sets); only the decision of
which ranked candidates to offer changes. For each decision rule, "fit" takes its parameters from the other
sets (the best mean F1 over them) and "best" from the set itself, as links_eval.py's "F1 best" does:

- **shipped form**: a score of at least ``a`` and ``r`` times the child's best, at most five (linking.py `keep`);
- **+ rank limit**: the same, at most ``k`` (1, 2, 3 or 5) per child;
- **gap**: a score of at least ``a`` and within ``d`` of the child's best (scores are sums of weighted signals,
  so a distance is what a per-child normalisation of them comes to), at most ``k``;
- **mutual rank**: the shipped form, and the child among the ``m`` best items of its document for the
  parent's words (the parent's side: is this child one of the parent's best children?);
- **z**: a score of at least ``a`` and ``z`` standard deviations above the mean of the child's candidates;
- **gap + has-a-parent**: the gap rule behind a logistic model, fitted on the other sets, of whether the
  child has any parent at all, read from its best candidate (its score, its lead over the second, and that
  candidate's signals: words, the parent's side -- the child's standing and rank among its document's items
  for the parent's words --, other children, neighbours); once fitted on all the other sets, once only on
  those where at least a tenth of the children have no parent (the others teach it nothing about them).

Then the bounds that say where the missing F1 is: the share of children without any parent (every
suggestion for them is a false positive), the best gap cut if those children were known and asked nothing,
and each child offered exactly its top-n, n its true number of parents.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import links_eval as le  # noqa: E402  (the evaluation's cases, tables and fits)

CHILD_SIGNALS = ("absolute", "text", "standing_rank", "standing", "siblings", "neighbours", "near", "bigrams",
                 "cosine")


def positions(t: le.Table, scores):
    """Per row: the child's best score, the row's rank within its child (1 = best), the child's second score."""
    import numpy as np

    best = np.full(t.n, -np.inf)
    np.maximum.at(best, t.case, scores)
    idx = np.lexsort((t.order, -scores, t.case))
    starts = np.searchsorted(t.case[idx], np.arange(t.n))
    pos = np.arange(len(scores)) - starts[t.case[idx]]
    rank = np.empty(len(scores), dtype=int)
    rank[idx] = pos + 1
    second = np.full(t.n, np.nan)
    at2 = idx[pos == 1]
    second[t.case[at2]] = scores[at2]
    return best[t.case], rank, second


def first_k(t: le.Table, ok, scores, k: int):
    """Of the rows ``ok``, at most ``k`` per child, best first (and an item of the child's own document only
    when it beats the best candidate from elsewhere, as linking.py `keep`)."""
    import numpy as np

    elsewhere = np.full(t.n, -np.inf)
    other = t.same_doc == 0
    np.maximum.at(elsewhere, t.case[other], scores[other])
    ok = ok & ((t.same_doc == 0) | (scores > elsewhere[t.case]))
    idx = np.lexsort((t.order, -scores, t.case))
    running = np.cumsum(ok[idx].astype(int))
    starts = np.searchsorted(t.case[idx], np.arange(t.n))
    within = running - np.concatenate(([0], running))[starts][t.case[idx]]
    kept = np.zeros(len(scores), dtype=bool)
    kept[idx] = ok[idx] & (within <= k)
    return kept


def relative_rule(t, scores, p):
    """The shipped form: a score of at least ``a`` and ``r`` times the child's best, at most ``k``."""
    a, r, k = p
    best, _, _ = positions(t, scores)
    return first_k(t, (scores >= a) & (scores >= r * best), scores, k)


def gap_rule(t, scores, p):
    """A score of at least ``a`` and within ``d`` of the child's best, at most ``k``."""
    a, d, k = p
    best, _, _ = positions(t, scores)
    return first_k(t, (scores >= a) & (scores >= best - d), scores, k)


def z_rule(t, scores, p):
    """A score of at least ``a`` and ``zc`` standard deviations above the mean of the child's candidates."""
    import numpy as np

    a, zc, k = p
    n = np.maximum(np.bincount(t.case, minlength=t.n), 1).astype(float)
    mean = np.bincount(t.case, weights=scores, minlength=t.n) / n
    var = np.bincount(t.case, weights=scores * scores, minlength=t.n) / n - mean ** 2
    z = (scores - mean[t.case]) / np.sqrt(np.maximum(var, 1e-9))[t.case]
    return first_k(t, (scores >= a) & (z >= zc), scores, k)


def mutual_rule(t, scores, p):
    """The shipped form, and the child among the ``m`` best items of its document for the parent's words."""
    from safereq.agent.retrieval.link_features import FEATURES

    a, r, m, k = p
    best, _, _ = positions(t, scores)
    mutual = t.rows[:, FEATURES.index("standing_rank")] >= 1.0 / m - 1e-9
    return first_k(t, (scores >= a) & (scores >= r * best) & mutual, scores, k)


CUTS = (0.0, 1.0, 2.0, 4.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0)
RULES = {
    "shipped form": (relative_rule, [(a, r, 5) for a in CUTS for r in (0.0, 0.6, 0.7, 0.8, 0.9, 0.95)]),
    "+ rank limit": (relative_rule, [(a, r, k) for a in CUTS for r in (0.0, 0.6, 0.7, 0.8, 0.9, 0.95)
                                     for k in (1, 2, 3, 5)]),
    "gap": (gap_rule, [(a, d, k) for a in CUTS for d in (0.5, 1.0, 1.5, 2.0, 3.0, 100.0) for k in (1, 2, 3, 5)]),
    "mutual rank": (mutual_rule, [(a, r, m, 5) for a in CUTS for r in (0.0, 0.6, 0.7, 0.8, 0.9)
                                  for m in (1, 2, 3, 5, 10, 10 ** 9)]),
    "z": (z_rule, [(a, z, k) for a in CUTS for z in (1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0) for k in (1, 2, 3, 5)]),
}


def child_features(t: le.Table, scores):
    """One row per child: its best candidate's score, lead over the second, and that candidate's signals."""
    import numpy as np

    from safereq.agent.retrieval.link_features import FEATURES

    col = {name: i for i, name in enumerate(FEATURES)}
    _, rank, second = positions(t, scores)
    top = np.flatnonzero(rank == 1)
    top = top[np.argsort(t.case[top])]
    lead = scores[top] - np.where(np.isnan(second), scores[top] - 3.0, second)
    return np.column_stack([scores[top], lead] + [t.rows[top, col[c]] for c in CHILD_SIGNALS] + [np.ones(t.n)])


def fit_logistic(xs, ys, lam: float = 0.01, steps: int = 400):
    """Logistic regression by Adam, each set counting alike (features standardised by the caller)."""
    import numpy as np

    w = np.zeros(xs[0].shape[1])
    m1, m2 = np.zeros_like(w), np.zeros_like(w)
    for step in range(1, steps + 1):
        grad = sum(x.T @ (1 / (1 + np.exp(-(x @ w))) - y) / len(y) for x, y in zip(xs, ys)) / len(xs) + lam * w
        m1 = 0.9 * m1 + 0.1 * grad
        m2 = 0.999 * m2 + 0.001 * grad * grad
        w -= 0.05 * (m1 / (1 - 0.9 ** step)) / (np.sqrt(m2 / (1 - 0.999 ** step)) + 1e-8)
    return w


def has_parent(tables: dict, scores: dict, others: list[str]):
    """P(the child has a parent) for every set's children, the model fitted on ``others`` only."""
    import numpy as np

    feats = {k: child_features(tables[k], scores[k]) for k in tables}
    stacked = np.vstack([feats[k] for k in others])
    mu, sd = stacked.mean(0), stacked.std(0) + 1e-9
    mu[-1], sd[-1] = 0.0, 1.0
    w = fit_logistic([(feats[k] - mu) / sd for k in others], [(tables[k].positives > 0) * 1.0 for k in others])
    return {k: 1 / (1 + np.exp(-((feats[k] - mu) / sd) @ w)) for k in tables}


def study(measured: dict) -> dict:
    import numpy as np

    names = list(measured)
    out: dict = {}
    for name in names:
        others = [k for k in names if k != name]
        v = le.weights_vector(le.fit_weights([measured[k]["recall"] for k in others], le.START))
        tables = {k: measured[k]["f1"] for k in names}
        fit_tables = {k: (tables[k] if k == name else le.sample(tables[k])) for k in names}
        scores = {k: fit_tables[k].rows @ v for k in names}
        t, s = tables[name], scores[name]
        row: dict = {}
        for label, (rule, grid) in RULES.items():
            chosen = max(grid, key=lambda p: sum(le.f1(fit_tables[k], rule(fit_tables[k], scores[k], p))
                                                 for k in others))
            row[label] = (le.f1(t, rule(t, s, chosen)), max(le.f1(t, rule(t, s, p)) for p in grid), chosen)
        grid = [(c, p) for c in (0.0, 0.3, 0.4, 0.5, 0.6, 0.7) for p in RULES["gap"][1] if p[2] in (2, 5)]
        with_orphans = [k for k in others if (tables[k].positives == 0).mean() >= 0.1]
        for label, train in (("gap + has-a-parent", others), ("same, fitted where some have none", with_orphans)):
            prob = has_parent(fit_tables, scores, train)

            def gated(k, cp):
                return gap_rule(fit_tables[k], scores[k], cp[1]) & (prob[k][fit_tables[k].case] >= cp[0])

            chosen = max(grid, key=lambda cp: sum(le.f1(fit_tables[k], gated(k, cp)) for k in others))
            row[label] = (le.f1(t, gated(name, chosen)), max(le.f1(t, gated(name, cp)) for cp in grid), chosen)
        _, rank, _ = positions(t, s)
        orphan = t.positives[t.case] == 0
        bounds = {
            "children": t.n, "without a parent": float((t.positives == 0).mean()),
            "best gap cut, those known": max(le.f1(t, gap_rule(t, s, p) & ~orphan) for p in RULES["gap"][1]),
            "top-n, n known": le.f1(t, rank <= t.positives[t.case]),
        }
        out[name] = {"rules": row, "bounds": bounds}
        print_row(name, row, bounds)
    return out


def print_row(name: str, row: dict, b: dict) -> None:
    rules = "  ".join(f"{label} {fit:.2f}/{best:.2f}" for label, (fit, best, _) in row.items())
    print(f"{name:16} F1 fit/best: {rules}", flush=True)
    print(f"{'':16} {b['children']} children, {b['without a parent']:.0%} without a parent; best gap cut with "
          f"those known {b['best gap cut, those known']:.2f}; top-n with n known {b['top-n, n known']:.2f}; "
          f"fitted: " + ", ".join(f"{label}: {p}" for label, (_, _, p) in row.items()),
          flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default=",".join(le.SETS))
    args = ap.parse_args(argv)
    import os

    os.environ.setdefault("LANCE_LOG", "error")
    os.environ.setdefault("SAFEREQ_LINK_MEANING", "auto")
    os.environ.setdefault("SAFEREQ_CACHE_DIR", str(le.previous_tree() / "vectors"))
    measured = {}
    for name in args.sets.split(","):
        if any(le.SETS[name].glob("*.md")):
            measured[name] = le.measure(name, le.SETS[name])
        else:
            print(f"missing: {name}: convert it first (eval/agent/link_sets.py all)")
    study(measured)
    return 0


if __name__ == "__main__":
    sys.exit(main())
