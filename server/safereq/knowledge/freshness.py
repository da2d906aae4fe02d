"""Whether an ``index`` run would change nothing, decided on the read path (no LanceDB import).

Why: a no-op ``safereq index`` (every file unchanged) used to open the writer, and ``import lancedb`` alone
costs 1–5 s of CPU. The writer is needed only when something is to be written, so this module answers the
question with what :mod:`.reader` and :mod:`.integrity` read through Lance's dataset API. It is
conservative: any doubt (a damaged or missing index, another model, a changed, new or removed file, vectors
still pending) answers "not fresh", and the full run decides as before.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable

from .config import KnowledgeConfig
from .embeddings import Embedder, OpenAIEmbedder, make_embedder
from .ingest.chunker import CHUNKER_VERSION
from .store_schema import META_SCHEMA, SCHEMA_VERSION
from .types import IndexReport


def unchanged_report(config: KnowledgeConfig, jobs: Iterable, prune_prefixes: Iterable[str], *,
                     vectors: bool, embedder: Embedder | None | str = "auto") -> IndexReport | None:
    """The report of a run over ``jobs`` that finds every file as indexed; ``None`` when it has work to do."""
    from .ingest.files import chunk_job, read_bytes
    from .integrity import inspect
    from .reader import TableReader

    started = time.perf_counter()
    jobs = list(jobs)
    if embedder == "auto":
        embedder = make_embedder(config.embed)
    if isinstance(embedder, OpenAIEmbedder) and not config.embed.dim:
        return None  # its dimension is known only by asking the endpoint: leave that to the full run
    model = (embedder.model_id, embedder.dim) if embedder is not None else ("none", 0)
    if inspect(config.index_dir).state != "ok":
        return None
    reader = TableReader(config.index_dir)
    meta = reader.dataset.schema.metadata or {}
    if reader.model() != model or meta.get(META_SCHEMA) != SCHEMA_VERSION.encode():
        return None
    known = {f.source: (f.content_hash, f.chunker) for f in reader.files()}
    seen = {j.source for j in jobs}
    if any(s.startswith(pre) and s not in seen for s in known for pre in prune_prefixes):
        return None
    if vectors and embedder is not None and reader.pending_count():
        return None
    report = IndexReport()
    for job in jobs:
        try:
            data = read_bytes(job.path)
        except Exception:  # noqa: BLE001 - an unreadable file is reported by the full run
            return None
        if known.get(job.source) == (hashlib.sha256(data).hexdigest(), CHUNKER_VERSION):
            report.skipped.append(job.source)
            continue
        if job.source in known:
            return None
        try:
            chunks, _pages = chunk_job(job, data)
        except Exception:  # noqa: BLE001 - the full run reports why
            return None
        if chunks:
            return None
        report.empty.append(job.source)
    report.seconds = report.text_seconds = time.perf_counter() - started
    return report
