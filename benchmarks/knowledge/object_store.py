"""Search latency of a knowledge base on object storage against the same index in a local folder, same run.

    .venv/bin/python benchmarks/knowledge/object_store.py [--repeats 3] [--json]

Indexes the shipped corpora (bundled model, shipped vectors) twice: into a temporary folder and into
``s3://safereq-kb/bench`` on moto's S3 server started on 127.0.0.1 (the server the tests use; a real bucket
adds the network's round trips, which this does not measure). Then opens both as an editor does (a reader
that follows new versions) and runs the retrieval dev set's questions, local and S3 interleaved query by
query so both see the same machine load, in full-text and hybrid mode. Prints medians and p95 in ms, the
time to open each index (with its integrity check), and the indexing time of each.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "knowledge"))
QUERIES = [q["q"] for q in yaml.safe_load((REPO / "eval" / "devset.yaml").read_text())["questions"]]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, (time.perf_counter() - start) * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="passes over the dev-set questions (default 3)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    from s3_server import s3_endpoint

    from safereq.knowledge import open_knowledge_base
    from safereq.knowledge.config import KnowledgeConfig
    from safereq.knowledge.indexer import index_paths

    results: dict[str, object] = {"queries": len(QUERIES) * args.repeats}
    with s3_endpoint() as s3, tempfile.TemporaryDirectory() as tmp:
        locations = {"local": str(Path(tmp) / "index"), "s3": f"s3://{s3.bucket}/bench"}
        kbs = {}
        for name, where in locations.items():
            config = KnowledgeConfig.resolve(where)
            _report, ms = timed(lambda c=config: index_paths(c, []))
            results[f"index_{name}_s"] = round(ms / 1000, 1)
            kbs[name], ms = timed(lambda c=config: open_knowledge_base(config=c))
            results[f"open_{name}_ms"] = round(ms, 1)
            kbs[name].search("warm up", limit=1)  # model load and first table read, not measured
        for mode in ("fts", "hybrid"):
            times: dict[str, list[float]] = {"local": [], "s3": []}
            for _ in range(args.repeats):
                for query in QUERIES:
                    for name, kb in kbs.items():
                        _hits, ms = timed(lambda k=kb, q=query, m=mode: k.search(q, limit=5, mode=m))
                        times[name].append(ms)
            for name, values in times.items():
                results[f"{mode}_{name}_p50_ms"] = round(statistics.median(values), 1)
                results[f"{mode}_{name}_p95_ms"] = round(pct(values, 0.95), 1)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"{results['queries']} queries per mode, local and S3 interleaved")
    print(f"indexing the shipped corpora: local {results['index_local_s']} s, S3 {results['index_s3_s']} s")
    print(f"open (with integrity check): local {results['open_local_ms']} ms, S3 {results['open_s3_ms']} ms")
    for mode in ("fts", "hybrid"):
        print(f"{mode:>6}: local p50 {results[f'{mode}_local_p50_ms']} / p95 {results[f'{mode}_local_p95_ms']} ms; "
              f"S3 p50 {results[f'{mode}_s3_p50_ms']} / p95 {results[f'{mode}_s3_p95_ms']} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
