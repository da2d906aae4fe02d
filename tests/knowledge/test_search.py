"""Retrieval over an index built with the real bundled model: modes, filters, citations, multilingual queries."""

import pytest


def test_hits_carry_everything_a_citation_needs(kb):
    hits = kb.search("how long may the watchdog timeout be?", limit=3)
    top = hits[0]
    assert (top.document, top.clause) == ("ISO 99999-2", "5.2.1")
    assert top.year == "2020" and top.title == "Watchdog timeout" and top.page == 2
    assert top.text.startswith("The watchdog timeout shall be shorter")
    assert top.citation == "ISO 99999-2:2020 §5.2.1"
    assert top.path[-1] == "Watchdog timeout"
    assert hits[0].score >= hits[1].score >= hits[2].score
    js = top.to_json()
    assert {"document", "clause", "title", "score", "text"} <= set(js) and js["document"] == "ISO 99999-2:2020"


@pytest.mark.parametrize("mode", ["hybrid", "fts", "vector"])
def test_every_mode_finds_the_pump_clause_in_the_pdf(kb, mode):
    hits = kb.search("stalled coolant pump", limit=3, mode=mode)
    assert (hits[0].document, hits[0].clause, hits[0].page) == ("pump-note", "2", 2)


def test_a_chinese_question_finds_the_english_clause(kb):
    hits = kb.search("冷却泵停转时控制器应该怎么办？", limit=3)  # what should the controller do when the pump stalls?
    assert ("pump-note", "2") in [(h.document, h.clause) for h in hits]
    assert kb.search("冷却泵停转", mode="fts") == []  # the English full-text index cannot see it; vectors can


def test_filters_by_document_standard_part_and_clause(kb):
    assert {h.document for h in kb.search("safe state", limit=10, document="brake-guide")} == {"brake-guide"}
    assert {h.document for h in kb.search("safe state", limit=10, document="ISO 99999")} == {"ISO 99999-2"}
    assert {h.document for h in kb.search("safe state", limit=10, part="2")} == {"ISO 99999-2"}
    within = kb.search("widget", limit=20, document="ISO 99999-2", clause_prefix="5.2")
    assert within and {h.clause for h in within} <= {"5.2", "5.2.1", "Table 3"}
    both = kb.search("braking", limit=20, document=["brake-guide", "pump-note"])
    assert {h.document for h in both} <= {"brake-guide", "pump-note"}


def test_table_hits_and_catalogue_hits(kb):
    hits = kb.search("which methods test the watchdog", limit=5, kind="table")
    assert hits and hits[0].clause == "Table 3" and "Timeout injection" in hits[0].text
    cat = kb.search("overheating widget ignites material", limit=5, kind="catalogue")
    assert cat[0].clause == "B.2" and cat[0].kind == "catalogue"


def test_rerank_promotes_a_named_clause(kb):
    hits = kb.search("what does ISO 99999-2 §5.3 require?", limit=3, rerank=True)
    assert hits[0].clause == "5.3"


def test_bad_inputs(kb):
    assert kb.search("   ") == []
    assert kb.search("!!! ???", mode="fts") == []
    with pytest.raises(ValueError):
        kb.search("x", mode="semantic")
    with pytest.raises(ValueError):
        kb.search("x", clause_prefix="5' OR 1=1 --")
    assert kb.search("x'); DROP TABLE chunks; --", document="a'b") == []


def test_reading_an_index_does_not_import_lancedb(e5_index):
    """The read path goes through Lance datasets: `import lancedb` (1.2–2.5 s) is paid only by writers."""
    import subprocess
    import sys

    code = ("import sys; from safereq.knowledge import open_knowledge_base; "
            f"kb = open_knowledge_base({str(e5_index)!r}); "
            "hits = kb.search('stalled coolant pump', limit=3); "
            "print(hits[0].document, kb.read('ISO 99999-2', '5.2.1').title, 'lancedb' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.split() == ["pump-note", "Watchdog", "timeout", "False"]


def test_an_open_knowledge_base_sees_a_version_written_after_it_opened(e5_index, tmp_path):
    import shutil

    from safereq.knowledge import open_knowledge_base
    from safereq.knowledge.store import Store

    copy = tmp_path / "index"
    shutil.copytree(e5_index, copy)
    kb = open_knowledge_base(copy)
    hits = kb.search("stalled coolant pump", limit=5, mode="fts")
    assert hits[0].document == "pump-note"
    Store(copy, reader=False).delete_sources([hits[0].source])
    assert "pump-note" not in {h.document for h in kb.search("stalled coolant pump", limit=5, mode="fts")}
    assert "pump-note" not in {d.document for d in kb.documents()}
