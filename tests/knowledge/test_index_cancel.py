"""Cancelling an indexing run from its progress callback (the language server's Cancel button): the run stops
at the next file or PDF page, keeps what it wrote, and every other file keeps its previous version."""

import shutil

from safereq.knowledge import IndexCancelled
from safereq.knowledge.config import KnowledgeConfig
from safereq.knowledge.indexer import Indexer, path_jobs
from safereq.knowledge.store import Store

from .knowledge_helpers import FIXTURES, HashEmbedder, make_pdf


def _run(config, src, progress=None):
    jobs, roots, _problems = path_jobs([src])
    return Indexer(config, progress, embedder=HashEmbedder()).run(jobs, prune_prefixes=[r + "/" for r in roots])


def _texts(config, name):
    return " ".join(r["text"] for r in Store(config.index_dir).scan(None, ["source", "text"])
                    if r["source"].endswith(name))


def test_cancel_between_files_keeps_written_files_and_previous_versions(tmp_path):
    src = tmp_path / "docs"
    shutil.copytree(FIXTURES / "corpus", src)
    config = KnowledgeConfig.resolve(tmp_path / "index", embedder="none")
    assert not _run(config, src).cancelled
    md, txt = src / "brake-guide.md", src / "widget-standard.txt"  # indexed in this order
    md.write_text(md.read_text() + "\n\n## 9 Added clause\n\nThe added clause mentions zanzibar.\n")
    txt.write_text(txt.read_text().replace("A watchdog shall supervise", "A revised watchdog shall supervise"))
    events = []

    def cancel_at_second_file(event):
        events.append(event)
        if event.phase == "index" and event.done == 1:
            raise IndexCancelled()

    report = _run(config, src, cancel_at_second_file)
    assert report.cancelled
    assert report.indexed == [str(md.resolve())]
    assert "zanzibar" in _texts(config, "brake-guide.md")
    assert "A watchdog shall supervise" in _texts(config, "widget-standard.txt")  # the previous version
    assert "revised" not in _texts(config, "widget-standard.txt")
    assert events[-1].phase == "done" and events[-1].message == "cancelled"
    assert not any(e.phase == "finish" for e in events)

    again = _run(config, src)  # the next run picks up where the cancelled one stopped
    assert not again.cancelled and again.indexed == [str(txt.resolve())]
    assert "A revised watchdog" in _texts(config, "widget-standard.txt")


def test_cancel_inside_a_pdf_stops_within_a_page(tmp_path):
    src = tmp_path / "pdfs"
    src.mkdir()
    (src / "note.pdf").write_bytes(make_pdf([["NOTE 1", "1 Scope", f"Page {i} of the note."] for i in range(5)]))
    config = KnowledgeConfig.resolve(tmp_path / "index", embedder="none")
    pages = []

    def cancel_on_page_two(event):
        if event.phase == "page":
            pages.append((event.done, event.total, event.message))
            if event.done == 2:
                raise IndexCancelled()

    report = _run(config, src, cancel_on_page_two)
    assert report.cancelled and report.indexed == [] and report.failed == []
    assert pages == [(0, 5, "note.pdf"), (1, 5, "note.pdf"), (2, 5, "note.pdf")]
    assert _texts(config, "note.pdf") == ""
