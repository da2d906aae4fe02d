"""Retrieval quality when only the first N tokens of each chunk are embedded, against whole chunks.

    .venv/bin/python benchmarks/knowledge/embed_cap_quality.py --caps 0 256 128 [--keep DIR]

The shipped corpora come with seed vectors made from whole chunks, so a fair comparison re-embeds them: for
each cap this indexes the shipped corpora into a fresh folder with the seed ignored (every vector computed
with that cap; minutes each on 2 cores), then runs eval/evaluate.py on it. Cap 0 is the uncapped baseline,
re-embedded the same way in the same run. Prints one table row per cap and retrieval mode and writes
benchmarks/results/embed_cap_quality.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "eval"))


def build(index_dir: Path, cap: int) -> dict:
    from safereq.knowledge import seed
    from safereq.knowledge.config import KnowledgeConfig
    from safereq.knowledge.indexer import index_paths

    seed.load_seed = lambda path: {}  # the seed holds whole-chunk vectors: compute every vector with the cap
    os.environ["SAFEREQ_EMBED_MAX_TOKENS"] = str(cap)
    started = time.perf_counter()
    report = index_paths(KnowledgeConfig.resolve(index_dir, embedder="e5"))
    assert report.vectors_pending == 0, report
    return {"embedded": report.embedded, "vector_s": round(report.vector_seconds, 1),
            "wall_s": round(time.perf_counter() - started, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--caps", type=int, nargs="+", default=[0, 256, 128])
    ap.add_argument("--keep", type=Path, help="build the indexes under this folder and keep them")
    args = ap.parse_args()
    from evaluate import evaluate

    root = args.keep or Path(tempfile.mkdtemp(prefix="capq-"))
    out: dict = {}
    for cap in args.caps:
        index_dir = root / f"cap-{cap}"
        built = build(index_dir, cap)
        res = evaluate(index_dir, REPO / "eval" / "devset.yaml")
        out[str(cap)] = {"build": built, "results": {m: {k: r[k] for k in ("recall@5", "mrr", "context_precision",
                                                                        "recall@5_by_lang")}
                                                     for m, r in res["results"].items()}}
        print(f"cap {cap}: embedded {built['embedded']} chunks in {built['vector_s']} s", file=sys.stderr)
        for m, r in out[str(cap)]["results"].items():
            print(f"| {cap} | {m} | {r['recall@5']:.3f} | {r['mrr']:.3f} | {r['context_precision']:.3f} | "
                  f"{r['recall@5_by_lang'].get('zh', float('nan')):.3f} |", flush=True)
    (REPO / "benchmarks" / "results").mkdir(exist_ok=True)
    (REPO / "benchmarks" / "results" / "embed_cap_quality.json").write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
