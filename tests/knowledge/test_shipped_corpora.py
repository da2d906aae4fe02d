"""The real shipped corpora: manifest and notices, structure found in them, and coverage of the shipped vectors.

The index here is full-text only (no model), so the test stays well under a minute; ranking with vectors is
measured by eval/evaluate.py instead.
"""

import pytest

from safereq.knowledge.config import KnowledgeConfig
from safereq.knowledge.indexer import index_paths
from safereq.knowledge.manifest import load_manifest
from safereq.knowledge.paths import corpora_dir


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    from safereq.knowledge import open_knowledge_base

    index = tmp_path_factory.mktemp("shipped")
    report = index_paths(KnowledgeConfig.resolve(index, embedder="none"))
    assert not report.failed, report.failed
    return open_knowledge_base(index)


def test_manifest_lists_every_shipped_source_with_licence_and_notice():
    corpora = corpora_dir()
    sources = load_manifest(corpora)
    assert {s.id for s in sources} >= {"mil-std-882e", "nhtsa-dot-hs-812-573-alc", "voyage-oas-docs", "catalogue"}
    for s in sources:
        assert s.title and s.source and s.licence and s.version, s.id
        assert (corpora / s.notice).is_file(), s.notice
        assert s.files, f"{s.id}: no files matched"


def test_every_document_is_indexed(shipped):
    docs = {d.document for d in shipped.documents()}
    assert {"MIL-STD-882E", "DOT HS 812 573", "Voyage OAS", "ISO 21448", "ISO/PAS 8800"} <= docs
    assert {f"ISO 26262-{n}" for n in range(1, 13)} <= docs


def test_structure_of_the_real_documents(shipped):
    risk = shipped.resolve("MIL-STD-882E §4.3.3")
    assert risk.title == "Assess and document risk" and risk.pages and risk.kind == "text"
    severity = shipped.read("MIL-STD-882E", "Table I")
    assert "Catastrophic" in severity.text and severity.kind == "table"
    assert [c for c, _t in shipped.children("MIL-STD-882E", "Task 101")] == ["101.1", "101.2", "101.3"]
    fsr = [c for c, _t in shipped.children("DOT HS 812 573", "9.2")]
    assert [c for c in fsr if not c.startswith("Table")] == [f"9.2.{i}" for i in range(1, 9)]
    assert shipped.resolve("DOT HS 812 573 §8.3") is None  # not a standard reference; read() is the way
    assert shipped.read("DOT HS 812 573", "8.3").title == "Example Safe States"
    decomposition = shipped.resolve("ISO 26262-9:2018 §5.4.10")
    assert decomposition.kind == "catalogue" and decomposition.title


def test_full_text_search_on_real_text(shipped):
    top = shipped.search("mishap severity categories", limit=3, mode="fts")
    assert ("MIL-STD-882E", "Table I") in [(h.document, h.clause) for h in top]
    hara = shipped.search("hazard analysis risk assessment", limit=5, document="Voyage OAS")
    assert "Hazard Analysis & Risk Assessment" in [h.title for h in hara]


def test_shipped_vectors_cover_the_shipped_chunks(shipped):
    from safereq.knowledge.embeddings import E5Embedder
    from safereq.knowledge.seed import load_seed, seed_path

    seed = load_seed(seed_path(E5Embedder.model_id))
    assert seed, "corpora/embeddings/ has no vectors for the default model"
    hashes = {r["embed_hash"] for r in shipped.store.scan(None, ["embed_hash"])}
    covered = len(hashes & seed.keys()) / len(hashes)
    assert covered >= 0.9, f"only {covered:.0%} of the shipped chunks have shipped vectors: regenerate the seed"
