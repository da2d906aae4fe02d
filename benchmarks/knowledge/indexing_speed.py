"""Indexing a licensed-standard-sized PDF: pages per minute for full text and for vectors, against parsing alone.

    .venv/bin/python benchmarks/knowledge/indexing_speed.py [--pages 1000] [--vector-pages 1000] [--runs 3]

1. generates a standard-like PDF of ``--pages`` pages (standard_pdf.py: numbered clauses, tables, Chinese);
2. baseline, in the same run: PDF parsing alone (pypdf text extraction of every page, ``read_source``);
3. text phase: a fresh index of the whole PDF with the bundled model configured but vectors deferred
   (``vectors=False``), until full-text search answers; a search is run to check it does;
4. vectors phase: the vectors of the first ``--vector-pages`` pages filled in, once with the worker processes
   (``SAFEREQ_EMBED_PROCESSES``, default 2) and once in-process with the pre-change settings (1 process,
   batches of 16) as the baseline.

Steps 2 and 3 are repeated ``--runs`` times (medians); the vector phases run once each (minutes). Wall and CPU
time (this process plus its finished children) are reported, with the load average, because the machine is
shared. Writes ``benchmarks/results/indexing_speed.json``. Targets (issue 15): full text ≤ 60 s for 1,000 pages;
vectors ≥ 150 pages/min.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from standard_pdf import write_standard_pdf  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed(fn):
    w, c = time.perf_counter(), cpu()
    out = fn()
    return out, time.perf_counter() - w, cpu() - c


def first_pages(pdf: Path, pages: int, out: Path) -> Path:
    from pypdf import PdfReader, PdfWriter

    reader, writer = PdfReader(pdf), PdfWriter()
    for page in reader.pages[:pages]:
        writer.add_page(page)
    with out.open("wb") as f:
        writer.write(f)
    return out


def text_phase(pdf: Path, index_dir: Path) -> dict:
    from safereq.knowledge import open_knowledge_base
    from safereq.knowledge.config import KnowledgeConfig
    from safereq.knowledge.indexer import index_paths

    config = KnowledgeConfig.resolve(index_dir, embedder="e5")
    report, wall, cpu_s = timed(lambda: index_paths(config, [pdf], document="ISO 26262-6", vectors=False))
    hits = open_knowledge_base(index_dir, embedder=None).search("fault tolerant time interval", mode="fts")
    assert hits, "full-text search found nothing after the text phase"
    return {"pages": report.pages, "chunks": report.chunks_written, "wall_s": wall, "cpu_s": cpu_s,
            "text_ready_s": report.text_seconds, "pending": report.vectors_pending}


def vector_phase(pdf: Path, index_dir: Path, processes: int, batch: int | None, max_tokens: int = -1) -> dict:
    from safereq.knowledge.config import KnowledgeConfig
    from safereq.knowledge.embeddings import E5Embedder
    from safereq.knowledge.indexer import Indexer, path_jobs

    os.environ["SAFEREQ_EMBED_PROCESSES"] = str(processes)
    config = KnowledgeConfig.resolve(index_dir, embedder="e5")
    embedder = E5Embedder(batch_size=batch or 16, max_tokens=max_tokens)
    jobs, _roots, _p = path_jobs([pdf], "ISO 26262-6")
    Indexer(config, embedder=embedder).run(jobs, vectors=False)
    report, wall, cpu_s = timed(lambda: Indexer(config, embedder=embedder).run(jobs))
    assert report.vectors_pending == 0 and report.embedded, report
    pages = report.pages or _pages(pdf)
    return {"processes": processes, "max_tokens": embedder.max_tokens, "pages": pages, "chunks": report.embedded, "wall_s": wall, "cpu_s": cpu_s,
            "vector_s": report.vector_seconds, "pages_per_min": pages / report.vector_seconds * 60,
            "chunks_per_s": report.embedded / report.vector_seconds}


def _pages(pdf: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(pdf).pages)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", type=int, default=1000)
    ap.add_argument("--vector-pages", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip-baseline-vectors", action="store_true", help="skip the in-process vector baseline")
    ap.add_argument("--caps", type=int, nargs="+", help="embed-token caps to compare (0 = whole chunks): the "
                    "vector phase runs --runs times per cap, interleaved, instead of the two fixed phases")
    ap.add_argument("--vectors-only", action="store_true", help="skip the parse and text phases")
    args = ap.parse_args()
    from safereq.knowledge.ingest.readers import read_source

    result: dict = {"load_before": os.getloadavg()[0], "cores": os.cpu_count()}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pdf = work / "standard.pdf"
        meta, gen_wall, _ = timed(lambda: write_standard_pdf(pdf, args.pages))
        result["pdf"] = {**meta, "generate_s": round(gen_wall, 1)}
        parse, text = [], []
        for run in range(0 if args.vectors_only else args.runs):
            _, w, c = timed(lambda: read_source(pdf))
            parse.append((w, c))
            text.append(text_phase(pdf, work / f"text-{run}"))
            print(f"run {run + 1}: parse {w:.1f} s wall / {c:.1f} s CPU; text searchable after "
                  f"{text[-1]['text_ready_s']:.1f} s ({text[-1]['cpu_s']:.1f} s CPU)", file=sys.stderr)
        med = statistics.median
        subset = pdf if args.vector_pages >= args.pages else first_pages(pdf, args.vector_pages, work / "subset.pdf")
        if parse:
            result["parse_only"] = {"wall_s": med(w for w, _ in parse), "cpu_s": med(c for _, c in parse),
                                    "pages_per_min": args.pages / med(w for w, _ in parse) * 60}
            result["text"] = {"chunks": text[0]["chunks"], "wall_s": med(t["wall_s"] for t in text),
                              "text_ready_s": med(t["text_ready_s"] for t in text),
                              "cpu_s": med(t["cpu_s"] for t in text),
                              "pages_per_min": args.pages / med(t["text_ready_s"] for t in text) * 60,
                              "runs": text}
        if args.caps:
            result["caps"] = cap_phases(subset, work, args.caps, args.runs)
            return finish(result)
        result["vectors"] = vector_phase(subset, work / "vec-pool", int(os.environ.get("SAFEREQ_EMBED_PROCESSES", "2")),
                                         None)
        print(f"vectors: {result['vectors']['pages_per_min']:.0f} pages/min", file=sys.stderr)
        if not args.skip_baseline_vectors:
            result["vectors_baseline_in_process"] = vector_phase(subset, work / "vec-one", 1, 16)
    finish(result)


def cap_phases(subset: Path, work: Path, caps: list[int], runs: int) -> dict:
    """The vector phase per embed-token cap, runs interleaved (cap A, cap B, ..., cap A, ...); medians."""
    processes = int(os.environ.get("SAFEREQ_EMBED_PROCESSES", "2"))
    by_cap: dict[int, list[dict]] = {c: [] for c in caps}
    for run in range(runs):
        for cap in caps:
            r = vector_phase(subset, work / f"cap-{cap}-{run}", processes, None, cap)
            r["load"] = os.getloadavg()[0]
            by_cap[cap].append(r)
            print(f"run {run + 1} cap {cap}: {r['pages_per_min']:.0f} pages/min ({r['chunks']} chunks, "
                  f"{r['vector_s']:.1f} s, load {r['load']:.1f})", file=sys.stderr, flush=True)
    return {str(c): {"pages_per_min_median": statistics.median(r["pages_per_min"] for r in rs), "runs": rs}
            for c, rs in by_cap.items()}


def finish(result: dict) -> None:
    result["load_after"] = os.getloadavg()[0]
    out = REPO / "benchmarks" / "results" / "indexing_speed.json"
    out.write_text(json.dumps(result, indent=2))
    text = {"text": {k: v for k, v in result["text"].items() if k != "runs"}} if "text" in result else {}
    print(json.dumps({k: v for k, v in result.items() if k != "text"} | text, indent=2))


if __name__ == "__main__":
    main()
