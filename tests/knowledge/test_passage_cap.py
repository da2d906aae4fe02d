"""The embed-token cap: only the start of a chunk (header first) is embedded; the stored text stays whole."""

import numpy as np

from safereq.knowledge import open_knowledge_base
from safereq.knowledge.config import EmbedConfig, KnowledgeConfig
from safereq.knowledge.embeddings import E5Embedder, make_embedder
from safereq.knowledge.indexer import Indexer, path_jobs
from safereq.knowledge.passage_cap import cap_text


def words(text: str) -> int:
    return len(text.split())


def test_cap_keeps_the_longest_prefix_that_fits_cut_at_a_break():
    text = "Header line\n7.4.3 Title\n" + " ".join(f"w{i}" for i in range(100))
    capped = cap_text(text, 10, words)
    assert words(capped) == 10 and text.startswith(capped)
    assert capped.startswith("Header line\n7.4.3 Title\nw0") and capped.endswith("w5")


def test_short_texts_and_cap_zero_are_unchanged():
    text = "a b c"
    assert cap_text(text, 3, words) == text
    assert cap_text(text + " d e f", 0, words) == text + " d e f"


def test_a_text_without_break_points_is_cut_by_characters():
    text = "制动控制器应在五十毫秒内进入安全状态" * 10
    capped = cap_text(text, 12, len)
    assert capped == text[:12]


def test_the_environment_sets_the_cap_of_the_bundled_model():
    config = EmbedConfig.from_env({"SAFEREQ_EMBED_MAX_TOKENS": "64"})
    assert config.max_tokens == 64 and make_embedder(config).max_tokens == 64
    assert make_embedder(EmbedConfig.from_env({"SAFEREQ_EMBED_MAX_TOKENS": "0"})).max_tokens == 0


LONG = ("The brake controller shall reach its safe state within 50 ms after a detected sensor fault. " * 12
        + "The zeppelinquux register is cleared at the end.")


def test_the_model_embeds_the_capped_text_only():
    capped, whole = E5Embedder(threads=1, max_tokens=32), E5Embedder(threads=1, max_tokens=0)
    model = whole._load()
    assert model.token_count(LONG) > 100
    short = cap_text(LONG, 32, model.token_count)
    assert model.token_count(short) <= 32
    v_capped = np.array(capped.embed_passages([LONG])[0])
    assert np.allclose(v_capped, whole.embed_passages([short])[0], atol=1e-4)
    assert not np.allclose(v_capped, whole.embed_passages([LONG])[0], atol=1e-3)


def test_worker_processes_apply_the_same_cap():
    from safereq.knowledge.embed_pool import E5ProcessPool

    with E5ProcessPool(2, max_tokens=32) as pool:
        pooled = np.array(pool.embed_passages([LONG, "Watchdog timeout"]))
    local = np.array(E5Embedder(threads=1, max_tokens=32).embed_passages([LONG, "Watchdog timeout"]))
    assert np.allclose(pooled, local, atol=1e-4)


def test_the_index_stores_the_whole_chunk_and_the_capped_vector(tmp_path, monkeypatch):
    monkeypatch.setenv("SAFEREQ_EMBED_PROCESSES", "1")
    doc = tmp_path / "std" / "brakes.md"
    doc.parent.mkdir()
    doc.write_text(f"# 5 Brakes\n\n## 5.1 Safe state\n\n{LONG}\n", encoding="utf-8")
    config = KnowledgeConfig.resolve(tmp_path / "index", embedder="e5")
    embedder = E5Embedder(threads=1, max_tokens=32)
    jobs, _roots, _problems = path_jobs([doc], "BRAKE-STD")
    report = Indexer(config, embedder=embedder).run(jobs)
    assert report.vectors_pending == 0 and report.embedded
    kb = open_knowledge_base(tmp_path / "index", embedder=None)
    rows = kb.store.scan("clause = '5.1'", ["text", "search_text", "vector"])
    assert rows and "zeppelinquux" in rows[0]["text"]  # the end of the chunk is stored ...
    assert [h.clause for h in kb.search("zeppelinquux", mode="fts")] == ["5.1"]  # ... and searchable
    whole = E5Embedder(threads=1, max_tokens=0)
    expected = whole.embed_passages([cap_text(rows[0]["search_text"], 32, whole._load().token_count)])[0]
    assert np.allclose(rows[0]["vector"], expected, atol=1e-3)
