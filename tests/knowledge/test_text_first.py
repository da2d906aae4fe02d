"""Text first, vectors after: full-text search works before the vectors, and a stopped vector phase resumes."""

import json

import numpy as np
import pytest

from safereq.cli.main import main
from safereq.knowledge import open_knowledge_base
from safereq.knowledge.config import KnowledgeConfig
from safereq.knowledge import indexer as indexer_module
from safereq.knowledge.indexer import Indexer, path_jobs
from safereq.knowledge.store import Store
from safereq.knowledge.types import IndexCancelled

from .knowledge_helpers import HashEmbedder, make_pdf

PAGES = 40
BATCH = 1  # chunks per commit of vectors in these tests, so that a run holds several commits


@pytest.fixture()
def standard(tmp_path, monkeypatch):
    monkeypatch.setattr(indexer_module, "VECTOR_BATCH", BATCH)
    pdf = tmp_path / "std" / "widget-standard.pdf"
    pdf.parent.mkdir()
    pdf.write_bytes(make_pdf([["WIDGET-STD 3", f"{4 + i // 6}.{i % 6 + 1} Clause number {i}",
                               f"The widget controller shall monitor sensor {i} for the zeppelin{i} fault and "
                               f"reach its safe state within {10 + i} ms."] for i in range(PAGES)]))
    return pdf, KnowledgeConfig.resolve(tmp_path / "index", embedder="none")


def _run(config, pdf, embedder, progress=None, **kw):
    jobs, _roots, _problems = path_jobs([pdf], "WIDGET-STD 3")
    return Indexer(config, progress, embedder=embedder).run(jobs, **kw)


def test_text_only_run_is_searchable_and_the_next_run_fills_the_vectors(standard):
    pdf, config = standard
    emb = HashEmbedder()
    first = _run(config, pdf, emb, vectors=False)
    assert emb.embedded == 0 and first.chunks_written > 2 * BATCH and first.vectors_pending == first.chunks_written
    kb = open_knowledge_base(config.index_dir, embedder=emb)
    assert kb.store.pending_count() == first.chunks_written
    hits = kb.search("zeppelin17", mode="hybrid", limit=3)
    assert hits and "zeppelin17" in hits[0].text  # full text answers while no vector exists
    assert kb.search("zeppelin17", mode="vector") == []

    second = _run(config, pdf, emb)
    assert second.indexed == [] and second.embedded == emb.embedded == first.chunks_written
    assert second.vectors_pending == 0 and Store(config.index_dir).pending_count() == 0
    hits = open_knowledge_base(config.index_dir, embedder=emb).search("zeppelin17 fault", mode="vector", limit=3)
    assert any("zeppelin17" in h.text for h in hits)
    assert "zeppelin17" in open_knowledge_base(config.index_dir, embedder=emb).search(
        "zeppelin17", mode="fts", limit=1)[0].text  # the rows rewritten with vectors are still in full text


def test_a_stopped_vector_phase_keeps_its_batches_and_resumes(standard):
    pdf, config = standard
    events = []

    def stop_after_first_batch(event):
        events.append(event)
        if event.phase == "vectors" and event.done >= BATCH:
            raise IndexCancelled

    emb = HashEmbedder()
    stopped = _run(config, pdf, emb, stop_after_first_batch)
    assert stopped.cancelled and emb.embedded == BATCH
    assert stopped.vectors_pending == stopped.chunks_written - BATCH > 0
    phases = [e.phase for e in events]
    assert phases.index("text-ready") < phases.index("vectors")  # text announced before any vector
    resumed = _run(config, pdf, emb)
    assert resumed.embedded == stopped.chunks_written - BATCH  # only what was missing
    assert Store(config.index_dir).pending_count() == 0


def test_search_says_when_vectors_are_pending(standard, capsys):
    pdf, config = standard
    assert main(["index", str(pdf), "--index-dir", str(config.index_dir), "--embedder", "e5", "--text-only",
                 "--document", "WIDGET-STD 3"]) == 0
    out = capsys.readouterr().out
    assert "vectors pending for" in out
    assert main(["search", "zeppelin5", "--index-dir", str(config.index_dir), "--limit", "1", "--json"]) == 0
    captured = capsys.readouterr()
    assert "zeppelin5" in json.loads(captured.out)[0]["text"] and "vectors pending for" in captured.err
    assert main(["index", str(pdf), "--index-dir", str(config.index_dir), "--embedder", "e5"]) == 0
    assert "vectors filled in" in capsys.readouterr().out
    assert main(["search", "zeppelin5", "--index-dir", str(config.index_dir), "--limit", "1"]) == 0
    assert "pending" not in capsys.readouterr().err


def test_worker_processes_give_the_in_process_vectors():
    from safereq.knowledge.embed_pool import E5ProcessPool
    from safereq.knowledge.embeddings import E5Embedder

    texts = ["The brake controller shall reach its safe state within 50 ms.", "制动控制器应在50毫秒内进入安全状态。",
             "Watchdog timeout"]
    with E5ProcessPool(2) as pool:
        pooled = np.array(pool.embed_passages(texts))
    local = np.array(E5Embedder(threads=1).embed_passages(texts))
    assert pooled.shape == (3, 384)
    assert np.allclose(pooled, local, atol=1e-4)
