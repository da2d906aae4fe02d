"""Knowledge-base benchmarks: indexing throughput, query latency at 50,000 chunks, disk size, memory, first query.

    .venv/bin/python benchmarks/knowledge/run.py [--index-dir .safereq/index] [--rows 50000] [--pages 15] [--json]

1. indexing throughput: a fresh index of the first ``--pages`` pages of the MIL-STD-882E PDF with the bundled
   offline model and no vector cache (parse + chunk + embed + write), in pages per minute; plus parsing
   alone over both shipped page-based documents.
2. a synthetic table of ``--rows`` chunks: texts resampled from the shipped corpora, vectors = real vectors
   of the shipped chunks plus small noise (so they cluster like real embeddings); full-text index and, as the
   indexer does at this size, an IVF-HNSW-SQ vector index. Reports build time, disk size and search latency
   p50/p95 for fts, vector and hybrid (query embeddings cached, so this is retrieval alone), and the query
   embedding time separately.
3. a fresh process that opens an index and runs queries: import cost, open cost, first query (pays for loading
   the model), steady-state query, and resident memory, for the shipped index and the synthetic one.

Needs an index of the shipped corpora (``safereq index``) for the real vectors and for step 3.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
QUERIES = [q["q"] for q in yaml.safe_load((REPO / "eval" / "devset.yaml").read_text())["questions"]]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def bench_indexing(pages: int, work: Path) -> dict:
    from pypdf import PdfReader, PdfWriter

    from safereq.knowledge.config import KnowledgeConfig
    from safereq.knowledge.indexer import index_paths
    from safereq.knowledge.ingest import chunk_source

    pdf = REPO / "corpora" / "mil-std-882e" / "MIL-STD-882E.pdf"
    reader, writer = PdfReader(pdf), PdfWriter()
    for page in reader.pages[8:8 + pages]:
        writer.add_page(page)
    subset = work / "mil-subset.pdf"
    with subset.open("wb") as f:
        writer.write(f)
    t = time.perf_counter()
    report = index_paths(KnowledgeConfig.resolve(work / "throughput-index", embedder="e5"), [subset],
                         document="MIL-STD-882E")
    seconds = time.perf_counter() - t
    parse = {}
    for path, doc in [(pdf, "MIL-STD-882E"), (REPO / "corpora/nhtsa-dot-hs-812-573-alc/alc_report.txt", "DOT HS")]:
        t = time.perf_counter()
        parsed = chunk_source(path, document=doc)
        parse[path.name] = {"pages": parsed.pages, "chunks": len(parsed.chunks),
                            "pages_per_minute": round(parsed.pages / (time.perf_counter() - t) * 60)}
    return {"pages": report.pages, "chunks": report.chunks_written, "seconds": round(seconds, 1),
            "pages_per_minute": round(report.pages / seconds * 60, 1),
            "chunks_per_second": round(report.chunks_written / seconds, 2), "parse_only": parse}


def _real_rows(index_dir: Path) -> list[dict]:
    from safereq.knowledge.store import Store

    store = Store(index_dir)
    cols = [f.name for f in store.table.schema]
    return store.table.search().select(cols).limit(None).to_list()


def bench_table(index_dir: Path, rows: int, work: Path) -> dict:
    import numpy as np

    from safereq.knowledge import open_knowledge_base
    from safereq.knowledge.store import Store

    real = [r for r in _real_rows(index_dir) if r.get("vector") is not None]
    model_store = Store(index_dir)
    model_id, dim = model_store.model()
    rng = np.random.default_rng(7)
    base = np.array([r["vector"] for r in real], dtype="float32")
    out = work / "table-50k"
    store = Store(out, reader=False)
    store.ensure(model_id, dim)
    t = time.perf_counter()
    batch: list[dict] = []
    for i in range(rows):
        src = real[i % len(real)]
        vec = base[i % len(real)] + rng.normal(0, 0.02, dim).astype("float32")
        vec /= np.linalg.norm(vec)
        row = dict(src)
        row.update(id=f"syn{i}", source=f"synthetic:{i // 500}", ordinal=i, vector=vec.tolist())
        batch.append(row)
        if len(batch) == 5000:
            store.table.add(batch)
            batch = []
    if batch:
        store.table.add(batch)
    write_s = time.perf_counter() - t
    t = time.perf_counter()
    store.finish()
    index_s = time.perf_counter() - t
    size = dir_size(out)

    kb = open_knowledge_base(out)
    queries = QUERIES[:40]
    t = time.perf_counter()
    for q in queries:
        kb.embedder.embed_query(q)  # fills the query cache: the timings below are retrieval only
    embed_ms = (time.perf_counter() - t) / len(queries) * 1000
    lat = {}
    for mode in ("fts", "vector", "hybrid"):
        kb.search(queries[0], limit=10, mode=mode)
        times = []
        for q in queries:
            t = time.perf_counter()
            kb.search(q, limit=10, mode=mode)
            times.append((time.perf_counter() - t) * 1000)
        lat[mode] = {"p50_ms": round(pct(times, 0.5), 1), "p95_ms": round(pct(times, 0.95), 1)}
    return {"rows": rows, "write_s": round(write_s, 1), "index_build_s": round(index_s, 1),
            "disk_mb": round(size / 1e6, 1), "query_embedding_ms": round(embed_ms, 1), "latency": lat,
            "path": str(out)}


PROBE = r"""
import json, os, sys, time
t0 = time.perf_counter()
from safereq.knowledge import open_knowledge_base
import safereq.knowledge.base
t1 = time.perf_counter()
kb = open_knowledge_base(sys.argv[1])
t2 = time.perf_counter()
kb.search("how are hazards tracked until closure?", limit=5)
t3 = time.perf_counter()
times = []
for q in ["what are the severity categories?", "safe states of lane centering", "ASIL decomposition",
          "software tool qualification", "jaywalking pedestrian scenario"]:
    t = time.perf_counter(); kb.search(q, limit=5); times.append(time.perf_counter() - t)
rss = int(next(l for l in open("/proc/self/status") if l.startswith("VmRSS")).split()[1]) / 1024
hwm = int(next(l for l in open("/proc/self/status") if l.startswith("VmHWM")).split()[1]) / 1024
print(json.dumps({"import_s": t1 - t0, "open_s": t2 - t1, "first_query_s": t3 - t2,
                  "next_query_ms_median": sorted(times)[2] * 1000, "rss_mb": rss, "peak_rss_mb": hwm}))
"""


def bench_process(index_dir: Path) -> dict:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", PROBE, str(index_dir)], capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    data["process_total_s"] = time.perf_counter() - start
    return {k: round(v, 2) for k, v in data.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index-dir", default=REPO / ".safereq" / "index", type=Path)
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--pages", type=int, default=15)
    parser.add_argument("--skip", nargs="*", default=[], choices=["indexing", "table", "process"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="safereq-kb-bench-"))
    results: dict = {}
    try:
        if "indexing" not in args.skip:
            results["indexing"] = bench_indexing(args.pages, work)
        if "table" not in args.skip:
            results["table"] = bench_table(args.index_dir, args.rows, work)
        if "process" not in args.skip:
            results["process_shipped_index"] = bench_process(args.index_dir)
            if "table" in results:
                results["process_50k_index"] = bench_process(Path(results["table"]["path"]))
            results["shipped_index_disk_mb"] = round(dir_size(args.index_dir) / 1e6, 1)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
