"""Incremental indexing: skip unchanged files, reuse vectors of unchanged text, commit atomically, report progress."""

import shutil

import pytest

from safereq.knowledge.config import KnowledgeConfig
from safereq.knowledge.indexer import Indexer, index_paths, path_jobs
from safereq.knowledge.store import Store

from .knowledge_helpers import FIXTURES, HashEmbedder


@pytest.fixture()
def work(tmp_path):
    src = tmp_path / "docs"
    shutil.copytree(FIXTURES / "corpus", src)
    return src, KnowledgeConfig.resolve(tmp_path / "index", embedder="none")


def _run(config, paths, embedder, **kw):
    jobs, roots, problems = path_jobs(paths)
    return Indexer(config, embedder=embedder, **kw).run(jobs, prune_prefixes=[r + "/" for r in roots])


def test_unchanged_files_are_skipped_and_changed_text_reuses_vectors(work):
    src, config = work
    emb = HashEmbedder()
    first = _run(config, [src], emb)
    assert len(first.indexed) == 2 and first.embedded == emb.embedded > 0
    again = _run(config, [src], emb)
    assert again.indexed == [] and len(again.skipped) == 2 and emb.embedded == first.embedded

    md = src / "brake-guide.md"
    md.write_text(md.read_text().replace("above 0.3 g deceleration", "above 0.25 g deceleration"))
    before = emb.embedded
    third = _run(config, [src], emb)
    assert third.indexed == [str(md.resolve())]
    assert emb.embedded - before == 1  # only the edited chunk was embedded again
    assert third.embed_cache_hits >= 3


def test_deleted_files_leave_the_index(work):
    src, config = work
    _run(config, [src], HashEmbedder())
    (src / "brake-guide.md").unlink()
    report = _run(config, [src], HashEmbedder())
    assert [s.endswith("brake-guide.md") for s in report.removed] == [True]
    assert all(not f.source.endswith("brake-guide.md") for f in Store(config.index_dir).files())


def test_failed_embedding_keeps_the_new_text_searchable_and_the_next_run_fills_the_vectors(work):
    src, config = work
    _run(config, [src], HashEmbedder())
    md = src / "brake-guide.md"
    md.write_text(md.read_text() + "\n\n## 3 New clause\n\nBrand new text about the zeppelin interlock.\n")
    report = _run(config, [src], HashEmbedder(fail_after=0))
    assert report.failed and "simulated embedding failure" in report.failed[0][1]
    assert report.indexed == [str(md.resolve())] and report.vectors_pending == 1
    store = Store(config.index_dir)
    assert store.pending_count() == 1
    assert "zeppelin" in " ".join(r["text"] for r in store.scan(None, ["text"]))
    emb = HashEmbedder()
    again = _run(config, [src], emb)
    assert again.indexed == [] and again.embedded == emb.embedded == 1 and again.vectors_pending == 0
    assert Store(config.index_dir).pending_count() == 0


def test_hostile_file_fails_alone_and_the_rest_is_indexed(work):
    src, config = work
    (src / "evil.pdf").write_bytes(b"%PDF-1.7\n" + b"\xff" * 5000)
    report = _run(config, [src], HashEmbedder())
    assert len(report.indexed) == 2
    assert [s.endswith("evil.pdf") for s, _e in report.failed] == [True]
    assert "malformed PDF" in report.failed[0][1] or "no text layer" in report.failed[0][1]


def test_progress_events_cover_every_file(work):
    src, config = work
    events = []
    _run(config, [src], HashEmbedder(), progress=events.append)
    files = [e for e in events if e.phase == "index"]
    assert [e.done for e in files] == [0, 1] and all(e.total == 2 for e in files)
    assert events[-1].phase == "done" and events[-1].fraction == 1.0


def test_model_is_recorded_and_a_new_model_rebuilds(work):
    src, config = work
    _run(config, [src], HashEmbedder())
    assert Store(config.index_dir).model() == ("test:hash-bow-64", 64)
    report = index_paths(config, [src])  # embedder "none" from the config: a different model
    assert len(report.indexed) == 2
    assert Store(config.index_dir).model() == ("none", 0)


def test_missing_and_unsupported_paths_are_reported(work, tmp_path):
    src, config = work
    (tmp_path / "x.docx").write_bytes(b"PK")
    report = index_paths(config, [src / "nope.md", tmp_path / "x.docx", src / "brake-guide.md"])
    assert {e for _s, e in report.failed} == {"no such file or folder", "unsupported file type .docx"}
    assert len(report.indexed) == 1


def test_a_new_chunker_version_rechunks_but_reuses_vectors(work, monkeypatch):
    from safereq.knowledge import indexer

    src, config = work
    emb = HashEmbedder()
    _run(config, [src], emb)
    before = emb.embedded
    monkeypatch.setattr(indexer, "CHUNKER_VERSION", "test-next")
    report = _run(config, [src], emb)
    assert len(report.indexed) == 2 and emb.embedded == before and report.embed_cache_hits > 0
    assert {f.chunker for f in Store(config.index_dir).files()} == {"test-next"}
